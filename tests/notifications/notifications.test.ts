/**
 * Notifications through the real parts (decision 073): the REST doors on the
 * real app over a real libSQL file; e-mails through the outbox and nodemailer
 * to a real SMTP server (python3-aiosmtpd) this test starts, read back from it,
 * List-Unsubscribe header and one-click POST included; the periodic scan run
 * twice and again from a fresh process's services (a restart) sends "due soon" once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { assignmentProblems, assignmentScores, notifications, users } from "../../db/schema.ts";
import { createApp } from "../../src/app.ts";
import { queueNoticeMails } from "../../src/notifications/mail.ts";
import { runNotificationScan } from "../../src/notifications/scan.ts";
import { startMailSender, type MailSender } from "../../src/mail/sender.ts";
import { RateLimiter } from "../../src/lib/rate-limit.ts";
import { problemBody, request } from "../api.ts";
import { courseApp, testClock, world, type CourseApp, type World } from "../courses/fixtures.ts";
import { startSmtpSink, type SmtpSink } from "../mail/smtp.ts";

let smtp: SmtpSink;
let a: CourseApp;
let w: World;
let sender: MailSender;
const clock = testClock("2026-05-04T10:00:00Z");
const ROOT = join(import.meta.dir, "..", "..");

beforeAll(async () => {
  smtp = await startSmtpSink();
  a = await courseApp({ clock });
  // courseApp builds services without mail: rebuild them with the SMTP settings.
  a.t.cleanup();
  const { createTestServices } = await import("../services.ts");
  a.t = await createTestServices({ clock, env: { SMTP_URL: smtp.url, PUBLIC_URL: "https://judge.example.edu", MAIL_FROM: "Judge <judge@example.edu>" } });
  a.app = createApp(a.t.services);
  sender = startMailSender({ db: a.t.services.db, config: a.t.config, log: a.t.services.log }, {
    pollMs: 100,
    beforeRound: () => queueNoticeMails({ db: a.t.services.db, config: a.t.config, sessionKey: a.t.services.sessionKey, now: clock }),
  });
  a.t.services.mail = sender;
  w = await world(a);
}, 60_000);

afterAll(async () => {
  await sender?.stop();
  await smtp?.stop();
  a?.t.cleanup();
});

/** Polls `read` until `ok` holds (notices are made right after the answer that causes them). */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await Bun.sleep(20);
  }
}
const unread = (token: string) => request(a.app, "GET", "/api/notifications/unread-count", { token }).then((r) => r.body.unread as number);

// Notices only: a password sign-up also mails its address's verification link (decision 071).
const mailTo = (to: string) => smtp.messagesTo(to, { notices: true });
const waitForMailTo = (to: string, n = 1) => smtp.waitForTo(to, n, { notices: true });

