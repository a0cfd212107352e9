/**
 * REST doors of the judge router: GET /api/languages → 200 `{languages: [{id, name, displayName,
 * timeMultiplier, editorMode}]}` (what this server offers); Run (the documented /api/compiler), over `run`:
 * POST /api/compiler `{language, code, input, expectedOutput?}` → 200
 * `{output, correct?, verdict, stderr, exitCode, timeMs, memoryKib, ...}`;
 * a compile error → 400 `{error: "Compilation error: …", compileOutput}`.
 * POST /api/submissions is src/rest/submissions.ts's.
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

// Bodies are validated by the procedures' zod inputs; `as never` hands the raw JSON over.
export const judgeRoutes = new Hono<AppEnv>()
  .get("/languages", async (c) => c.json(await call(c, (api) => api.judge.languages())))
  .post("/compiler", async (c) => c.json(await call(c, async (api) => api.judge.run((await jsonBody(c)) as never))));
