/**
 * The REST adapter: how a route under /api/* calls the same tRPC procedure the
 * client calls ("one implementation, two doors"), and how any error becomes
 * the documented JSON body with the catalogue's status.
 *
 * Writing a REST route (judging and AI routes do the same):
 * ```ts
 * import { Hono } from "hono";
 * import { call, jsonBody, type AppEnv } from "./call.ts";
 *
 * export const thingsRoutes = new Hono<AppEnv>()
 *   .post("/", async (c) => c.json(await call(c, async (api) => api.things.create(await jsonBody(c))), 201))
 *   .get("/:id", async (c) => c.json(await call(c, (api) => api.things.byId({ id: c.req.param("id") }))));
 * ```
 * `call` builds the procedure context from the Hono request (Bearer header or
 * session cookie, client address, HTTPS), runs the procedure through a caller
 * from `createCallerFactory`, and copies the context's response headers
 * (Set-Cookie on login/logout/renewal, X-Session-Token) onto the response. It
 * does not catch: a thrown error reaches `app.onError`, which answers with
 * `errorResponse(err)`:
 *
 *   `{ error, message, code, field?, ...details }`
 *
 * - `error` and `message`: the human text (the spec's client shows `data.error`
 *   for run/submit failures and `message` elsewhere), e.g. `title: Required`.
 * - `code`: the catalogue name (`BAD_INPUT`, `PROBLEM_NOT_FOUND`, ...).
 * - `field`: the offending input field for 400/413, e.g. `hiddenTestCases.2`.
 * - `details` of an AppError are spread into the body (e.g. `compileOutput`).
 * - Status from the catalogue (400, 401, 403, 404, 409, 413, 429, 5xx); a 429
 *   carries `Retry-After` (seconds). Unknown errors → 500 "Internal server
 *   error", logged, never leaking the cause.
 */
import { localizedErrorMessage } from "../i18n/messages.ts";
import type { AnyLocaleTag } from "../i18n/locales.ts";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { Context as HonoContext } from "hono";
import { HTTPException } from "hono/http-exception";
import { ZodError } from "zod";
import { createContext, type Context, type Services } from "../context.ts";
import { AppError, ERRORS } from "../errors.ts";
import type { Logger } from "../log.ts";
import { describeZodError } from "../trpc/init.ts";
import { appRouter } from "../trpc/router.ts";
import { createCallerFactory } from "../trpc/init.ts";

/** Hono environment of every app and sub-app: `c.get("services")` is set by createApp. */
export type AppEnv = { Variables: { services: Services } };

const createCaller = createCallerFactory(appRouter);
/** The server-side caller: `api.problems.list()`, `api.auth.login({...})`, ... */
export type AppCaller = ReturnType<typeof createCaller>;

/**
 * Runs `run` with a caller acting as the request's user, and copies the
 * context's response headers onto the Hono response.
 * @param opts.signal handed to the procedures as their `signal` (e.g. `c.req.raw.signal`, which
 *                    Bun aborts when the client disconnects), so long work can stop early; none by default.
 * @returns whatever `run` returns (the procedure's result).
 * @throws the procedure's error (a TRPCError wrapping an AppError or ZodError), rendered by app.onError.
 * @example return c.json(await call(c, (api) => api.problems.list()));
 */
export async function call<T>(
  c: HonoContext<AppEnv>,
  run: (api: AppCaller, ctx: Context) => Promise<T>,
  opts: { signal?: AbortSignal } = {},
): Promise<T> {
  const resHeaders = new Headers();
  const ctx = await createContext(c.get("services"), c, resHeaders);
  try {
    return await run(createCaller(ctx, { signal: opts.signal }), ctx);
  } finally {
    resHeaders.forEach((value, name) => {
      if (name.toLowerCase() !== "set-cookie") c.header(name, value);
    });
    for (const cookie of resHeaders.getSetCookie()) c.header("Set-Cookie", cookie, { append: true });
  }
}

/**
 * The request's JSON body as an object. An empty body counts as `{}` (so zod
 * names the first missing field).
 * @throws AppError BAD_INPUT (field `body`) for malformed JSON or a non-object.
 */
export async function jsonBody(c: HonoContext): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("BAD_INPUT", { field: "body", message: "body: Malformed JSON" });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("BAD_INPUT", { field: "body", message: "body: Must be a JSON object" });
  }
  return value as Record<string, unknown>;
}

/** The JSON error body every /api route answers with. */
export interface ErrorBody {
  error: string;
  message: string;
  code: string;
  field?: string;
  [detail: string]: unknown;
}

function bodyOf(kind: string, message: string, field?: string, details?: Record<string, unknown>): ErrorBody {
  return { ...details, error: message, message, code: kind, ...(field ? { field } : {}) };
}

/** Unwraps the AppError or ZodError a TRPCError carries, if any. */
function rootCause(err: unknown): unknown {
  if (err instanceof TRPCError && (err.cause instanceof AppError || err.cause instanceof ZodError)) return err.cause;
  return err;
}

/**
 * Renders any error as the documented JSON response (see module comment).
 * @param log where unexpected (500) errors are reported.
 */
export function errorResponse(err: unknown, log?: Logger, locale: AnyLocaleTag = "en"): Response {
  const cause = rootCause(err);
  if (cause instanceof AppError) {
    const headers = new Headers({ "content-type": "application/json" });
    if (cause.retryAfterSeconds !== undefined) headers.set("Retry-After", String(Math.ceil(cause.retryAfterSeconds)));
    if (cause.status >= 500) log?.error(`${cause.kind}: ${cause.message}`, cause.details);
    return new Response(JSON.stringify(bodyOf(cause.kind, localizedErrorMessage(cause.kind, cause.message, locale), cause.field, cause.details)), {
      status: cause.status,
      headers,
    });
  }
  if (cause instanceof ZodError) {
    const z = describeZodError(cause, locale);
    return Response.json(bodyOf("BAD_INPUT", z.message, z.field), { status: 400 });
  }
  if (cause instanceof HTTPException) {
    const status = cause.status;
    const kind =
      status === 413 ? "PAYLOAD_TOO_LARGE" : status === 404 ? "NOT_FOUND" : status < 500 ? "BAD_INPUT" : "INTERNAL";
    const message = status === 413 ? localizedErrorMessage("PAYLOAD_TOO_LARGE", ERRORS.PAYLOAD_TOO_LARGE.message, locale) : cause.message || "Request failed";
    return Response.json(bodyOf(kind, message), { status });
  }
  if (cause instanceof TRPCError && cause.code !== "INTERNAL_SERVER_ERROR") {
    return Response.json(bodyOf(cause.code, cause.message), { status: getHTTPStatusCodeFromError(cause) });
  }
  const real = cause instanceof TRPCError && cause.cause ? cause.cause : cause;
  log?.error("unhandled error", { error: real instanceof Error ? (real.stack ?? real.message) : String(real) });
  return Response.json(bodyOf("INTERNAL", localizedErrorMessage("INTERNAL", ERRORS.INTERNAL.message, locale)), { status: 500 });
}
