/**
 * The one Hono app: REST routes under /api/*, tRPC under /trpc/*, health, and
 * the built client with SPA fallback. `createApp(services)` builds it without
 * starting a server, so tests call `app.request()` directly.
 *
 * Mount points (one line each for the other issues):
 * - judging: `src/rest/judge.ts` (POST /api/compiler, POST /api/submissions) → `app.route("/api", judgeRoutes)`
 * - AI review: `src/rest/ai.ts` (POST /api/ai/ai-review) → `app.route("/api/ai", aiRoutes)`
 */
import { notificationsRoutes, UNSUBSCRIBE_PATH } from "./rest/notifications.ts";
import { requestLocale } from "./i18n/messages.ts";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { compress } from "hono/compress";
import { routePath } from "hono/route";
import { bindLiveSources, recordHttp } from "./ops/metrics.ts";
import { liveSources } from "./ops/live.ts";
import { metricsRoutes } from "./rest/metrics.ts";
import { adminRoutes } from "./rest/admin.ts";
import { Hono, type MiddlewareHandler } from "hono";
import { judgeApiRoutes } from "./rest/judge-hosts.ts";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { AppError } from "./errors.ts";
import { createContext, fromTrustedProxy, type Services } from "./context.ts";
import { errorResponse, type AppEnv } from "./rest/call.ts";
import { authRoutes } from "./rest/auth.ts";
import { ssoRoutes } from "./rest/sso.ts";
import { ltiRoutes } from "./rest/lti.ts";
import { contactRoutes } from "./rest/contact.ts";
import { healthRoutes } from "./rest/health.ts";
import { problemsRoutes } from "./rest/problems.ts";
import { submissionsRoutes } from "./rest/submissions.ts";
import { judgeRoutes } from "./rest/judge.ts";
import { aiRoutes } from "./rest/ai.ts";
import { assignmentsRoutes } from "./rest/assignments.ts";
import { lateDaysRoutes } from "./rest/late-days.ts";
import { coursesRoutes } from "./rest/courses.ts";
import { ccsInfo, ccsRoutes } from "./rest/ccs.ts";
import { contestsRoutes } from "./rest/contests.ts";
import { similarityRoutes, similarityScopeRoutes } from "./rest/similarity.ts";
import { tagsRoutes } from "./rest/tags.ts";
import { accountRoutes } from "./rest/account.ts";
import { accountEmailRoutes } from "./rest/account-email.ts";
import { progressRoutes, usersRoutes } from "./rest/progress.ts";
import { gradingRoutes } from "./rest/grading.ts";
import { clientHandler } from "./static.ts";
import { pageSecurityHeaders } from "./csp.ts";
import { appRouter } from "./trpc/router.ts";

/**
 * Largest request body, bytes: a problem's tests may hold 64 MiB, and JSON
 * escaping (every newline becomes `\n`) can add up to that again in the worst
 * case, plus the statement. Bun.serve's own cap (src/server.ts) sits above it.
 */
export const MAX_BODY_BYTES = 144 * 1024 * 1024;

/**
 * Largest body of every request that does not create or update a problem,
 * bytes. The largest of them, Run, carries code (64 KiB) plus input and
 * expected output (1 MiB each, UTF-8): 16 MiB holds that even when JSON
 * escapes every byte as `\u00XX` (6 bytes). Without it anyone, signed in or
 * not (login, register, contact), could make the server buffer and parse
 * 144 MiB per request.
 */
export const MAX_SMALL_BODY_BYTES = 16 * 1024 * 1024;
/** Most calls one batched tRPC request may carry (400 beyond); the client's httpBatchLink splits at the same number. */
export const MAX_TRPC_BATCH_SIZE = 32;

/** Whether the request creates or updates a problem (REST or tRPC, batched or not): only these get MAX_BODY_BYTES. */
function writesProblem(method: string, url: string): boolean {
  if (method !== "POST" && method !== "PUT") return false;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return false;
  }
  if (/^\/api\/problems(\/[^/]+)?\/?$/.test(path)) return true;
  return path.startsWith("/trpc/") && /(^|,)problems\.(create|update|importPackage)(,|$)/.test(path.slice("/trpc/".length));
}

/** A tRPC GET of the gradebook (`assignments.gradebook`, alone or in a batch), not its update stream. */
export function isGradebookRead(path: string): boolean {
  return path.startsWith("/trpc/") && /(^|,)assignments\.gradebook(,|$)/.test(path.slice("/trpc/".length));
}

