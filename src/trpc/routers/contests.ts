/**
 * Contests: a thin door over src/contests (the REST routes under
 * /api/contests call these: src/rest/contests.ts). Who may do what is the
 * contest permission table (src/contests/permissions.ts), checked inside.
 */
import { z } from "zod";
import { listClarifications, sendClarification } from "../../contests/clarifications.ts";
import { createContest, deleteContest, finalizeContest, listContests, unfreezeContest, updateContest, viewContest } from "../../contests/contests.ts";
import { register } from "../../contests/registration.ts";
import { contestAccessView, contestReleaseInput, enterContest, enterInput, releaseContestSession } from "../../contests/exam.ts";
import { listBalloons, markBalloon, rejudgeContestSubmission, revealStep } from "../../contests/jury.ts";
import { grantContestRole, grantRoleInput, listContestRoles, revokeContestRole, revokeRoleInput } from "../../contests/roles.ts";
import { awardEvents, readScoreboard, releasedEvents, scoreboardChanges } from "../../contests/scoreboard.ts";
import { clarificationInput, contestInput, contestSubmitInput, contestUpdateInput, registerInput } from "../../contests/shape.ts";
import { contestSubmissionCode, listContestSubmissions, submitToContest } from "../../contests/submit.ts";
import { idField } from "../../lib/fields.ts";
import type { Context } from "../../context.ts";
import { protectedProcedure, publicProcedure, router, stream } from "../init.ts";
import { judgeOf, offered } from "./judge.ts";
import type { ContestDeps } from "../../contests/contests.ts";

const byId = z.object({ id: idField() });
/** What the contest functions need of a request's context (./judge.ts' offered languages for the Contest API). */
export const contestDeps = (ctx: Context): ContestDeps => ({ db: ctx.db, contests: ctx.contests, now: ctx.now, languages: () => offered(ctx) });
const deps = contestDeps;

