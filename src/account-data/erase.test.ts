/**
 * DELETE /api/account on a real libSQL file (decision 072): a user with data in every table the export
 * covers (and the rest that hold something of theirs) is erased; then every row of every table is read
 * back and none holds their name, address, handle, code outside courses or words, while the course's
 * grade records and the contest standings remain, pointing at an anonymous tombstone.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import {
  aiRequests,
  assignmentProblems,
  assignments,
  assignmentScores,
  contactMessages,
  contestClarifications,
  contestEvents,
  contestProblems,
  contests,
  contestTeamMembers,
  contestTeams,
  courseInvites,
  courseMembers,
  courses,
  extensions,
  externalIdentities,
  judgeFinishes,
  mailOutbox,
  passwordResetRequests,
  passwordResetTokens,
  emailTokens,
  notifications,
  notificationPreferences,
  announcements,
  problems,
  problemStats,
  sessions,
  similarityMarks,
  similarityReports,
  submissions,
  twoFactorRecoveryCodes,
  userProblemStatus,
  users,
} from "../../db/schema.ts";
import { createApp } from "../app.ts";
import { createSession } from "../auth/session.ts";
import { request, signUp } from "../../tests/api.ts";
import { problemRow } from "../../tests/fixtures/problem.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { newTotpKeyHex, totpCodeAt, totpStep } from "../accounts/two-factor/totp.ts";
import { RECENT_SIGN_IN_MS } from "./erase.ts";
import { erasedEmail } from "../accounts/erasure.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

const erase = (token: string, body: unknown) => request(app, "DELETE", "/api/account", { token, body });

/** Every row of every table, as JSON text (the whole database, read back row by row). */
async function everyRow(): Promise<{ table: string; row: string }[]> {
  const tables = await t.services.db.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'`);
  const out: { table: string; row: string }[] = [];
  for (const { name } of tables) for (const row of await t.services.db.all(sql.raw(`SELECT * FROM "${name}"`))) out.push({ table: name, row: JSON.stringify(row) });
  return out;
}

