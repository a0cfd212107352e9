/**
 * Courses: a thin door over src/courses. Who may do what is decided there
 * (src/courses/permissions.ts, checked by src/courses/access.ts).
 */
import { z } from "zod";
import { listCourseProblems } from "../../courses/course-problems.ts";
import { courseForCaller, courseInput, courseUpdateInput, createCourse, joinByCode, myCoursesPage, setInvite, updateCourse } from "../../courses/courses.ts";
import { addMember, importRoster, memberInput, removeInvite, removeMember, roster } from "../../courses/roster.ts";
import { idField } from "../../lib/fields.ts";
import { protectedProcedure, router } from "../init.ts";

const courseId = z.object({ id: idField() });

export const coursesRouter = router({
  /** The caller's courses, and whether they may create one. */
  mine: protectedProcedure.query(({ ctx }) => myCoursesPage(ctx.db, ctx.user)),

  /** @throws CANNOT_CREATE_COURSES (403), COURSE_CODE_TAKEN (409), BAD_INPUT (400). */
  create: protectedProcedure.input(courseInput).mutation(({ ctx, input }) => createCourse(ctx.db, ctx.user, input)),

  /** One course as the caller sees it. @throws COURSE_NOT_FOUND (404). */
  byId: protectedProcedure.input(courseId).query(({ ctx, input }) => courseForCaller(ctx.db, ctx.user, input.id)),

  /** Edits, archives (`archived: true`) or restores. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403), COURSE_CODE_TAKEN (409). */
  update: protectedProcedure.input(courseUpdateInput).mutation(({ ctx, input }) => updateCourse(ctx.db, ctx.user, input, ctx.now())),

  /** Rotates, disables or enables the invite code. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403). */
  invite: protectedProcedure
    .input(z.object({ id: idField(), action: z.enum(["rotate", "disable", "enable"], { error: "Must be rotate, disable or enable" }) }))
    .mutation(({ ctx, input }) => setInvite(ctx.db, ctx.user, input.id, input.action)),

  /** Joins by invite code as a student. @throws RATE_LIMITED (429: RATE_LIMIT_CODE_GUESSES_PER_USER, 10 tries per 10 minutes by default), INVITE_NOT_FOUND (404), COURSE_ARCHIVED (403). */
  join: protectedProcedure
    .input(z.object({ code: z.string({ error: "Must be text" }).trim().min(1, { error: "Required" }).max(40, { error: "At most 40 characters" }) }))
    .mutation(({ ctx, input }) => joinByCode(ctx.db, ctx.user, input.code, () => ctx.limiters.joinsByUser.hit(ctx.user.id))),

  /** Members and pending invitations (staff). @throws COURSE_NOT_FOUND (404), FORBIDDEN (403). */
  members: protectedProcedure.input(z.object({ courseId: idField() })).query(({ ctx, input }) => roster(ctx.db, ctx.user, input.courseId)),

  /** Adds one member, invites an email without an account, or changes a role. @throws FORBIDDEN (403), LAST_OWNER (409). */
  addMember: protectedProcedure.input(memberInput).mutation(({ ctx, input }) => addMember(ctx.db, ctx.user, input)),

  /** Imports a CSV roster (email, name, role): all rows or none. @throws BAD_INPUT (400 naming line and column), FORBIDDEN (403). */
  importRoster: protectedProcedure
    .input(z.object({ courseId: idField(), csv: z.string({ error: "Must be text" }).min(1, { error: "Required" }) }))
    .mutation(({ ctx, input }) => importRoster(ctx.db, ctx.user, input.courseId, input.csv)),

  /** Removes a member (their submissions stay). @throws MEMBER_NOT_FOUND (404), LAST_OWNER (409), FORBIDDEN (403). */
  removeMember: protectedProcedure
    .input(z.object({ courseId: idField(), userId: idField() }))
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx.db, ctx.user, input.courseId, input.userId);
      return { removed: input.userId };
    }),

  /** Withdraws an invitation. @throws FORBIDDEN (403). */
  removeInvite: protectedProcedure
    .input(z.object({ courseId: idField(), email: z.string({ error: "Must be text" }).trim().min(1, { error: "Required" }) }))
    .mutation(async ({ ctx, input }) => {
      await removeInvite(ctx.db, ctx.user, input.courseId, input.email);
      return { removed: input.email };
    }),

  /** The course's problems (students: those of opened assignments; hidden tests for teachers). @throws COURSE_NOT_FOUND (404). */
  problems: protectedProcedure.input(z.object({ courseId: idField() })).query(({ ctx, input }) => listCourseProblems(ctx.db, ctx.user, input.courseId, ctx.now())),
});
