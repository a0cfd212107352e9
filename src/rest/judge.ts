/**
 * REST door of Run (the documented /api/compiler), over the judge router's `run`:
 * POST /api/compiler `{language, code, input, expectedOutput?}` → 200
 * `{output, correct?, verdict, stderr, exitCode, timeMs, memoryKib, ...}`;
 * a compile error → 400 `{error: "Compilation error: …", compileOutput}`.
 * POST /api/submissions is src/rest/submissions.ts's.
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

// Bodies are validated by the procedures' zod inputs; `as never` hands the raw JSON over.
export const judgeRoutes = new Hono<AppEnv>()
  .post("/compiler", async (c) => c.json(await call(c, async (api) => api.judge.run((await jsonBody(c)) as never))));