test("erasure deletes everything personal and keeps the course's grade records, anonymised", async () => {
  const db = t.services.db;
  const teacher = await signUp(app, { firstName: "Tess", lastName: "Teacher" });
  const other = await signUp(app, { firstName: "Otto", lastName: "Other" });
  const me = await signUp(app, { firstName: "Zelda", lastName: "Quixote", email: `zelda.quixote-${crypto.randomUUID().slice(0, 6)}@example.com` });
  const id = me.user.id;
  const normalized = me.email.toLowerCase();
  await db.update(users).set({ handle: "zelda-q", profilePublic: true, locale: "de" }).where(eq(users.id, id));

  // Sign-in and account rows.
  await db.insert(externalIdentities).values({ userId: id, provider: "oidc:campus", issuer: "https://idp.example", subject: "zelda-subject-77", email: me.email });
  await db.insert(twoFactorRecoveryCodes).values({ codeHash: "f".repeat(64), userId: id });
  await db.insert(passwordResetTokens).values({ tokenHash: "e".repeat(64), userId: id, expiresAt: new Date(Date.now() + 3_600_000) });
  await db.insert(passwordResetRequests).values({ email: me.email });
  await db.insert(emailTokens).values([
    { tokenHash: "d".repeat(64), userId: id, purpose: "verify", email: me.email, expiresAt: new Date(Date.now() + 86_400_000) },
    { tokenHash: "c".repeat(64), userId: id, purpose: "change", email: "zelda.new@example.org", expiresAt: new Date(Date.now() + 86_400_000) },
  ]);
  await db.insert(contactMessages).values({ name: "Zelda Quixote", email: me.email, message: "ZELDA WROTE THIS", userId: id });
  await db.insert(mailOutbox).values([
    { messageId: "<z1@x>", kind: "password-reset", toAddress: me.email, subject: "Reset, Zelda", textBody: "Hello Zelda", htmlBody: "<p>Hello Zelda</p>" },
    { messageId: "<o1@x>", kind: "password-reset", toAddress: other.email, subject: "Reset, Otto", textBody: "Hello Otto", htmlBody: "<p>Hello Otto</p>" },
  ]);
  await db.insert(aiRequests).values({ userId: id });

  // A course: an assignment on the teacher's problem, the student's submission and score, and an invitation to the address.
  const [course] = await db.insert(courses).values({ title: "Algorithms", code: `ALG-${id.slice(0, 5)}`, codeNormalized: `alg-${id.slice(0, 5)}`, createdBy: teacher.user.id }).returning();
  await db.insert(courseMembers).values([
    { courseId: course!.id, userId: teacher.user.id, role: "owner" },
    { courseId: course!.id, userId: id, role: "student" },
  ]);
  await db.insert(courseInvites).values({ courseId: course!.id, emailNormalized: normalized, name: "Zelda Quixote", role: "student" });
  const [taught] = await db.insert(problems).values(problemRow(teacher.user.id, { title: "Taught" })).returning();
  const [assignment] = await db.insert(assignments).values({ courseId: course!.id, title: "Week 1", opensAt: new Date(0), feedback: "full" }).returning();
  await db.insert(assignmentProblems).values({ assignmentId: assignment!.id, problemId: taught!.id, ordinal: 0 });
  const [announced] = await db.insert(announcements).values({ courseId: course!.id, authorId: id, title: "Study group", body: "Room 4" }).returning();
  await db.insert(notifications).values({ userId: id, kind: "announcement", subjectKey: `announcement:${announced!.id}`, courseId: course!.id, announcementId: announced!.id, payload: { title: "Study group", course: "Algorithms" } });
  await db.insert(notificationPreferences).values({ userId: id, kind: "announcement", inApp: true, email: false });
  await db.insert(submissions).values([
    { id: "sub-course", userId: id, problemId: taught!.id, language: "py", code: "print(int(input()) + 1)  # graded", status: "done", verdict: "AC", isPassed: true, assignmentId: assignment!.id },
    { id: "sub-public", userId: id, problemId: taught!.id, language: "py", code: "# ZELDA PRACTICE", status: "done", verdict: "WA" },
  ]);
  await db.insert(judgeFinishes).values({ submissionId: "sub-public", claimToken: "claim-1", host: "local", verdict: "WA" });
  await db.insert(assignmentScores).values({ assignmentId: assignment!.id, userId: id, problemId: taught!.id, score: 100, bestSubmissionId: "sub-course", bestVerdict: "AC", attempts: 1 });
  await db.insert(extensions).values({ assignmentId: assignment!.id, userId: id, dueAt: new Date(Date.now() + 86_400_000), grantedBy: teacher.user.id });
  const [report] = await db
    .insert(similarityReports)
    .values({ scopeKind: "assignment", scopeId: assignment!.id, options: {}, setKey: "erase-test", status: "done", result: { pairs: [{ left: "sub-course", right: "sub-x", similarity: 0.9 }] }, createdBy: teacher.user.id })
    .returning();
  await db.insert(similarityMarks).values({ scopeKind: "assignment", scopeId: assignment!.id, leftSubmissionId: "sub-course", rightSubmissionId: "sub-x", status: "reviewed", note: "fine", reportId: report!.id, markedBy: teacher.user.id });
  await db.insert(userProblemStatus).values({ userId: id, problemId: taught!.id, status: "solved", publicStatus: "attempted", submissionCount: 2, firstSubmittedAt: new Date(), lastSubmittedAt: new Date() });
  await db.insert(problemStats).values({ problemId: taught!.id, submitters: 1, solvers: 0 }).onConflictDoUpdate({ target: problemStats.problemId, set: { submitters: 1, solvers: 0 } });

  // Problems the student wrote: one nobody used (deleted), one another user submitted to (kept).
  const [unused] = await db.insert(problems).values(problemRow(id, { title: "Zelda's unused problem" })).returning();
  const [used] = await db.insert(problems).values(problemRow(id, { title: "Shared puzzle" })).returning();
  await db.insert(submissions).values({ id: "sub-other", userId: other.user.id, problemId: used!.id, language: "py", code: "print(1)", status: "done", verdict: "WA" });

  // A contest: a team of one with the student's name and affiliation, a submission, a question, and the feed's events.
  const [contest] = await db
    .insert(contests)
    .values({ shortName: `c-${id.slice(0, 6)}`, title: "Cup", startsAt: new Date(Date.now() - 3_600_000), durationMinutes: 300, scoring: "icpc", registration: "open", createdBy: teacher.user.id })
    .returning();
  await db.insert(contestProblems).values({ contestId: contest!.id, problemId: taught!.id, label: "A", ordinal: 0 });
  const [team] = await db.insert(contestTeams).values({ contestId: contest!.id, name: "Zelda Quixote", nameNormalized: "zelda quixote", organization: "Quixote University", joinCode: `jz-${id}` }).returning();
  await db.insert(contestTeamMembers).values({ contestId: contest!.id, teamId: team!.id, userId: id });
  await db.insert(submissions).values({ id: "sub-contest", userId: id, problemId: taught!.id, language: "py", code: "print(2)", status: "done", verdict: "WA", contestId: contest!.id, teamId: team!.id });
  const [question] = await db.insert(contestClarifications).values({ contestId: contest!.id, fromTeamId: team!.id, text: "ZELDA ASKS about A", createdBy: id }).returning();
  await db.insert(contestEvents).values([
    { contestId: contest!.id, type: "teams", objectId: team!.id, data: JSON.stringify({ id: team!.id, name: "Zelda Quixote", display_name: "Zelda Quixote", organization_id: "quixote-university" }), audience: "all", createdAt: new Date() },
    { contestId: contest!.id, type: "clarifications", objectId: question!.id, data: JSON.stringify({ id: question!.id, text: "ZELDA ASKS about A" }), audience: "jury", createdAt: new Date() },
  ]);

  // The scoreboard is built (and cached in this process) with the team's name.
  const boardBefore = await request(app, "GET", `/api/contests/${contest!.id}/scoreboard`, { token: teacher.token });
  expect(boardBefore.status).toBe(200);
  expect(JSON.stringify(boardBefore.body)).toContain("Zelda Quixote");

  const before = await everyRow();
  expect(before.some((r) => r.row.includes("Zelda"))).toBe(true);

  const res = await erase(me.token, { password: me.password });
  expect(res.status).toBe(200);
  expect(res.body.message).toBe("Your account has been deleted.");
  expect(res.headers.getSetCookie().some((c) => c.startsWith("oj_session=;"))).toBe(true);

  // The session stops at once; the account cannot sign in again.
  expect((await request(app, "GET", "/api/auth/me", { token: me.token })).status).toBe(401);
  expect((await request(app, "GET", "/api/auth/me", { cookie: me.cookie })).status).toBe(401);
  expect((await request(app, "POST", "/api/auth/login", { body: { email: me.email, password: me.password } })).status).toBe(401);
  // An administrator cannot hand the tombstone a reset link either.
  const admin = await signUp(app);
  await db.update(users).set({ siteRole: "admin" }).where(eq(users.id, admin.user.id));
  const link = await request(app, "POST", `/api/admin/accounts/${id}/reset-link`, { token: admin.token });
  expect([link.status, link.body.field]).toEqual([400, "userId"]);
  // Nor does the tombstone appear in the admin's list of accounts (the admin's own does).
  const listed = (await request(app, "GET", "/api/admin/accounts?limit=200", { token: admin.token })).body.accounts as { id: string }[];
  expect(listed.map((x) => x.id)).toContain(admin.user.id);
  expect(listed.map((x) => x.id)).not.toContain(id);
  await db.update(users).set({ siteRole: "user" }).where(eq(users.id, admin.user.id));
  // Even a session made for the tombstone by some other way in would not be accepted.
  const late = await createSession(t.services, id);
  expect((await request(app, "GET", "/api/auth/me", { token: late.token })).status).toBe(401);
  await db.delete(sessions).where(eq(sessions.id, late.sessionId));

  // Nothing personal anywhere: no name, address, handle, subject, affiliation, practice code or words of theirs.
  const personal = ["Zelda", "Quixote", "zelda", "quixote", normalized, "zelda-subject-77", "ZELDA"];
  const leaks = (await everyRow()).filter((r) => personal.some((p) => r.row.includes(p)));
  expect(leaks).toEqual([]);

  // The tombstone.
  const [tomb] = await db.select().from(users).where(eq(users.id, id));
  expect(tomb).toMatchObject({ firstName: "Deleted", lastName: "user", email: erasedEmail(id), emailNormalized: erasedEmail(id), passwordHash: null, handle: null, profilePublic: false, locale: null, siteRole: "user", totpKey: null });
  expect(tomb!.erasedAt).toBeInstanceOf(Date);

  // Deleted: every sign-in row, the practice submission, the unused problem, the question, the mail to them (not Otto's).
  expect(await db.select({ authorId: announcements.authorId }).from(announcements).where(eq(announcements.id, announced!.id))).toEqual([{ authorId: null }]);
  for (const table of [sessions, externalIdentities, twoFactorRecoveryCodes, passwordResetTokens, emailTokens, aiRequests, userProblemStatus, notifications, notificationPreferences]) {
    expect(await db.select().from(table).where(eq(table.userId, id))).toEqual([]);
  }
  expect(await db.select().from(submissions).where(eq(submissions.id, "sub-public"))).toEqual([]);
  expect(await db.select().from(problems).where(eq(problems.id, unused!.id))).toEqual([]);
  expect(await db.select().from(contestClarifications).where(eq(contestClarifications.id, question!.id))).toEqual([]);
  expect((await db.select().from(mailOutbox)).map((m) => m.toAddress)).toEqual([other.email]);
  expect(await db.select().from(courseInvites)).toEqual([]);
  expect(await db.select().from(contactMessages)).toEqual([]);
  expect(await db.select().from(passwordResetRequests)).toEqual([]);
  const [stats] = await db.select().from(problemStats).where(eq(problemStats.problemId, taught!.id));
  expect(stats).toMatchObject({ submitters: 0, solvers: 0 });

  // Kept, anonymised: the membership, the score, the graded and contest submissions, the shared problem, the team's place.
  expect(await db.select().from(courseMembers).where(eq(courseMembers.userId, id))).toHaveLength(1);
  expect(await db.select().from(assignmentScores).where(eq(assignmentScores.userId, id))).toMatchObject([{ score: 100, bestSubmissionId: "sub-course" }]);
  expect((await db.select({ id: submissions.id }).from(submissions).where(eq(submissions.userId, id))).map((s) => s.id).sort()).toEqual(["sub-contest", "sub-course"]);
  expect(await db.select({ userId: problems.userId }).from(problems).where(eq(problems.id, used!.id))).toEqual([{ userId: id }]);
  expect(await db.select().from(extensions).where(eq(extensions.userId, id))).toHaveLength(1);
  expect(await db.select({ id: similarityReports.id }).from(similarityReports)).toEqual([{ id: report!.id }]);
  expect(await db.select().from(similarityMarks)).toHaveLength(1);
  const [anonTeam] = await db.select().from(contestTeams).where(eq(contestTeams.id, team!.id));
  expect(anonTeam).toMatchObject({ name: `Deleted user ${team!.id.slice(0, 8)}`, organization: "", joinCode: null });
  const boardAfter = await request(app, "GET", `/api/contests/${contest!.id}/scoreboard`, { token: teacher.token });
  expect(JSON.stringify(boardAfter.body)).not.toContain("Zelda");
  expect(JSON.stringify(boardAfter.body)).toContain(anonTeam!.name);
  const [teamEvent] = await db.select().from(contestEvents).where(eq(contestEvents.objectId, team!.id));
  expect(JSON.parse(teamEvent!.data!)).toMatchObject({ name: anonTeam!.name, display_name: anonTeam!.name, organization_id: null });
  // The teacher's gradebook still lists the student, as "Deleted user".
  const roster = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(courseMembers).innerJoin(users, eq(users.id, courseMembers.userId)).where(eq(courseMembers.courseId, course!.id));
  expect(roster).toContainEqual({ firstName: "Deleted", lastName: "user" });

  // Erasing twice is not possible: the session is gone.
  expect((await erase(me.token, { password: me.password })).status).toBe(401);
});

