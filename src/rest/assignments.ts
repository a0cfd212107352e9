/**
 * REST doors for assignments, over the assignments router's procedures:
 * - GET/PATCH/DELETE /api/assignments/:id
 * - POST /api/assignments/:id/extensions {userId, dueAt, closesAt?}; DELETE /api/assignments/:id/extensions/:userId
 * - GET /api/assignments/:id/grades: JSON, or CSV with `Accept: text/csv` or `?format=csv`
 * - GET /api/assignments/:id/best-submissions.zip: every student's best submission per problem
 * - POST /api/assignments/:id/submissions {problemId, code, language}: submit inside the assignment
 *   (answers like POST /api/submissions: 201 judged, or 202 with `?wait=false`)
 * - POST /api/assignments/:id/rejudge {submissionId}
 * - GET /api/assignments/:id/analytics?window=hour|day&minFailed=N: who is stuck (staff; src/courses/analytics)
 * - POST /api/assignments/:id/start {password?}; GET /api/assignments/:id/window (the caller's window)
 * - GET /api/assignments/:id/access-log (staff); POST /api/assignments/:id/release {userId} (staff)
 */
import { Hono } from "hono";
import { bestSubmissionsZip } from "../courses/gradebook.ts";
import { AppError } from "../errors.ts";
import { call, jsonBody, type AppEnv } from "./call.ts";
import { submitAndAnswer } from "./submissions.ts";

export const assignmentsRoutes = new Hono<AppEnv>()
  .get("/:id", async (c) => c.json(await call(c, (api) => api.assignments.byId({ id: c.req.param("id") }))))
  .patch("/:id", async (c) => c.json(await call(c, async (api) => api.assignments.update({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .delete("/:id", async (c) => c.json(await call(c, (api) => api.assignments.delete({ id: c.req.param("id") }))))
  .post("/:id/extensions", async (c) =>
    c.json(await call(c, async (api) => api.assignments.grantExtension({ ...(await jsonBody(c)), assignmentId: c.req.param("id") } as never)), 201),
  )
  .delete("/:id/extensions/:userId", async (c) =>
    c.json(await call(c, (api) => api.assignments.removeExtension({ assignmentId: c.req.param("id"), userId: c.req.param("userId") }))),
  )
  .get("/:id/grades", async (c) => {
    const id = c.req.param("id");
    const csv = c.req.query("format") === "csv" || (c.req.header("accept") ?? "").includes("text/csv");
    if (!csv) return c.json(await call(c, (api) => api.assignments.gradebook({ id })));
    const { csv: text } = await call(c, (api) => api.assignments.gradesCsv({ id }));
    return c.body(text, 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="grades-${id}.csv"` });
  })
  .get("/:id/best-submissions.zip", async (c) => {
    const id = c.req.param("id");
    // A binary answer: the door calls the domain itself (tRPC answers JSON), with the same checks.
    const zip = await call(c, (_api, ctx) => {
      if (!ctx.user) throw new AppError("UNAUTHENTICATED");
      return bestSubmissionsZip(ctx.db, ctx.user, id, ctx.now());
    });
    return c.body(zip as Uint8Array<ArrayBuffer>, 200, { "content-type": "application/zip", "content-disposition": `attachment; filename="best-submissions-${id}.zip"` });
  })
  .post("/:id/submissions", async (c) => submitAndAnswer(c, { ...(await jsonBody(c)), assignmentId: c.req.param("id") }))
  .get("/:id/analytics", async (c) => {
    const minFailed = c.req.query("minFailed");
    // A number that is not one reaches zod as text, which names the field.
    const input = { id: c.req.param("id"), window: c.req.query("window"), minFailed: minFailed === undefined ? undefined : /^\d+$/.test(minFailed) ? Number(minFailed) : minFailed };
    return c.json(await call(c, (api) => api.analytics.assignment(input as never)));
  })
  .post("/:id/start", async (c) => c.json(await call(c, async (api) => api.exam.start({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .get("/:id/window", async (c) => c.json(await call(c, (api) => api.exam.status({ id: c.req.param("id") }))))
  .get("/:id/access-log", async (c) => c.json(await call(c, (api) => api.exam.accessLog({ id: c.req.param("id") }))))
  .post("/:id/release", async (c) => c.json(await call(c, async (api) => api.exam.release({ ...(await jsonBody(c)), assignmentId: c.req.param("id") } as never))))
  .post("/:id/rejudge", async (c) => c.json(await call(c, async (api) => api.assignments.rejudge((await jsonBody(c)) as never))));
