/**
 * The app router: one router per domain, merged here. The client imports
 * `AppRouter` (type only).
 */
import { router } from "./init.ts";
import { authRouter } from "./routers/auth.ts";
import { sessionsRouter, twoFactorRouter } from "./routers/two-factor.ts";
import { contactRouter } from "./routers/contact.ts";
import { problemsRouter } from "./routers/problems.ts";
import { submissionsRouter } from "./routers/submissions.ts";
import { judgeRouter } from "./routers/judge.ts";
import { aiRouter } from "./routers/ai.ts";
import { coursesRouter } from "./routers/courses.ts";
import { assignmentsRouter } from "./routers/assignments.ts";
import { poolsRouter } from "./routers/pools.ts";
import { adminRouter } from "./routers/admin.ts";
import { ltiRouter } from "./routers/lti.ts";
import { contestsRouter } from "./routers/contests.ts";
import { similarityRouter } from "./routers/similarity.ts";
import { tagsRouter } from "./routers/tags.ts";
import { progressRouter } from "./routers/progress.ts";
import { accountRouter } from "./routers/account.ts";
import { accountEmailRouter } from "./routers/account-email.ts";
import { notificationsRouter } from "./routers/notifications.ts";
import { gradingRouter } from "./routers/grading.ts";
import { analyticsRouter } from "./routers/analytics.ts";
import { examRouter } from "./routers/exam.ts";

export const appRouter = router({
  auth: authRouter,
  sessions: sessionsRouter,
  twoFactor: twoFactorRouter,
  problems: problemsRouter,
  submissions: submissionsRouter,
  contact: contactRouter,
  judge: judgeRouter,
  ai: aiRouter,
  courses: coursesRouter,
  assignments: assignmentsRouter,
  pools: poolsRouter,
  admin: adminRouter,
  lti: ltiRouter,
  contests: contestsRouter,
  similarity: similarityRouter,
  tags: tagsRouter,
  progress: progressRouter,
  account: accountRouter,
  accountEmail: accountEmailRouter,
  notifications: notificationsRouter,
  grading: gradingRouter,
  analytics: analyticsRouter,
  exam: examRouter,
});

export type AppRouter = typeof appRouter;