describe("announcements", () => {
  test("a student may not post (403), an outsider sees no course (404), bad input names the field (400)", async () => {
    const body = { title: "Exam moved", body: "To **Friday**." };
    const student = await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token: w.student.token, body });
    expect(student.status).toBe(403);
    const outsider = await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token: w.outsider.token, body });
    expect(outsider.status).toBe(404);
    const noTitle = await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token: w.owner.token, body: { body: "x" } });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.field).toBe("title");
    const longTitle = await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token: w.owner.token, body: { title: "x".repeat(201), body: "x" } });
    expect(longTitle.status).toBe(400);
    expect(longTitle.body.field).toBe("title");
    const blankBody = await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token: w.owner.token, body: { title: "t", body: "   " } });
    expect(blankBody.status).toBe(400);
    expect(blankBody.body.field).toBe("body");
    const anon = await request(a.app, "GET", "/api/notifications/unread-count");
    expect(anon.status).toBe(401);
  });

  test("staff posts: every other member gets a notice and an e-mail in their language with one-click unsubscribe", async () => {
    // The second student reads German.
    await a.t.services.db.update(users).set({ locale: "de" }).where(eq(users.id, w.student2.id));
    const posted = await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, {
      token: w.ta.token,
      body: { title: "Exam moved", body: "The exam is on **Friday** now." },
    });
    expect(posted.status).toBe(201);
    const list = await request(a.app, "GET", `/api/courses/${w.courseId}/announcements`, { token: w.student.token });
    expect(list.status).toBe(200);
    expect(list.body.canPost).toBe(false);
    expect(list.body.items[0].title).toBe("Exam moved");
    expect(list.body.items[0].canDelete).toBe(false);

    // In the app: the count, the list, mark read.
    expect(await eventually(() => unread(w.student.token), (n) => n === 1)).toBe(1);
    const mine = await request(a.app, "GET", "/api/notifications", { token: w.student.token });
    expect(mine.body.items).toHaveLength(1);
    expect(mine.body.items[0]).toMatchObject({ kind: "announcement", courseId: w.courseId, payload: { title: "Exam moved", course: "Algorithms" }, readAt: null });
    // The author is not notified of their own announcement.
    expect((await request(a.app, "GET", "/api/notifications/unread-count", { token: w.ta.token })).body.unread).toBe(0);

    // By e-mail: the student's in English, the second's in German.
    const [mail] = await waitForMailTo(w.student.email);
    expect(mail!.subject).toBe("Algorithms: Exam moved");
    expect(mail!.text).toContain("The exam is on **Friday** now.");
    expect(mail!.html).toContain("https://judge.example.edu/courses/");
    expect(mail!.listUnsubscribePost).toBe("List-Unsubscribe=One-Click");
    expect(mail!.listUnsubscribe?.trim()).toMatch(/^<https:\/\/judge\.example\.edu\/api\/notifications\/unsubscribe\?token=[^>]+>$/);
    const [german] = await waitForMailTo(w.student2.email);
    expect(german!.text).toContain("Das Kursteam hat in Algorithms eine Ankündigung veröffentlicht");

    // Mark read.
    const read = await request(a.app, "POST", "/api/notifications/read", { token: w.student.token, body: { ids: [mine.body.items[0].id] } });
    expect(read.body).toEqual({ marked: 1, unread: 0 });
    const bad = await request(a.app, "POST", "/api/notifications/read", { token: w.student.token, body: { ids: "x" } });
    expect(bad.status).toBe(400);

    // One-click unsubscribe as a mail provider posts it (RFC 8058): the link, a form body, no session.
    const link = new URL(mail!.listUnsubscribe!.trim().slice(1, -1));
    const res = await a.app.request(link.pathname + link.search, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.example.net" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: "announcement", email: false });
    const prefs = await request(a.app, "GET", "/api/notifications/preferences", { token: w.student.token });
    expect(prefs.body.kinds.find((k: { kind: string }) => k.kind === "announcement")).toEqual({ kind: "announcement", inApp: true, email: false });

    // A forged token is refused, naming the field.
    const forged = await request(a.app, "POST", "/api/notifications/unsubscribe", { body: { token: `${w.student2.id}.announcement.AAAAAAAAAAAAAAAAAAAAAA` } });
    expect(forged.status).toBe(400);
    expect(forged.body.field).toBe("token");

    // The next announcement reaches the student in the app but not by mail; the second student by both.
    const before = mailTo(w.student.email).length;
    await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token: w.owner.token, body: { title: "Second", body: "More." } });
    expect(await eventually(() => unread(w.student.token), (n) => n === 1)).toBe(1);
    await waitForMailTo(w.student2.email, 2);
    await Bun.sleep(300);
    expect(mailTo(w.student.email).length).toBe(before);
    expect((await request(a.app, "GET", "/api/notifications/unread-count", { token: w.student.token })).body.unread).toBe(1);
    // Mark all read.
    expect((await request(a.app, "POST", "/api/notifications/read", { token: w.student.token, body: { all: true } })).body).toEqual({ marked: 1, unread: 0 });
  });

  test("delete: not by another staff member (403); by the course's owner; its notices go with it", async () => {
    const posted = await request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token: w.instructor.token, body: { title: "Oops", body: "Wrong course." } });
    const id = posted.body.id;
    await eventually(() => unread(w.student2.token), (n) => n > 0);
    expect((await request(a.app, "DELETE", `/api/courses/${w.courseId}/announcements/${id}`, { token: w.ta.token })).status).toBe(403);
    expect((await request(a.app, "DELETE", `/api/courses/${w.courseId}/announcements/${id}`, { token: w.student.token })).status).toBe(403);
    expect((await request(a.app, "DELETE", `/api/courses/${w.courseId}/announcements/${id}`, { token: w.owner.token })).status).toBe(200);
    const left = await a.t.services.db.select().from(notifications).where(eq(notifications.announcementId, id));
    expect(left).toHaveLength(0);
    expect((await request(a.app, "DELETE", `/api/courses/${w.courseId}/announcements/${id}`, { token: w.owner.token })).status).toBe(404);
  });

  test("past RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE (any of the staff), 429 naming it; an hour later, allowed again", async () => {
    expect(a.t.config.RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE).toEqual({ limit: 10, windowMs: 3_600_000 });
    const limiters = a.t.services.limiters;
    const original = limiters.announcementsByCourse;
    limiters.announcementsByCourse = new RateLimiter({ limit: 2, windowMs: 3_600_000, now: clock });
    try {
      const post = (token: string, title: string) => request(a.app, "POST", `/api/courses/${w.courseId}/announcements`, { token, body: { title, body: "Room change." } });
      expect((await post(w.owner.token, "One")).status).toBe(201);
      expect((await post(w.instructor.token, "Two")).status).toBe(201);
      const third = await post(w.instructor.token, "Three");
      expect(third.status).toBe(429);
      expect(third.body.message).toContain("RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE");
      const listed = await request(a.app, "GET", `/api/courses/${w.courseId}/announcements`, { token: w.student.token });
      expect(listed.body.items.map((i: { title: string }) => i.title)).not.toContain("Three");
      clock.advance(3_600_000);
      expect((await post(w.owner.token, "Four")).status).toBe(201);
    } finally {
      limiters.announcementsByCourse = original;
    }
  });
});

