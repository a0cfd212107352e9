/**
 * Course announcements (issue 36 §5, decision 073): course staff with
 * `announcement.post` write one (title and Markdown body); every member sees it
 * on the course page, and every other member gets a notice of kind
 * `announcement` right after the answer (one INSERT ... SELECT, ./fanout.ts,
 * off the request: `fanOutAnnouncements`, also run by the periodic scan so a
 * stopped process's announcements are fanned out after the restart), its
 * e-mail marked for the mail loop (./mail.ts). Its author may delete it while
 * still staff, the course's owner (`announcement.deleteAny`) any; the notices
 * go with it. Each announcement mails every member, so a course may post at most
 * RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE of them (10 an hour by default), whoever
 * of its staff writes them.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { announcements, courses, notifications, users } from "../../db/schema.ts";
import type { Caller, SessionUser } from "../accounts/user.ts";
import { describeRate, type RateLimiter } from "../lib/rate-limit.ts";
import type { Logger } from "../log.ts";
import { requireCourse } from "../courses/access.ts";
import { can, type Actor } from "../courses/permissions.ts";
import { newId } from "../../db/ids.ts";
import { AppError } from "../errors.ts";
import { idField, requiredBlock, requiredText } from "../lib/fields.ts";
import { courseMembersSql, fanOut } from "./fanout.ts";

/** Longest title, characters. */
export const ANNOUNCEMENT_TITLE_MAX_CHARS = 200;
/** Largest body, UTF-8 bytes (20 KiB). */
export const ANNOUNCEMENT_BODY_MAX_BYTES = 20 * 1024;
/** Announcements one page lists, newest first. */
export const ANNOUNCEMENTS_PAGE = 50;

export const announcementInput = z.object({
  courseId: idField(),
  title: requiredText(ANNOUNCEMENT_TITLE_MAX_CHARS),
  body: requiredBlock(ANNOUNCEMENT_BODY_MAX_BYTES),
});

/** An announcement as members read it. */
export interface AnnouncementItem {
  id: string;
  courseId: string;
  title: string;
  /** Markdown. */
  body: string;
  /** The author's name, null once their account is gone. */
  author: string | null;
  createdAt: string;
  /** Whether the caller may delete it. */
  canDelete: boolean;
}

export interface AnnouncementDeps {
  db: Database;
  now: () => number;
  /** Whether this server sends mail (notices are then marked for e-mail). */
  mail: boolean;
  /** Wakes the mail loop after queuing. */
  kick?: () => void;
  /** Announcements per course: RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE (absent: no limit, as in the benchmark). */
  limiter?: RateLimiter;
  /** Where a failed fan-out is reported (the periodic scan retries it). */
  log?: Pick<Logger, "error">;
}

/**
 * The course's announcements, newest first (at most ANNOUNCEMENTS_PAGE), and whether the caller may post.
 * @throws AppError COURSE_NOT_FOUND (404) for non-members.
 */
export async function listAnnouncements(db: Database, user: Caller, courseId: string): Promise<{ items: AnnouncementItem[]; canPost: boolean }> {
  const { actor } = await requireCourse(db, user, courseId, "course.view");
  const rows = await db
    .select({ a: announcements, firstName: users.firstName, lastName: users.lastName })
    .from(announcements)
    .leftJoin(users, eq(users.id, announcements.authorId))
    .where(eq(announcements.courseId, courseId))
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(ANNOUNCEMENTS_PAGE);
  const canPost = can(actor, "announcement.post");
  const deleteAny = can(actor, "announcement.deleteAny");
  return {
    canPost,
    items: rows.map(({ a, firstName, lastName }) => ({
      id: a.id,
      courseId: a.courseId,
      title: a.title,
      body: a.body,
      author: firstName === null ? null : `${firstName} ${lastName}`.trim(),
      createdAt: a.createdAt.toISOString(),
      canDelete: deleteAny || (canPost && a.authorId === user.id),
    })),
  };
}

/**
 * Posts an announcement. The request writes its row only; the notices to every other member are one
 * INSERT … SELECT run right after the answer (`fanOutAnnouncements`; the periodic scan runs it again should this
 * process stop first, or should it fail, which is logged).
 * @param user the caller as the session knows them (their name is the author's, without a read).
 * @throws AppError COURSE_NOT_FOUND (404) for non-members; FORBIDDEN (403) without `announcement.post`;
 *   COURSE_ARCHIVED (403) in an archived course; RATE_LIMITED (429) past RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE.
 */
