/**
 * REST doors for contests, over the contests router's procedures:
 * - GET /api/contests; POST /api/contests {title, shortName, startsAt, durationMinutes, freezeMinutes?,
 *   scoring: "icpc"|"ioi", penaltyMinutes?, courseId?, registration?, registrationCode?, problems: [{problemId, label, color?}]} → 201
 * - GET/PATCH/DELETE /api/contests/:id (the id or the short name)
 * - POST /api/contests/:id/register {teamName?, organization?, code?, teamCode?, virtual?} → 201
 * - POST /api/contests/:id/enter {password?} (a participant, when the contest asks for an entry)
 * - GET /api/contests/:id/access-log; POST /api/contests/:id/release {userId} (jury)
 * - POST /api/contests/:id/submissions {problemId, language, code} → 201 judged, or 202 with `?wait=false`
 * - GET /api/contests/:id/submissions; GET /api/contests/:id/submissions/:submissionId (with code)
 * - GET /api/contests/:id/scoreboard
 * - GET/POST /api/contests/:id/clarifications {problemId?, text, replyToId?, toTeamId?, toAll?}
 * - POST /api/contests/:id/unfreeze; POST /api/contests/:id/finalize
 * - POST /api/contests/:id/submissions/:submissionId/rejudge (jury)
 * - GET /api/contests/:id/balloons; POST /api/contests/:id/balloons {teamId, problemId, delivered} (jury, balloon runners)
 * - GET /api/contests/:id/reveal?step=N (jury, after the end)
 * - GET /api/contests/:id/roles; POST /api/contests/:id/roles {email, role: "jury"|"balloon"} → 201;
 *   DELETE /api/contests/:id/roles/:userId/:role (the contest's owners)
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";
import { submitAndAnswer } from "./submissions.ts";
import { readScoreboardJson } from "../contests/scoreboard.ts";

export const contestsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await call(c, (api) => api.contests.list())))
  .post("/", async (c) => c.json(await call(c, async (api) => api.contests.create((await jsonBody(c)) as never)), 201))
  .get("/:id", async (c) => c.json(await call(c, (api) => api.contests.byId({ id: c.req.param("id") }))))
  .patch("/:id", async (c) => c.json(await call(c, async (api) => api.contests.update({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .delete("/:id", async (c) => c.json(await call(c, (api) => api.contests.delete({ id: c.req.param("id") }))))
  .post("/:id/register", async (c) => c.json(await call(c, async (api) => api.contests.register({ ...(await jsonBody(c)), id: c.req.param("id") } as never)), 201))
  .post("/:id/enter", async (c) => c.json(await call(c, async (api) => api.contests.enter({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .get("/:id/access-log", async (c) => c.json(await call(c, (api) => api.contests.accessLog({ id: c.req.param("id") }))))
  .post("/:id/release", async (c) => c.json(await call(c, async (api) => api.contests.release({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .post("/:id/submissions", async (c) =>
    submitAndAnswer(c, { ...(await jsonBody(c)), id: c.req.param("id") }, async (api, body) => ({ ...(await api.contests.submit(body as never)), status: "queued" })),
  )
  .get("/:id/submissions", async (c) => c.json(await call(c, (api) => api.contests.submissions({ id: c.req.param("id") }))))
  .get("/:id/submissions/:submissionId", async (c) =>
    c.json(await call(c, (api) => api.contests.submissionCode({ id: c.req.param("id"), submissionId: c.req.param("submissionId") }))),
  )
  // The board's JSON is encoded once per version for every viewer: the door serves that text as it is.
  .get("/:id/scoreboard", async (c) => {
    const json = await call(c, (_api, ctx) => readScoreboardJson({ db: ctx.db, contests: ctx.contests, now: ctx.now }, ctx.user, c.req.param("id")));
    return c.body(json, 200, { "content-type": "application/json; charset=utf-8" });
  })
  .get("/:id/clarifications", async (c) => c.json(await call(c, (api) => api.contests.clarifications({ id: c.req.param("id") }))))
  .post("/:id/clarifications", async (c) => c.json(await call(c, async (api) => api.contests.clarify({ ...(await jsonBody(c)), id: c.req.param("id") } as never)), 201))
  .post("/:id/unfreeze", async (c) => c.json(await call(c, (api) => api.contests.unfreeze({ id: c.req.param("id") }))))
  .post("/:id/finalize", async (c) => c.json(await call(c, (api) => api.contests.finalize({ id: c.req.param("id") }))))
  .post("/:id/submissions/:submissionId/rejudge", async (c) =>
    c.json(await call(c, (api) => api.contests.rejudge({ id: c.req.param("id"), submissionId: c.req.param("submissionId") }))),
  )
  .get("/:id/balloons", async (c) => c.json(await call(c, (api) => api.contests.balloons({ id: c.req.param("id") }))))
  .post("/:id/balloons", async (c) => c.json(await call(c, async (api) => api.contests.markBalloon({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .get("/:id/roles", async (c) => c.json(await call(c, (api) => api.contests.roles({ id: c.req.param("id") }))))
  .post("/:id/roles", async (c) => c.json(await call(c, async (api) => api.contests.grantRole({ ...(await jsonBody(c)), id: c.req.param("id") } as never)), 201))
  .delete("/:id/roles/:userId/:role", async (c) =>
    c.json(await call(c, (api) => api.contests.revokeRole({ id: c.req.param("id"), userId: c.req.param("userId"), role: c.req.param("role") as never }))),
  )
  .get("/:id/reveal", async (c) => c.json(await call(c, (api) => api.contests.reveal({ id: c.req.param("id"), step: Number(c.req.query("step") ?? 0) }))));