describe("preferences", () => {
  test("defaults, setting, and bad input naming the field", async () => {
    const p = await request(a.app, "GET", "/api/notifications/preferences", { token: w.outsider.token });
    expect(p.body.mailEnabled).toBe(true);
    expect(p.body.kinds.find((k: { kind: string }) => k.kind === "assignment-opened")).toEqual({ kind: "assignment-opened", inApp: true, email: false });
    const set = await request(a.app, "PUT", "/api/notifications/preferences", { token: w.outsider.token, body: { kinds: [{ kind: "assignment-opened", inApp: false, email: true }] } });
    expect(set.status).toBe(200);
    expect(set.body.kinds.find((k: { kind: string }) => k.kind === "assignment-opened")).toEqual({ kind: "assignment-opened", inApp: false, email: true });
    const bad = await request(a.app, "PUT", "/api/notifications/preferences", { token: w.outsider.token, body: { kinds: [{ kind: "spam", inApp: true, email: true }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("kinds.0.kind");
    const badCursor = await request(a.app, "GET", "/api/notifications?cursor=nonsense", { token: w.outsider.token });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.field).toBe("cursor");
  });
});

describe("the periodic scan", () => {
  test("'due soon' goes once to each student who has not solved everything, even when run twice or after a restart", async () => {
    const db = a.t.services.db;
    const problemId = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: problemBody({ courseId: w.courseId }) })).body._id;
    expect(problemId).toBeString();
    // Opened yesterday, due in 20 hours.
    const created = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "Week 3", opensAt: "2026-05-03T12:00:00Z", dueAt: "2026-05-05T06:00:00Z", problems: [{ problemId }] },
    });
    expect(created.status).toBe(201);
    const assignmentId = created.body.id as string;
    // The second student solved it already (full points on its one problem).
    const [ap] = await db.select().from(assignmentProblems).where(eq(assignmentProblems.assignmentId, assignmentId));
    await db.insert(assignmentScores).values({ assignmentId, userId: w.student2.id, problemId, score: ap!.points, attempts: 1 });

    const scan = () => runNotificationScan({ db, now: clock, mail: true });
    const first = await scan();
    expect(first.dueSoon).toBe(1);
    expect(first.opened).toBe(1);
    await scan();
    // After a restart: a fresh process over the same database file (nothing kept in memory) scans a minute later.
    const child = Bun.spawnSync(
      [
        "bun",
        "-e",
        `import { openDatabase } from "${ROOT}/db/index.ts"; import { runNotificationScan } from "${ROOT}/src/notifications/scan.ts";
         const { db, client } = await openDatabase(process.env.DATABASE_URL); const r = await runNotificationScan({ db, now: () => ${clock() + 60_000}, mail: true });
         console.log(JSON.stringify(r)); client.close();`,
      ],
      { env: { ...process.env, DATABASE_URL: a.t.url } },
    );
    expect(child.exitCode).toBe(0);
    expect(JSON.parse(child.stdout.toString().trim()).dueSoon).toBe(1);

    const due = await db.select().from(notifications).where(and(eq(notifications.kind, "assignment-due"), eq(notifications.assignmentId, assignmentId)));
    expect(due.map((n) => n.userId)).toEqual([w.student.id]);
    expect(due[0]!.payload.dueAt).toBe("2026-05-05T06:00:00.000Z");
    const opened = await db.select().from(notifications).where(and(eq(notifications.kind, "assignment-opened"), eq(notifications.assignmentId, assignmentId)));
    expect(opened.map((n) => n.userId).sort()).toEqual([w.student.id, w.student2.id].sort());

    const dueMails = () => mailTo(w.student.email).filter((m) => m.subject === "Week 3 is due within 24 hours");
    for (const until = Date.now() + 15_000; dueMails().length === 0 && Date.now() < until; ) await Bun.sleep(50);
    await Bun.sleep(500);
    const mails = dueMails();
    expect(mailTo(w.student.email).filter((m) => m.subject === "Week 3 is due within 24 hours")).toHaveLength(1);
    expect(mails[0]!.text).toContain("is due May 5, 2026");
    expect(mailTo(w.student2.email).some((m) => m.subject.startsWith("Week 3 is due"))).toBe(false);
    // "Opened" mails are off by default: none.
    expect(mailTo(w.student.email).some((m) => m.subject === "Week 3 is open")).toBe(false);
  }, 30_000);
});