export async function postAnnouncement(
  deps: AnnouncementDeps,
  user: Caller & Pick<SessionUser, "firstName" | "lastName">,
  input: z.infer<typeof announcementInput>,
): Promise<AnnouncementItem> {
  const { db } = deps;
  const { course } = await requireCourse(db, user, input.courseId, "announcement.post");
  if (deps.limiter) {
    const gate = deps.limiter.hit(course.id);
    if (!gate.ok) {
      throw new AppError("RATE_LIMITED", {
        message: `Too many announcements in this course (${describeRate(deps.limiter.options, "announcements")}, the server's RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE): each one reaches every member. Try again in ${gate.retryAfterSeconds} s.`,
        retryAfterSeconds: gate.retryAfterSeconds,
      });
    }
  }
  const nowMs = deps.now();
  const id = newId();
  await db.insert(announcements).values({ id, courseId: course.id, authorId: user.id, title: input.title, body: input.body, createdAt: new Date(nowMs) });
  setTimeout(() => {
    void fanOutAnnouncements(deps).then(
      (n) => n > 0 && deps.mail && deps.kick?.(),
      (err: unknown) => deps.log?.error("announcement fan-out failed; the periodic scan retries it", { announcementId: id, error: err instanceof Error ? `${err.stack ?? err.message}${err.cause ? `\ncaused by: ${String(err.cause)}` : ""}` : String(err) }),
    );
  }, 0);
  return {
    id,
    courseId: course.id,
    title: input.title,
    body: input.body,
    author: `${user.firstName} ${user.lastName}`.trim(),
    createdAt: new Date(nowMs).toISOString(),
    canDelete: true,
  };
}

/** Announcements fanned out per pass. */
const FAN_OUT_BATCH = 20;

/**
 * Makes the notices of announcements not yet fanned out: per announcement, one batch of the INSERT … SELECT
 * to every member but its author and its mark. Idempotent (the unique key): two passes at once add nothing twice.
 * @returns how many announcements were fanned out.
 */
export async function fanOutAnnouncements(deps: Pick<AnnouncementDeps, "db" | "mail" | "now">): Promise<number> {
  const { db } = deps;
  let done = 0;
  for (;;) {
    const pending = await db
      .select({ id: announcements.id, courseId: announcements.courseId, authorId: announcements.authorId, title: announcements.title, course: courses.title, createdAt: announcements.createdAt })
      .from(announcements)
      .innerJoin(courses, eq(courses.id, announcements.courseId))
      .where(isNull(announcements.fannedOutAt))
      .limit(FAN_OUT_BATCH);
    if (pending.length === 0) return done;
    for (const a of pending) {
      await db.batch([
        // Only while it still exists: a delete between the read above and this batch leaves no notices behind.
        fanOut(db, { kind: "announcement", subjectKey: a.id, courseId: a.courseId, announcementId: a.id }, sql`${courseMembersSql(a.courseId, a.authorId ? { exceptUserId: a.authorId } : {})} and exists (select 1 from announcements x where x.id = ${a.id})`, {
          // The body stays in its announcement (the mail pass joins it): each of the thousands of rows stays small.
          payload: { title: a.title, course: a.course },
          mail: deps.mail,
          nowMs: a.createdAt.getTime(),
        }),
        db.update(announcements).set({ fannedOutAt: new Date(deps.now()) }).where(eq(announcements.id, a.id)),
      ]);
      done++;
    }
  }
}

/**
 * Deletes an announcement and its notices.
 * @throws AppError ANNOUNCEMENT_NOT_FOUND (404, also for non-members); FORBIDDEN (403) unless its author (still
 *   holding `announcement.post`) or holding `announcement.deleteAny`; COURSE_ARCHIVED (403).
 */
export async function deleteAnnouncement(db: Database, user: Caller, courseId: string, id: string): Promise<{ deleted: string }> {
  const [a] = await db.select().from(announcements).where(and(eq(announcements.id, id), eq(announcements.courseId, courseId)));
  if (!a) throw new AppError("ANNOUNCEMENT_NOT_FOUND");
  let actor: Actor;
  try {
    actor = (await requireCourse(db, user, courseId, "course.view")).actor;
  } catch (err) {
    if (err instanceof AppError && err.kind === "COURSE_NOT_FOUND") throw new AppError("ANNOUNCEMENT_NOT_FOUND");
    throw err;
  }
  const own = a.authorId === user.id && can(actor, "announcement.post");
  if (!own && !can(actor, "announcement.deleteAny")) throw new AppError("FORBIDDEN");
  // The write check (an archived course is read-only) through the action that allows it.
  await requireCourse(db, user, courseId, own ? "announcement.post" : "announcement.deleteAny");
  await db.batch([db.delete(notifications).where(eq(notifications.announcementId, id)), db.delete(announcements).where(eq(announcements.id, id))]);
  return { deleted: id };
}
