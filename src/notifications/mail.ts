/**
 * Notice e-mails (decision 073). Making a notice only marks it
 * (`mail_state = 'pending'`, ./fanout.ts), so the request that causes it pays
 * one statement whatever the audience; this pass, run by the mail loop before
 * each of the sender's rounds (src/server.ts), composes each marked notice's
 * message in its recipient's language (their account's locale) and, in one
 * batch per chunk, queues it in the outbox and marks the notice `queued`.
 * Each message's Message-ID is the notice's id, unique in the outbox, so a
 * pass repeated after a crash (or run by two processes) queues nothing twice.
 * Each message carries `List-Unsubscribe` (an https link with a signed token)
 * and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database } from "../../db/index.ts";
import { announcements, notifications, users } from "../../db/schema.ts";
import { mailLocale, mailText, type MailKey } from "../i18n/mail-text.ts";
import type { LocaleTag } from "../i18n/locales.ts";
import { compose, type ComposedMail, type Paragraph } from "../mail/compose.ts";
import { queueMail } from "../mail/outbox.ts";
import type { NotificationKind } from "./kinds.ts";
import { unsubscribeToken } from "./unsubscribe.ts";

/** Notices composed per batch. */
const CHUNK = 200;
/** A notice older than this is not mailed any more (its mark is dropped), ms: two days. */
export const NOTICE_MAIL_MAX_AGE_MS = 2 * 24 * 3_600_000;

/** What one notice e-mail is made from. */
export interface NoticeForMail {
  id: string;
  kind: NotificationKind;
  courseId: string | null;
  assignmentId: string | null;
  contestId: string | null;
  payload: Record<string, string>;
  firstName: string;
}

const KEYS: Record<NotificationKind, { subject: MailKey; body: MailKey }> = {
  announcement: { subject: "notice.announcement.subject", body: "notice.announcement.body" },
  "assignment-opened": { subject: "notice.assignmentOpened.subject", body: "notice.assignmentOpened.body" },
  "assignment-due": { subject: "notice.assignmentDue.subject", body: "notice.assignmentDue.body" },
  "grade-changed": { subject: "notice.gradeChanged.subject", body: "notice.gradeChanged.body" },
  "clarification-answered": { subject: "notice.clarificationAnswered.subject", body: "notice.clarificationAnswered.body" },
  "contest-starting": { subject: "notice.contestStarting.subject", body: "notice.contestStarting.body" },
  "regrade-requested": { subject: "notice.regradeRequested.subject", body: "notice.regradeRequested.body" },
  "regrade-answered": { subject: "notice.regradeAnswered.subject", body: "notice.regradeAnswered.body" },
};

/** A time in the payload (ISO) as the reader's language writes it, in UTC (the account has no time zone). */
function when(iso: string | undefined, locale: LocaleTag): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "long", timeZone: "UTC" }).format(d);
}

/** Where the notice leads on the site (path): the payload's own `path` (a regrade's review or queue), else what it names. */
export function noticePath(n: Pick<NoticeForMail, "kind" | "courseId" | "assignmentId" | "contestId"> & { payload?: Record<string, string> }): string {
  if (n.payload?.path?.startsWith("/")) return n.payload.path;
  if (n.assignmentId) return `/assignments/${n.assignmentId}`;
  if (n.contestId) return `/contests/${n.contestId}`;
  if (n.courseId) return `/courses/${n.courseId}`;
  return "/";
}

/**
 * One notice's message in `locale`: greeting, what happened, a link to it, and the way to stop these e-mails.
 * @param origin PUBLIC_URL's origin; @param unsubscribePage the page the unsubscribe link opens.
 */
export function noticeMail(n: NoticeForMail, locale: LocaleTag, origin: string, unsubscribePage: string): ComposedMail {
  const t = (key: MailKey, values?: Record<string, string>) => mailText(locale, key, values);
  const p = n.payload;
  const values = {
    title: p.title ?? "",
    course: p.course ?? "",
    contest: p.contest ?? "",
    score: p.score ?? "",
    before: p.before ?? "",
    dueAt: when(p.dueAt, locale),
    startsAt: when(p.startsAt, locale),
    problem: p.problem ?? "",
    status: p.status ?? "",
  };
  const keys = KEYS[n.kind];
  const paragraphs: Paragraph[] = [t("hello", { firstName: n.firstName }), t(keys.body, values)];
  // The words staff or the jury wrote (announcement body, the answer) as they wrote them.
  if (p.body) paragraphs.push(p.body);
  paragraphs.push({ link: `${origin}${noticePath(n)}`, label: t("notice.open") });
  paragraphs.push(t("notice.why"));
  paragraphs.push({ link: unsubscribePage, label: t("notice.unsubscribe") });
  return compose(t(keys.subject, values), paragraphs, locale);
}

/**
 * Queues the e-mails of notices marked `pending` (see module comment).
 * @returns how many messages were queued.
 */
export async function queueNoticeMails(deps: { db: Database; config: Pick<Config, "MAIL_FROM" | "sso">; sessionKey: Uint8Array; now?: () => number }): Promise<number> {
  const { db, config } = deps;
  const origin = config.sso.publicUrl?.origin;
  if (!origin) return 0;
  // Old news is not mailed (e.g. marks made while this server sent no mail).
  await db
    .update(notifications)
    .set({ mailState: null })
    .where(and(eq(notifications.mailState, "pending"), lt(notifications.createdAt, new Date((deps.now ?? Date.now)() - NOTICE_MAIL_MAX_AGE_MS))));
  let queued = 0;
  for (;;) {
    const rows = await db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        courseId: notifications.courseId,
        assignmentId: notifications.assignmentId,
        contestId: notifications.contestId,
        payload: notifications.payload,
        announcementBody: announcements.body,
        userId: users.id,
        firstName: users.firstName,
        email: users.email,
        locale: users.locale,
      })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.userId))
      .leftJoin(announcements, eq(announcements.id, notifications.announcementId))
      .where(eq(notifications.mailState, "pending"))
      .limit(CHUNK);
    if (rows.length === 0) return queued;
    const inserts = rows.map((r) => {
      const token = unsubscribeToken(deps.sessionKey, r.userId, r.kind);
      const oneClick = `${origin}/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
      const page = `${origin}/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
      const notice = r.announcementBody === null ? r : { ...r, payload: { ...r.payload, body: r.announcementBody.slice(0, 4000) } };
      const mail = noticeMail(notice, mailLocale(r.locale, null), origin, page);
      return queueMail(db, config.MAIL_FROM, r.email, `notice-${r.kind}`, mail, {
        key: `notice-${r.id}`,
        headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      }).onConflictDoNothing();
    });
    const ids = rows.map((r) => r.id);
    await db.batch([...inserts, db.update(notifications).set({ mailState: "queued" }).where(inArray(notifications.id, ids))] as never);
    queued += rows.length;
  }
}

/** Notices still waiting for their e-mail (for tests and the benchmark). */
export async function pendingNoticeMails(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(notifications).where(eq(notifications.mailState, "pending"));
  return Number(row?.n ?? 0);
}
