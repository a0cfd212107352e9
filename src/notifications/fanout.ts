/**
 * Making notices (decision 073): one INSERT ... SELECT per event, whatever the
 * number of recipients, so a 2,000-student announcement costs its request one
 * statement. Each recipient's switches for the kind are joined in the same
 * statement (absent: the kind's defaults): a notice is kept when it is shown in
 * the app or mailed; `mail_state = 'pending'` marks the ones whose e-mail the
 * mail loop composes and queues (./mail.ts). `ON CONFLICT DO NOTHING` on
 * (user, kind, subject) makes every fan-out idempotent: a scan run twice, or
 * again after a restart, adds nothing.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { DEFAULT_SWITCHES, type NotificationKind } from "./kinds.ts";

/** What a notice is about: the ids it links to, and the words it shows. */
export interface NoticeSubject {
  kind: NotificationKind;
  /** Unique per (user, kind): the same subject is never notified twice to one user. */
  subjectKey: string;
  courseId?: string | null;
  assignmentId?: string | null;
  contestId?: string | null;
  clarificationId?: string | null;
  announcementId?: string | null;
}

/**
 * The INSERT ... SELECT that notifies every user `recipients` yields (put it in a `db.batch` next to its cause).
 * @param recipients a SELECT yielding the column `uid` and optionally `payload` (JSON text; else `payload` is used).
 * @param payload the words shown (titles, a score), the same for every recipient unless `recipients` gives its own.
 * @param mail whether e-mails are sent at all (mail configured); when false no notice is marked for mail.
 * @param nowMs the notices' creation time (ms since the epoch).
 */
export function fanOut(
  db: Database,
  subject: NoticeSubject,
  recipients: SQL,
  opts: { payload?: Record<string, string>; mail: boolean; nowMs: number; perRecipientPayload?: boolean },
) {
  const d = DEFAULT_SWITCHES[subject.kind];
  const inApp = sql`coalesce(p.in_app, ${d.inApp ? 1 : 0})`;
  const email = opts.mail ? sql`coalesce(p.email, ${d.email ? 1 : 0})` : sql`0`;
  const payload = opts.perRecipientPayload ? sql`r.payload` : sql`${JSON.stringify(opts.payload ?? {})}`;
  return db.run(sql`
    insert into notifications (id, user_id, kind, subject_key, course_id, assignment_id, contest_id, clarification_id, announcement_id, payload, shown, mail_state, created_at)
    select lower(hex(randomblob(10))), r.uid, ${subject.kind}, ${subject.subjectKey}, ${subject.courseId ?? null}, ${subject.assignmentId ?? null},
      ${subject.contestId ?? null}, ${subject.clarificationId ?? null}, ${subject.announcementId ?? null}, ${payload},
      ${inApp}, case when ${email} = 1 then 'pending' else null end, ${opts.nowMs}
    from (${recipients}) r
    left join notification_preferences p on p.user_id = r.uid and p.kind = ${subject.kind}
    where ${inApp} = 1 or ${email} = 1
    on conflict (user_id, kind, subject_key) do nothing`);
}

/** Recipients: the members of a course (students only when `studentsOnly`), except `exceptUserId`. */
export function courseMembersSql(courseId: string, opts: { studentsOnly?: boolean; exceptUserId?: string } = {}): SQL {
  return sql`select m.user_id as uid from course_members m where m.course_id = ${courseId}
    ${opts.studentsOnly ? sql`and m.role = 'student'` : sql``}
    ${opts.exceptUserId ? sql`and m.user_id <> ${opts.exceptUserId}` : sql``}`;
}

/** Recipients: the given users (at most a few hundred; larger audiences are a SELECT). */
export function usersSql(userIds: readonly string[]): SQL {
  if (userIds.length === 0) return sql`select null as uid where 0`;
  return sql`select value as uid from json_each(${JSON.stringify(userIds)})`;
}
