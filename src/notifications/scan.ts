/**
 * The periodic scan (decision 073): the notices that come from the clock
 * rather than from a request. Each run looks at a bounded window and fans out
 * with ON CONFLICT DO NOTHING on (user, kind, subject), so the unique key in
 * the database (not this process's memory) records what was already sent: a
 * scan run twice, by two processes, or again after a restart, adds nothing.
 *
 * - `assignment-opened`: assignments (not deleted, in a course not archived)
 *   that opened within the last OPENED_LOOKBACK_MS, to the course's students;
 * - `assignment-due`: a student whose due time (their extension's, else the
 *   assignment's) is within the next DUE_SOON_MS and who has not yet earned
 *   full points on every problem of it;
 * - `contest-starting`: registered participants (team members) of a contest
 *   starting within the next CONTEST_SOON_MS;
 * - announcements not yet fanned out (a process stopped between posting one
 *   and making its notices: ./announcements.ts).
 */
import { and, gt, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignments, contests } from "../../db/schema.ts";
import { fanOut } from "./fanout.ts";
import { fanOutAnnouncements } from "./announcements.ts";
import { CONTEST_SOON_MS, DUE_SOON_MS } from "./kinds.ts";

/** How far back an opening still gets its notice (a server down for a while catches up; older ones are old news), ms. */
export const OPENED_LOOKBACK_MS = 24 * 3_600_000;

export interface ScanDeps {
  db: Database;
  now: () => number;
  /** Whether this server sends mail (notices are then marked for e-mail). */
  mail: boolean;
}

/** What one scan looked at: the assignments and contests it fanned out for. */
export interface ScanReport {
  opened: number;
  dueSoon: number;
  contestsStarting: number;
}

/** Runs the scan once (see module comment). */
export async function runNotificationScan(deps: ScanDeps): Promise<ScanReport> {
  const { db } = deps;
  const nowMs = deps.now();
  const opts = { mail: deps.mail, nowMs, perRecipientPayload: true };
  const liveCourse = sql`(select archived_at from courses c where c.id = ${assignments.courseId}) is null`;

  const opened = await db
    .select({ id: assignments.id, courseId: assignments.courseId })
    .from(assignments)
    .where(and(isNull(assignments.deletedAt), lte(assignments.opensAt, new Date(nowMs)), gt(assignments.opensAt, new Date(nowMs - OPENED_LOOKBACK_MS)), liveCourse));
  const dueSoon = await db
    .select({ id: assignments.id, courseId: assignments.courseId })
    .from(assignments)
    .where(
      and(
        isNull(assignments.deletedAt),
        lte(assignments.opensAt, new Date(nowMs)),
        liveCourse,
        sql`((${assignments.dueAt} > ${nowMs} and ${assignments.dueAt} <= ${nowMs + DUE_SOON_MS})
          or ${assignments.id} in (select e.assignment_id from extensions e where e.due_at > ${nowMs} and e.due_at <= ${nowMs + DUE_SOON_MS}))`,
      ),
    );
  const starting = await db
    .select({ id: contests.id })
    .from(contests)
    .where(and(isNull(contests.deletedAt), gt(contests.startsAt, new Date(nowMs)), lte(contests.startsAt, new Date(nowMs + CONTEST_SOON_MS))));

  const statements = [
    ...opened.map((a) =>
      fanOut(
        db,
        { kind: "assignment-opened", subjectKey: a.id, courseId: a.courseId, assignmentId: a.id },
        sql`select m.user_id as uid, json_object('title', a.title, 'course', c.title) as payload
          from course_members m join assignments a on a.id = ${a.id} join courses c on c.id = a.course_id
          where m.course_id = ${a.courseId} and m.role = 'student'`,
        opts,
      ),
    ),
    ...dueSoon.map((a) =>
      fanOut(
        db,
        { kind: "assignment-due", subjectKey: a.id, courseId: a.courseId, assignmentId: a.id },
        sql`select m.user_id as uid,
            json_object('title', a.title, 'course', c.title, 'dueAt', strftime('%Y-%m-%dT%H:%M:%fZ', coalesce(e.due_at, a.due_at) / 1000.0, 'unixepoch')) as payload
          from course_members m
          join assignments a on a.id = ${a.id}
          join courses c on c.id = a.course_id
          left join extensions e on e.assignment_id = a.id and e.user_id = m.user_id
          where m.course_id = ${a.courseId} and m.role = 'student'
            and coalesce(e.due_at, a.due_at) > ${nowMs} and coalesce(e.due_at, a.due_at) <= ${nowMs + DUE_SOON_MS}
            and exists (
              select 1 from assignment_problems ap where ap.assignment_id = a.id and not exists (
                select 1 from assignment_scores s
                where s.assignment_id = a.id and s.problem_id = ap.problem_id and s.user_id = m.user_id and s.score >= ap.points))`,
        opts,
      ),
    ),
    ...starting.map((c) =>
      fanOut(
        db,
        { kind: "contest-starting", subjectKey: c.id, contestId: c.id },
        sql`select tm.user_id as uid,
            json_object('contest', k.title, 'startsAt', strftime('%Y-%m-%dT%H:%M:%fZ', k.starts_at / 1000.0, 'unixepoch')) as payload
          from contest_team_members tm join contests k on k.id = tm.contest_id join contest_teams t on t.id = tm.team_id
          where tm.contest_id = ${c.id} and t.virtual_starts_at is null`,
        opts,
      ),
    ),
  ];
  if (statements.length) await db.batch(statements as never);
  // Announcements a stopped process did not fan out (normally done right after they are posted).
  await fanOutAnnouncements(deps);
  return { opened: opened.length, dueSoon: dueSoon.length, contestsStarting: starting.length };
}

/** A scan every `everyMs`, starting now; errors are reported and the next run tries again. @returns stop(). */
export function startNotificationScan(deps: ScanDeps, everyMs: number, onError: (err: unknown) => void): { stop(): Promise<void>; runNow(): Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () =>
    (running ??= runNotificationScan(deps)
      .then(() => undefined, onError)
      .finally(() => (running = null)));
  const timer = setInterval(() => void run(), everyMs);
  timer.unref?.();
  void run();
  return {
    runNow: run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