test("bad input is a 400 naming the field; a wrong password counts as a failed sign-in", async () => {
  const me = await signUp(app);
  for (const body of [{}, { password: 42 }, { password: "x".repeat(2000) }, { password: "" }]) {
    const res = await erase(me.token, body);
    expect([res.status, res.body.field]).toEqual([400, "password"]);
  }
  const german = await request(app, "DELETE", "/api/account", { token: me.token, body: {}, headers: { "accept-language": "de" } });
  expect([german.body.field, german.body.message]).toEqual(["password", "password: Pflichtfeld"]);
  expect((await erase(me.token, { password: me.password, code: "not a code!" })).body.field).toBe("code");
  expect((await request(app, "GET", "/api/auth/me", { token: me.token })).status).toBe(200);

  // SIGNIN_BACKOFF_AFTER_FAILURES (5) wrong passwords, then even the right one waits, as a sign-in would.
  const guessed = await signUp(app);
  for (let i = 0; i < 5; i++) {
    const wrong = await erase(guessed.token, { password: `wrong password ${i}` });
    expect([wrong.status, wrong.body.code, wrong.body.field]).toEqual([400, "PASSWORD_WRONG", "password"]);
  }
  expect((await erase(guessed.token, { password: guessed.password })).status).toBe(429);
  expect((await request(app, "POST", "/api/auth/login", { body: { email: guessed.email, password: guessed.password } })).status).toBe(429);
  expect((await request(app, "GET", "/api/auth/me", { token: guessed.token })).status).toBe(200);
  // Signed out: 401.
  expect((await request(app, "DELETE", "/api/account", { body: { password: "whatever" } })).status).toBe(401);
});

