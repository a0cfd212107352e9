/**
 * REST doors of judging (the documented /api/compiler and /api/submissions), over the judge router's procedures:
 * - POST /api/compiler `{language, code, input, expectedOutput?}` → 200
 *   `{output, correct?, verdict, stderr, exitCode, timeMs, memoryKib, ...}`;
 *   a compile error → 400 `{error: "Compilation error: …", compileOutput}`.
 * - POST /api/submissions `{problemId, code, language, ...}` → judged on the
 *   server; answers 201 with the judged submission once judging ends, or with
 *   `?wait=false` at once 202 `{id, _id, status: "queued"}`. Should judging
 *   outlast WAIT_MAX_MS, 202 with the submission as it is then.
 */
import { Hono, type Context } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

/** Bun's server as Hono's `env`: `timeout(req, 0)` lifts the idle timeout for one long request. */
interface BunServerEnv {
  timeout?: (req: Request, seconds: number) => void;
}

/**
 * Submits `body` (the judge router's `submit` input) and answers as
 * POST /api/submissions does: 201 with the judged submission, or 202 at once
 * with `?wait=false` (or when judging outlasts the wait). The assignment
 * door (src/rest/assignments.ts) answers the same way.
 */
export async function submitAndAnswer(c: Context<AppEnv>, body: Record<string, unknown>): Promise<Response> {
  const wait = c.req.query("wait") !== "false";
  const result = await call(c, async (api) => {
    const created = await api.judge.submit(body as never);
    if (!wait) return { created, judged: null };
    // Judging may take longer than the server's idle timeout with nothing sent meanwhile.
    (c.env as BunServerEnv | undefined)?.timeout?.(c.req.raw, 0);
    return { created, judged: await api.judge.wait({ id: created.id }) };
  });
  if (!result.judged) return c.json(result.created, 202);
  return c.json(result.judged, result.judged.status === "done" ? 201 : 202);
}

// Bodies are validated by the procedures' zod inputs; `as never` hands the raw JSON over.
export const judgeRoutes = new Hono<AppEnv>()
  .post("/compiler", async (c) => c.json(await call(c, async (api) => api.judge.run((await jsonBody(c)) as never))))
  // The plain door never names an assignment: a course problem counts for its open assignment by itself.
  .post("/submissions", async (c) => submitAndAnswer(c, { ...(await jsonBody(c)), assignmentId: undefined }));
