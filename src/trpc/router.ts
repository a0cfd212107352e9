/**
 * The app router: one router per domain, merged here. The client imports
 * `AppRouter` (type only). Judging and AI add one line each below.
 */
import { router } from "./init.ts";
import { authRouter } from "./routers/auth.ts";
import { contactRouter } from "./routers/contact.ts";
import { problemsRouter } from "./routers/problems.ts";
import { submissionsRouter } from "./routers/submissions.ts";
import { judgeRouter } from "./routers/judge.ts";
import { aiRouter } from "./routers/ai.ts";

export const appRouter = router({
  auth: authRouter,
  problems: problemsRouter,
  submissions: submissionsRouter,
  contact: contactRouter,
  judge: judgeRouter,
  ai: aiRouter,
});

export type AppRouter = typeof appRouter;