export const contestsRouter = router({
  /** Contests the caller may see (public ones; their courses'), newest first. */
  list: publicProcedure.query(({ ctx }) => listContests(deps(ctx), ctx.user)),

  /** One contest as the caller sees it (role, team, problems once readable). @throws CONTEST_NOT_FOUND (404). */
  byId: publicProcedure.input(byId).query(({ ctx, input }) => viewContest(deps(ctx), ctx.user, input.id)),

  /** @throws CANNOT_CREATE_COURSES (403), COURSE_NOT_FOUND (404), FORBIDDEN (403), PROBLEM_NOT_FOUND (404), CONTEST_NAME_TAKEN (409), BAD_INPUT (400). */
  create: protectedProcedure.input(contestInput).mutation(({ ctx, input }) => createContest(deps(ctx), ctx.user, input)),

  /** Jury. @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400). */
  update: protectedProcedure.input(contestUpdateInput).mutation(({ ctx, input }) => updateContest(deps(ctx), ctx.user, input)),

  /** Jury. @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403). */
  delete: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteContest(deps(ctx), ctx.user, input.id)),

  /**
   * Wrong codes spend the caller's guesses in this contest (Limiters.joinsByUser's size, per user and contest).
   * @throws CONTEST_REGISTRATION_CLOSED, CONTEST_CODE_WRONG, FORBIDDEN (403); RATE_LIMITED (429); CONTEST_ALREADY_REGISTERED, CONTEST_TEAM_NAME_TAKEN, CONTEST_TEAM_FULL (409).
   */
  register: protectedProcedure.input(registerInput).mutation(({ ctx, input }) => register({ ...deps(ctx), codeLimiter: ctx.limiters.joinsByUser }, ctx.user, input)),

  /**
   * A participant enters a contest that asks for it (`{id, password?}`): its problems show and submissions are taken
   * from then on. @throws FORBIDDEN (403), BAD_INPUT (400, id: no entry needed), CONTEST_NOT_STARTED, CONTEST_OVER,
   * EXAM_PASSWORD_WRONG and the access rules' EXAM_* (403).
   */
  enter: protectedProcedure.input(enterInput).mutation(({ ctx, input }) => enterContest(ctx.db, ctx.user, input, ctx.now())),

  /** The jury: who entered, from where, and who was refused by which rule. @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403: exam.monitor). */
  accessLog: protectedProcedure.input(byId).query(({ ctx, input }) => contestAccessView(ctx.db, ctx.user, input.id)),

  /** The jury: releases a participant's one-session hold. @throws FORBIDDEN (403: exam.release), CONTEST_ENTRY_NOT_FOUND (404, userId). */
  release: protectedProcedure.input(contestReleaseInput).mutation(({ ctx, input }) => releaseContestSession(ctx.db, ctx.user, input, ctx.now())),

  /** Submits for the caller's team. @throws CONTEST_NOT_STARTED / CONTEST_OVER / FORBIDDEN (403), CONTEST_PROBLEM_NOT_FOUND (404). */
  submit: protectedProcedure
    .input(contestSubmitInput)
    .mutation(({ ctx, input }) => submitToContest({ ...deps(ctx), submissions: judgeOf(ctx).submissions }, ctx.user, input)),

  /** The team's submissions (participants) or all (jury). @throws FORBIDDEN (403). */
  submissions: protectedProcedure.input(byId).query(({ ctx, input }) => listContestSubmissions(deps(ctx), ctx.user, input.id)),

  /** A submission's code (the jury, the submitting team). @throws SUBMISSION_NOT_FOUND (404). */
  submissionCode: protectedProcedure
    .input(z.object({ id: idField(), submissionId: idField() }))
    .query(({ ctx, input }) => contestSubmissionCode(deps(ctx), ctx.user, input.id, input.submissionId)),

  /** The scoreboard as the caller may see it (frozen for non-jury during the freeze). @throws CONTEST_NOT_FOUND (404). */
  scoreboard: publicProcedure.input(byId).query(({ ctx, input }) => readScoreboard(deps(ctx), ctx.user, input.id)),

  /** The scoreboard again at every change (SSE). @throws CONTEST_NOT_FOUND (404). */
  scoreboardUpdates: publicProcedure
    .input(z.object({ id: idField(), version: z.number().int().min(-1) }))
    .subscription(({ ctx, input, signal }) => stream(scoreboardChanges(deps(ctx), ctx.user, input.id, input.version, signal))),

  /** Clarifications the caller may read. @throws FORBIDDEN (403). */
  clarifications: protectedProcedure.input(byId).query(({ ctx, input }) => listClarifications(deps(ctx), ctx.user, input.id)),

  /** A question (participants) or an answer/announcement (jury). @throws FORBIDDEN (403), RATE_LIMITED (429), CLARIFICATION_NOT_FOUND (404). */
  clarify: protectedProcedure
    .input(clarificationInput)
    .mutation(({ ctx, input }) => sendClarification({ ...deps(ctx), clarifyLimiter: ctx.limiters.clarificationsByUser }, ctx.user, input)),

  /** Jury, after the end: releases the frozen results. @throws FORBIDDEN (403), BAD_INPUT (400) before the end. */
  unfreeze: protectedProcedure.input(byId).mutation(({ ctx, input }) => unfreezeContest(deps(ctx), ctx.user, input.id, (c, now) => releasedEvents(deps(ctx), c, now))),

  /** Jury: judges a contest submission again. @throws FORBIDDEN (403), SUBMISSION_NOT_FOUND (404). */
  rejudge: protectedProcedure
    .input(z.object({ id: idField(), submissionId: idField() }))
    .mutation(({ ctx, input }) => rejudgeContestSubmission(deps(ctx), ctx.user, input.id, input.submissionId, () => ctx.judge?.events.queued())),

  /** Jury and balloon runners: every team's first solve of every problem, earliest first, with delivery marks. @throws FORBIDDEN (403). */
  balloons: protectedProcedure.input(byId).query(({ ctx, input }) => listBalloons(deps(ctx), ctx.user, input.id)),

  /** Jury and balloon runners: marks a balloon delivered or not. @throws FORBIDDEN (403), CONTEST_TEAM_NOT_FOUND (404). */
  markBalloon: protectedProcedure
    .input(z.object({ id: idField(), teamId: idField(), problemId: idField(), delivered: z.boolean() }))
    .mutation(({ ctx, input }) => markBalloon(deps(ctx), ctx.user, input)),

  /** Jury, after the end: the board after `step` steps of the reveal. @throws FORBIDDEN (403), BAD_INPUT (400) before the end. */
  reveal: protectedProcedure
    .input(z.object({ id: idField(), step: z.number().int().min(0).max(100_000) }))
    .query(({ ctx, input }) => revealStep(deps(ctx), ctx.user, input.id, input.step)),

  /** The contest's owners: its granted roles (jury, balloon). @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403). */
  roles: protectedProcedure.input(byId).query(({ ctx, input }) => listContestRoles(deps(ctx), ctx.user, input.id)),

  /** The contest's owners: grants a role to the account with this e-mail address. @throws FORBIDDEN (403), USER_NOT_FOUND (404, `email`), BAD_INPUT (400). */
  grantRole: protectedProcedure.input(grantRoleInput).mutation(({ ctx, input }) => grantContestRole(deps(ctx), ctx.user, input)),

  /** The contest's owners: revokes a granted role (effective at once). @throws FORBIDDEN (403), CONTEST_ROLE_NOT_FOUND (404), BAD_INPUT (400). */
  revokeRole: protectedProcedure.input(revokeRoleInput).mutation(({ ctx, input }) => revokeContestRole(deps(ctx), ctx.user, input)),

  /** Jury, after the end: the results are final and the awards announced. @throws FORBIDDEN (403), BAD_INPUT (400). */
  finalize: protectedProcedure.input(byId).mutation(({ ctx, input }) => finalizeContest(deps(ctx), ctx.user, input.id, (c, now) => awardEvents(deps(ctx), c, now))),
});