describe("a grade changed", () => {
  test("a staff edit that changes a student's total notifies that student (in the app and by e-mail), once", async () => {
    const db = a.t.services.db;
    const problemId = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: problemBody({ courseId: w.courseId }) })).body._id;
    const created = await request(a.app, "POST", `/api/courses/${w.courseId}/assignments`, {
      token: w.owner.token,
      body: { title: "Week 4", opensAt: "2026-05-01T12:00:00Z", dueAt: "2026-06-05T06:00:00Z", problems: [{ problemId }] },
    });
    const assignmentId = created.body.id as string;
    // A cell the recomputation will not find a submission for: the student's total drops from 100 to 0.
    await db.insert(assignmentScores).values({ assignmentId, userId: w.student.id, problemId, score: 100, attempts: 1 });
    const edit = await request(a.app, "PATCH", `/api/assignments/${assignmentId}`, { token: w.owner.token, body: { latePenaltyPercent: 10 } });
    expect(edit.status).toBe(200);
    const notices = await db.select().from(notifications).where(and(eq(notifications.kind, "grade-changed"), eq(notifications.assignmentId, assignmentId)));
    expect(notices.map((n) => [n.userId, n.payload])).toEqual([[w.student.id, { title: "Week 4", course: "Algorithms", before: "100", score: "0" }]]);
    const mine = await request(a.app, "GET", "/api/notifications", { token: w.student.token });
    expect(mine.body.items.find((i: { kind: string }) => i.kind === "grade-changed")).toMatchObject({ kind: "grade-changed", assignmentId });
    const subject = "Your score on Week 4 changed";
    for (const until = Date.now() + 15_000; !mailTo(w.student.email).some((m) => m.subject === subject) && Date.now() < until; ) await Bun.sleep(50);
    const mail = mailTo(w.student.email).find((m) => m.subject === subject);
    expect(mail?.text).toContain("Your score on Week 4 in Algorithms changed from 100 to 0.");
    expect(mail?.text).toContain(`https://judge.example.edu/assignments/${assignmentId}`);
    // The second student's total did not change: nothing for them.
    expect((await db.select().from(notifications).where(and(eq(notifications.kind, "grade-changed"), eq(notifications.userId, w.student2.id)))).length).toBe(0);
  }, 30_000);
});
