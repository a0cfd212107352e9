/**
 * Notifications and course announcements: a thin door over src/notifications
 * (decision 073). One's own notices and switches need a session; the
 * unsubscribe link's token is its own proof; announcements are checked in
 * the permissions table (`announcement.post`, `announcement.deleteAny`).
 */
import { z } from "zod";
import { announcementInput, deleteAnnouncement, listAnnouncements, postAnnouncement } from "../../notifications/announcements.ts";
import { listNotices, markRead, markReadInput, pageInput, preferences, preferencesInput, setPreferences, unreadCount } from "../../notifications/inbox.ts";
import { unsubscribe } from "../../notifications/unsubscribe.ts";
import { idField } from "../../lib/fields.ts";
import { mailConfigured } from "../../mail/settings.ts";
import { protectedProcedure, publicProcedure, router } from "../init.ts";

export const notificationsRouter = router({
  /** The caller's notices, newest first (≤ 50 a page). @throws BAD_INPUT (400, field `cursor`). */
  list: protectedProcedure.input(pageInput).query(({ ctx, input }) => listNotices(ctx.db, ctx.user.id, input)),

  /** How many of the caller's notices are unread: `{ unread }`. */
  unreadCount: protectedProcedure.query(({ ctx }) => unreadCount(ctx.db, ctx.user.id)),

  /** Marks `{ids}` or `{all: true}` read: `{ marked, unread }`. @throws BAD_INPUT (400 naming the field). */
  markRead: protectedProcedure.input(markReadInput).mutation(({ ctx, input }) => markRead(ctx.db, ctx.user.id, input, ctx.now())),

  /** The caller's switches per kind (in-app, e-mail), and whether this server sends mail. */
  preferences: protectedProcedure.query(async ({ ctx }) => ({ ...(await preferences(ctx.db, ctx.user.id)), mailEnabled: mailConfigured(ctx.config) })),

  /** Sets switches for the kinds given. @throws BAD_INPUT (400 naming the field, e.g. `kinds.0.kind`). */
  setPreferences: protectedProcedure
    .input(preferencesInput)
    .mutation(async ({ ctx, input }) => ({ ...(await setPreferences(ctx.db, ctx.user.id, input)), mailEnabled: mailConfigured(ctx.config) })),

  /** Turns off the e-mails an unsubscribe link names (no session needed). @throws UNSUBSCRIBE_INVALID (400, field `token`). */
  unsubscribe: publicProcedure
    .input(z.object({ token: z.string({ error: "Must be text" }).trim().min(1, { error: "Required" }).max(200, { error: "At most 200 characters" }) }))
    .mutation(({ ctx, input }) => unsubscribe(ctx.db, ctx.sessionKey, input.token)),

  /** A course's announcements (members), newest first, and whether the caller may post. @throws COURSE_NOT_FOUND (404). */
  announcements: protectedProcedure.input(z.object({ courseId: idField() })).query(({ ctx, input }) => listAnnouncements(ctx.db, ctx.user, input.courseId)),

  /**
   * Posts an announcement; every other member is notified. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403) without
   * `announcement.post`, COURSE_ARCHIVED (403), BAD_INPUT (400 naming `title` or `body`), RATE_LIMITED (429,
   * RATE_LIMIT_ANNOUNCEMENTS_PER_COURSE).
   */
  announce: protectedProcedure
    .input(announcementInput)
    .mutation(({ ctx, input }) => postAnnouncement(
        { db: ctx.db, now: ctx.now, mail: mailConfigured(ctx.config), kick: () => ctx.mail?.kick(), limiter: ctx.limiters.announcementsByCourse, log: ctx.log },
        ctx.user,
        input,
      )),

  /** Deletes an announcement (its author, or the course's owner). @throws ANNOUNCEMENT_NOT_FOUND (404), FORBIDDEN (403). */
  deleteAnnouncement: protectedProcedure
    .input(z.object({ courseId: idField(), id: idField() }))
    .mutation(({ ctx, input }) => deleteAnnouncement(ctx.db, ctx.user, input.courseId, input.id)),
});
