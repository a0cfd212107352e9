/**
 * REST doors of submissions (the routes the product documents), over the submissions router's procedures:
 * - POST /api/submissions `{problemId, code, language, ...}` → judged on the
 *   server; answers 201 with the judged submission once judging ends, or with
 *   `?wait=false` at once 202 `{id, _id, status: "queued"}`. Should judging
 *   outlast WAIT_MAX_MS, 202 with the submission as it is then.
 * - GET /api/submissions/:problemId: the caller's history of one problem.
 * - POST /api/submissions/:id/rejudge.
 */
import { Hono, type Context } from "hono";
import { call, jsonBody, type AppCaller, type AppEnv } from "./call.ts";

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
export async function submitAndAnswer(
  c: Context<AppEnv>,
  body: Record<string, unknown>,
  create: (api: AppCaller, body: Record<string, unknown>) => Promise<{ id: string }> = (api, b) => api.submissions.create(b as never),
): Promise<Response> {
  const wait = c.req.query("wait") !== "false";
  const result = await call(c, async (api) => {
    const created = await create(api, body);
    if (!wait) return { created, judged: null };
    // Judging may take longer than the server's idle timeout with nothing sent meanwhile.
    (c.env as BunServerEnv | undefined)?.timeout?.(c.req.raw, 0);
    return { created, judged: await api.submissions.wait({ id: created.id }) };
  });
  if (!result.judged) return c.json(result.created, 202);
  return c.json(result.judged, result.judged.status === "done" ? 201 : 202);
}

export const submissionsRoutes = new Hono<AppEnv>()
  // The plain door never names an assignment: a course problem counts for its open assignment by itself.
  .post("/", async (c) => submitAndAnswer(c, { ...(await jsonBody(c)), assignmentId: undefined }))
  .get("/:problemId", async (c) => c.json(await call(c, (api) => api.submissions.list({ problemId: c.req.param("problemId") }))))
  .post("/:id/rejudge", async (c) => c.json(await call(c, (api) => api.submissions.rejudge({ id: c.req.param("id") }))));
