/**
 * REST doors of grading by people (issue 37 §4–5), over the grading router's procedures (mounted at /api):
 * - GET /api/submissions/:id/review; PUT /api/submissions/:id/review {itemIds, comments: [{line, text}], overridePoints?, release?}
 * - POST /api/submissions/:id/regrade-requests {reason} → 201
 * - GET /api/assignments/:id/problems/:problemId/rubric; PUT the same {mode: add|replace, items: [{id?, points, description}]}
 * - GET /api/assignments/:id/reviews (staff); GET /api/assignments/:id/my-reviews (the caller's released ones); POST /api/assignments/:id/reviews/release {problemId?}
 * - GET /api/courses/:id/comment-bank; POST /api/courses/:id/comment-bank {text} → 201; DELETE /api/comment-bank/:id
 * - GET /api/courses/:id/regrade-requests?status=open|accepted|declined|all
 * - PATCH /api/regrade-requests/:id {status: accepted|declined, answer, points?}
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

export const gradingRoutes = new Hono<AppEnv>()
  .get("/submissions/:id/review", async (c) => c.json(await call(c, (api) => api.grading.review({ id: c.req.param("id") }))))
  .put("/submissions/:id/review", async (c) => c.json(await call(c, async (api) => api.grading.saveReview({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .post("/submissions/:id/regrade-requests", async (c) =>
    c.json(await call(c, async (api) => api.grading.requestRegrade({ ...(await jsonBody(c)), id: c.req.param("id") } as never)), 201),
  )
  .get("/assignments/:id/problems/:problemId/rubric", async (c) =>
    c.json(await call(c, (api) => api.grading.rubric({ assignmentId: c.req.param("id"), problemId: c.req.param("problemId") }))),
  )
  .put("/assignments/:id/problems/:problemId/rubric", async (c) =>
    c.json(await call(c, async (api) => api.grading.saveRubric({ ...(await jsonBody(c)), assignmentId: c.req.param("id"), problemId: c.req.param("problemId") } as never))),
  )
  .get("/assignments/:id/reviews", async (c) => c.json(await call(c, (api) => api.grading.reviews({ assignmentId: c.req.param("id") }))))
  .get("/assignments/:id/my-reviews", async (c) => c.json(await call(c, (api) => api.grading.myReviews({ assignmentId: c.req.param("id") }))))
  .post("/assignments/:id/reviews/release", async (c) =>
    c.json(await call(c, async (api) => api.grading.releaseAll({ ...(await jsonBody(c)), assignmentId: c.req.param("id") } as never))),
  )
  .get("/courses/:id/comment-bank", async (c) => c.json(await call(c, (api) => api.grading.commentBank({ courseId: c.req.param("id") }))))
  .post("/courses/:id/comment-bank", async (c) =>
    c.json(await call(c, async (api) => api.grading.addComment({ ...(await jsonBody(c)), courseId: c.req.param("id") } as never)), 201),
  )
  .delete("/comment-bank/:id", async (c) => c.json(await call(c, (api) => api.grading.deleteComment({ id: c.req.param("id") }))))
  .get("/courses/:id/regrade-requests", async (c) =>
    c.json(await call(c, (api) => api.grading.regradeQueue({ courseId: c.req.param("id"), status: (c.req.query("status") ?? undefined) as never }))),
  )
  .patch("/regrade-requests/:id", async (c) => c.json(await call(c, async (api) => api.grading.answerRegrade({ ...(await jsonBody(c)), id: c.req.param("id") } as never))));
