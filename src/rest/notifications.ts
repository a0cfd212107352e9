/**
 * REST doors for notifications (decision 073), over the notifications router:
 * - GET /api/notifications?cursor=&limit= (mine, newest first, ≤ 50), GET /api/notifications/unread-count
 * - POST /api/notifications/read {ids} or {all: true}
 * - GET/PUT /api/notifications/preferences ({kinds: [{kind, inApp, email}]})
 * - POST /api/notifications/unsubscribe {token}, or `?token=` with the form body `List-Unsubscribe=One-Click`
 *   (RFC 8058: what a mail provider posts to the `List-Unsubscribe` link; no session needed)
 * Course announcements are under /api/courses/:id/announcements (./courses.ts).
 */
import { Hono } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";

/** The one-click unsubscribe door (cross-site posts allowed: src/app.ts). */
export const UNSUBSCRIBE_PATH = "/api/notifications/unsubscribe";

export const notificationsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await call(c, (api) => api.notifications.list({ cursor: c.req.query("cursor"), limit: c.req.query("limit") } as never))))
  .get("/unread-count", async (c) => c.json(await call(c, (api) => api.notifications.unreadCount())))
  .post("/read", async (c) => c.json(await call(c, async (api) => api.notifications.markRead((await jsonBody(c)) as never))))
  .get("/preferences", async (c) => c.json(await call(c, (api) => api.notifications.preferences())))
  .put("/preferences", async (c) => c.json(await call(c, async (api) => api.notifications.setPreferences((await jsonBody(c)) as never))))
  .post("/unsubscribe", async (c) => {
    const fromQuery = c.req.query("token");
    const type = c.req.header("content-type") ?? "";
    // A mail provider's one-click POST: the token is in the link, the body is the form `List-Unsubscribe=One-Click`.
    const token = fromQuery !== undefined && !/^application\/json/i.test(type) ? fromQuery : (await jsonBody(c)).token;
    return c.json(await call(c, (api) => api.notifications.unsubscribe({ token } as never)));
  });