test("the last site admin cannot erase itself; with another admin it can", async () => {
  const db = t.services.db;
  await db.update(users).set({ siteRole: "user" });
  const admin = await signUp(app);
  await db.update(users).set({ siteRole: "admin" }).where(eq(users.id, admin.user.id));
  const refused = await erase(admin.token, { password: admin.password });
  expect([refused.status, refused.body.code]).toEqual([409, "LAST_ADMIN"]);
  expect(refused.body.message).toContain("only administrator");
  expect((await request(app, "GET", "/api/account/erasure", { token: admin.token })).body).toMatchObject({ lastAdmin: true, hasPassword: true });
  const [still] = await db.select({ siteRole: users.siteRole }).from(users).where(eq(users.id, admin.user.id));
  expect(still?.siteRole).toBe("admin");

  const second = await signUp(app);
  await db.update(users).set({ siteRole: "admin" }).where(eq(users.id, second.user.id));
  expect((await erase(admin.token, { password: admin.password })).status).toBe(200);
  const [gone] = await db.select({ siteRole: users.siteRole, erasedAt: users.erasedAt }).from(users).where(eq(users.id, admin.user.id));
  expect(gone?.siteRole).toBe("user");
  expect(gone?.erasedAt).not.toBeNull();
});

test("an account without a password types its address and must have signed in within 10 minutes", async () => {
  const db = t.services.db;
  const [campus] = await db.insert(users).values({ firstName: "Cam", lastName: "Pus", email: "Cam.Pus@campus.example", emailNormalized: "cam.pus@campus.example" }).returning();
  await db.insert(externalIdentities).values({ userId: campus!.id, provider: "oidc:campus", issuer: "https://idp.example", subject: "cam-1" });
  const old = await createSession(t.services, campus!.id);
  await db.update(sessions).set({ createdAt: new Date(Date.now() - RECENT_SIGN_IN_MS - 60_000) }).where(eq(sessions.id, old.sessionId));

  const wrongAddress = await erase(old.token, { confirm: "someone@else.example" });
  expect([wrongAddress.status, wrongAddress.body.field]).toEqual([400, "confirm"]);
  expect((await erase(old.token, {})).body.field).toBe("confirm");
  const stale = await erase(old.token, { confirm: "cam.pus@campus.example" });
  expect([stale.status, stale.body.code]).toEqual([403, "RECENT_SIGN_IN_REQUIRED"]);
  expect(stale.body.message).toContain("Sign in again");
  expect((await request(app, "GET", "/api/account/erasure", { token: old.token })).body).toMatchObject({ hasPassword: false, recentSignIn: false });

  const fresh = await createSession(t.services, campus!.id);
  const done = await erase(fresh.token, { confirm: " CAM.PUS@campus.example " });
  expect(done.status).toBe(200);
  expect((await request(app, "GET", "/api/auth/me", { token: old.token })).status).toBe(401);
  expect(await db.select().from(externalIdentities).where(eq(externalIdentities.userId, campus!.id))).toEqual([]);
});