/**
 * The doors posted to from another site by design: an LMS's login and launch (src/rest/lti.ts), and a mail
 * provider's one-click unsubscribe (RFC 8058; the signed token is the proof, no cookie counts).
 */
const LTI_CROSS_SITE_POSTS = new Set(["/api/lti/login", "/api/lti/launch", UNSUBSCRIBE_PATH]);

/**
 * Refuses cross-site form-style writes (CSRF): an unsafe request whose
 * content type a plain HTML form can send must come from our own host or a
 * CORS_ORIGINS origin when the browser names its origin. JSON requests need a
 * CORS preflight anyway; requests without Origin/Sec-Fetch-Site come from
 * non-browser clients, which carry no ambient cookies to abuse.
 *
 * With `reads` (the tRPC door), GET and HEAD are held to the same origin
 * rule: tRPC subscriptions are GETs authenticated by the session cookie (SSE
 * cannot send headers), and `ai.stream` spends the user's AI quota and, with
 * the offline reviewer, compiles and runs the code it is given. A cross-site
 * page could otherwise start one as the victim by a top-level navigation
 * (SameSite=Lax sends the cookie) or, from a sibling subdomain, by an
 * `<img>`. The client's own calls are same-origin (`Sec-Fetch-Site:
 * same-origin`) or come from a CORS_ORIGINS origin, which browsers name.
 */
function csrfGuard(allowedOrigins: readonly string[], config: Pick<Services["config"], "TRUST_PROXY" | "proxies">, opts: { reads?: boolean } = {}): MiddlewareHandler {
  const formLike = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)/i;
  return async (c, next) => {
    const method = c.req.method;
    if (method === "OPTIONS") return next();
    // An LMS form-posts its login and launch from its own site by design; they carry no ambient
    // authority: a launch counts only with its signed id_token, its state and this browser's state cookie.
    if (LTI_CROSS_SITE_POSTS.has(c.req.path)) return next();
    if (method === "GET" || method === "HEAD") {
      if (!opts.reads) return next();
    } else {
      const type = c.req.header("content-type");
      if (type !== undefined && !formLike.test(type)) return next();
    }
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    if (origin !== undefined && origin !== "null") {
      const host = (fromTrustedProxy(c, config) && c.req.header("x-forwarded-host")) || c.req.header("host");
      let ok = allowedOrigins.includes(origin);
      try {
        ok ||= new URL(origin).host === host;
      } catch {
        ok = false;
      }
      if (!ok) throw new AppError("FORBIDDEN_ORIGIN");
    } else if (site !== undefined && site !== "same-origin" && site !== "none") {
      throw new AppError("FORBIDDEN_ORIGIN");
    }
    return next();
  };
}

/**
 * Builds the app.
 * @param services the long-lived services (config, db, sandbox, ...).
 * @returns a Hono app; serve it with `Bun.serve({ fetch: app.fetch })`.
 */
