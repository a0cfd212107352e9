/**
 * REST doors for courses, over the courses router's procedures (so
 * instructors can script them):
 * - GET /api/courses (mine), POST /api/courses {title, code, term}
 * - GET/PATCH/DELETE /api/courses/:id (DELETE archives; PATCH {archived:false} restores)
 * - POST /api/courses/join {code}
 * - POST /api/courses/:id/invite {action: rotate|disable|enable}
 * - GET/POST /api/courses/:id/members (POST takes one {email, name?, role?} or {csv})
 * - PUT /api/courses/:id/members/:userId {extraTimePercent?, extraMinutes?} (extra time); GET /api/courses/:id/extra-time
 * - DELETE /api/courses/:id/members/:userId, DELETE /api/courses/:id/invites/:email
 * - GET /api/courses/:id/problems, GET/POST /api/courses/:id/assignments
 * - GET/POST /api/courses/:id/announcements ({title, body}: 201), DELETE /api/courses/:id/announcements/:announcementId
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

export const coursesRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await call(c, (api) => api.courses.mine())))
  .post("/", async (c) => c.json(await call(c, async (api) => api.courses.create((await jsonBody(c)) as never)), 201))
  .post("/join", async (c) => c.json(await call(c, async (api) => api.courses.join((await jsonBody(c)) as never))))
  .get("/:id", async (c) => c.json(await call(c, (api) => api.courses.byId({ id: c.req.param("id") }))))
  .get("/:id/announcements", async (c) => c.json(await call(c, (api) => api.notifications.announcements({ courseId: c.req.param("id") }))))
  .post("/:id/announcements", async (c) =>
    c.json(await call(c, async (api) => api.notifications.announce({ ...(await jsonBody(c)), courseId: c.req.param("id") } as never)), 201),
  )
  .delete("/:id/announcements/:announcementId", async (c) =>
    c.json(await call(c, (api) => api.notifications.deleteAnnouncement({ courseId: c.req.param("id"), id: c.req.param("announcementId") }))),
  )
  .patch("/:id", async (c) => c.json(await call(c, async (api) => api.courses.update({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .delete("/:id", async (c) => c.json(await call(c, (api) => api.courses.update({ id: c.req.param("id"), archived: true }))))
  .post("/:id/invite", async (c) => c.json(await call(c, async (api) => api.courses.invite({ ...(await jsonBody(c)), id: c.req.param("id") } as never))))
  .get("/:id/members", async (c) => c.json(await call(c, (api) => api.courses.members({ courseId: c.req.param("id") }))))
  .post("/:id/members", async (c) => {
    const body = await jsonBody(c);
    const courseId = c.req.param("id");
    return c.json(
      await call(c, (api) => ("csv" in body ? api.courses.importRoster({ courseId, csv: body.csv } as never) : api.courses.addMember({ ...body, courseId } as never))),
      201,
    );
  })
  .put("/:id/members/:userId", async (c) =>
    c.json(await call(c, async (api) => api.exam.setExtraTime({ ...(await jsonBody(c)), courseId: c.req.param("id"), userId: c.req.param("userId") } as never))),
  )
  .get("/:id/extra-time", async (c) => c.json(await call(c, (api) => api.exam.extraTimes({ courseId: c.req.param("id") }))))
  .delete("/:id/members/:userId", async (c) => c.json(await call(c, (api) => api.courses.removeMember({ courseId: c.req.param("id"), userId: c.req.param("userId") }))))
  .delete("/:id/invites/:email", async (c) => c.json(await call(c, (api) => api.courses.removeInvite({ courseId: c.req.param("id"), email: c.req.param("email") }))))
  .get("/:id/problems", async (c) => c.json(await call(c, (api) => api.courses.problems({ courseId: c.req.param("id") }))))
  .get("/:id/assignments", async (c) => c.json(await call(c, (api) => api.assignments.list({ courseId: c.req.param("id") }))))
  .post("/:id/assignments", async (c) =>
    c.json(await call(c, async (api) => api.assignments.create({ ...(await jsonBody(c)), courseId: c.req.param("id") } as never)), 201),
  );