test("with two-factor sign-in on, a current code is asked too", async () => {
  const db = t.services.db;
  const me = await signUp(app);
  const key = newTotpKeyHex();
  await db.update(users).set({ totpKey: key }).where(eq(users.id, me.user.id));
  const missing = await erase(me.token, { password: me.password });
  expect([missing.status, missing.body.code, missing.body.field, missing.body.message]).toEqual([400, "BAD_INPUT", "code", "code: Required"]);
  const wrongCode = totpCodeAt(key, totpStep(Date.now()) + 10);
  expect((await erase(me.token, { password: me.password, code: wrongCode })).body.field).toBe("code");
  const ok = await erase(me.token, { password: me.password, code: totpCodeAt(key, totpStep(Date.now())) });
  expect(ok.status).toBe(200);
  const [row] = await db.select({ totpKey: users.totpKey, email: users.email }).from(users).where(eq(users.id, me.user.id));
  expect(row).toEqual({ totpKey: null, email: erasedEmail(me.user.id) });
});

test("answers in the reader's language", async () => {
  const me = await signUp(app);
  const res = await request(app, "DELETE", "/api/account", { token: me.token, body: { password: me.password }, headers: { "accept-language": "de" } });
  expect([res.status, res.body.message]).toEqual([200, "Ihr Konto wurde gelöscht."]);
});