export function createApp(services: Services): Hono<AppEnv> {
  const { config, log } = services;
  const app = new Hono<AppEnv>();

  app.use("*", async (c, next) => {
    c.set("services", services);
    const started = performance.now();
    await next();
    // The pattern that answered (`/api/problems/:id`, `/trpc/*`), read after the handlers ran:
    // patterns, never raw paths, label the metrics, so their number stays bounded.
    recordHttp(c.req.method, routePath(c), c.res.status, (performance.now() - started) / 1000);
  });
  bindLiveSources(liveSources(services));
  app.use("*", pageSecurityHeaders(services.db));

  if (config.CORS_ORIGINS.length) {
    const corsMw = cors({
      origin: [...config.CORS_ORIGINS],
      credentials: true,
      allowHeaders: ["Content-Type", "Authorization", "trpc-accept", "x-trpc-source"],
      allowMethods: ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"],
      exposeHeaders: ["Retry-After", "X-Session-Token"],
      maxAge: 600,
    });
    app.use("/api/*", corsMw);
    app.use("/trpc/*", corsMw);
  }

  const guard = csrfGuard(config.CORS_ORIGINS, config);
  const trpcGuard = csrfGuard(config.CORS_ORIGINS, config, { reads: true });
  const largeLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AppError("PAYLOAD_TOO_LARGE", { field: "body", message: "body: request larger than 144 MiB" });
    },
  });
  const smallLimit = bodyLimit({
    maxSize: MAX_SMALL_BODY_BYTES,
    onError: () => {
      throw new AppError("PAYLOAD_TOO_LARGE", { field: "body", message: "body: request larger than 16 MiB" });
    },
  });
  const limit: MiddlewareHandler = (c, next) => (writesProblem(c.req.method, c.req.url) ? largeLimit : smallLimit)(c, next);
  app.use("/api/*", guard, limit);
  app.use("/trpc/*", trpcGuard, limit);
  // The gradebook is the one large JSON answer read over and over near a deadline
  // (hundreds of KiB for 300 students): gzipped when the client accepts it. Never the
  // event streams, which compression would hold back.
  const gzip = compress({ encoding: "gzip" });
  app.use("/api/assignments/:id/grades", gzip);
  app.use("/trpc/*", (c, next) => (isGradebookRead(c.req.path) ? gzip(c, next) : next()));

  app.route("/metrics", metricsRoutes);
  app.route("/api/health", healthRoutes);
  app.route("/api/auth", ssoRoutes);
  app.route("/api/auth", authRoutes);
  app.route("/api/problems", problemsRoutes);
  app.route("/api/submissions", submissionsRoutes);
  app.route("/api/contact", contactRoutes);
  // Judge hosts (bearer host tokens, no user sessions): before the /api judge doors.
  app.route(
    "/api/judge",
    judgeApiRoutes((s) => (s.judge ? { db: s.db, events: s.judge.events, leaseMs: s.config.JUDGE_LEASE_SECONDS * 1000, jobsPerUser: s.config.JUDGE_JOBS_PER_USER, budgetCeilingMs: s.config.JUDGE_SUBMISSION_BUDGET_SECONDS * 1000 } : null)),
  );
  app.route("/api", judgeRoutes);
  app.route("/api/ai", aiRoutes);
  app.route("/api/courses", coursesRoutes);
  app.route("/api/assignments", assignmentsRoutes);
  app.route("/api/assignments", lateDaysRoutes);
  app.route("/api/contests", contestsRoutes);
  app.route("/api/assignments", similarityScopeRoutes("assignment"));
  app.route("/api/contests", similarityScopeRoutes("contest"));
  app.route("/api/similarity", similarityRoutes);
  app.route("/api/tags", tagsRoutes);
  app.route("/api/account/email", accountEmailRoutes);
  app.route("/api/account", accountRoutes);
  app.route("/api/notifications", notificationsRoutes);
  app.route("/api/progress", progressRoutes);
  app.route("/api/users", usersRoutes);
  // The Contest API's base URL ends in a slash in every client's configuration: `/api/ccs/` is its `/`.
  app.get("/api/ccs/", ccsInfo);
  app.route("/api/ccs", ccsRoutes);
  app.route("/api/admin", adminRoutes);
  app.route("/api/lti", ltiRoutes);
  // Reviews, rubrics, the comment bank and regrade requests (issue 37 §4–5): full paths under /api.
  app.route("/api", gradingRoutes);
  app.all("/api/*", (c) => c.json({ error: "Not found", message: "Not found", code: "NOT_FOUND" }, 404));

  app.all("/trpc/*", (c) =>
    fetchRequestHandler({
      endpoint: "/trpc",
      req: c.req.raw,
      router: appRouter,
      createContext: ({ resHeaders }) => createContext(services, c, resHeaders),
      maxBatchSize: MAX_TRPC_BATCH_SIZE,
      responseMeta({ errors }) {
        const retry = errors.map((e) => e.cause).find((e): e is AppError => e instanceof AppError && !!e.retryAfterSeconds);
        return retry ? { headers: { "Retry-After": String(Math.ceil(retry.retryAfterSeconds!)) } } : {};
      },
      onError({ error, path }) {
        if (error.code === "INTERNAL_SERVER_ERROR") {
          const real = error.cause ?? error;
          log.error(`trpc ${path ?? "?"} failed`, { error: real instanceof Error ? (real.stack ?? real.message) : String(real) });
        }
      },
    }),
  );

  const client = clientHandler(config.CLIENT_DIST);
  app.get("*", client);

  app.onError((err, c) => {
    const res = errorResponse(err, log, config.ANSWER_LOCALES === "en" ? "en" : requestLocale(c.req.header("accept-language")));
    // Keep headers the handler already set (e.g. a renewed session cookie).
    c.res.headers.forEach((value, name) => {
      if (name.toLowerCase() === "set-cookie" || name.toLowerCase().startsWith("x-session")) res.headers.append(name, value);
    });
    return res;
  });
  app.notFound((c) => c.json({ error: "Not found", message: "Not found", code: "NOT_FOUND" }, 404));
  return app;
}
