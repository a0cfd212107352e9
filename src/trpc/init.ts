/**
 * tRPC set up once. Exports only `router`, `publicProcedure`,
 * `protectedProcedure`, `createCallerFactory` and `stream` (every subscription's events).
 *
 * Errors: procedures throw `AppError` (src/errors.ts); the formatter puts its
 * catalogue name, the offending field and any details into `error.data`, and a
 * zod input failure becomes BAD_INPUT naming the first bad field.
 */
import { localizedErrorMessage } from "../i18n/messages.ts";
import { issueMessage } from "../i18n/validation.ts";
import type { AnyLocaleTag } from "../i18n/locales.ts";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { requireAdmin } from "../accounts/admin.ts";
import { AppError } from "../errors.ts";
import type { SessionUser } from "../accounts/user.ts";
import type { Context } from "../context.ts";
import { examGuard, examRequestFrom, runInExamScope } from "../courses/exam/gate.ts";

export interface AppErrorData {
  kind: string;
  field?: string;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
}

/**
 * Turns a zod error into `{ field, message }` naming the first bad field, e.g.
 * `title: At most 200 characters`. The field path is the schema's, in every
 * language; the words after it are the reader's (src/i18n/validation.ts:
 * `title: Höchstens 200 Zeichen` for `de`; English exactly as the schema wrote it).
 */
export function describeZodError(err: ZodError, locale: AnyLocaleTag = "en"): { field: string; message: string } {
  const issue = err.issues[0];
  const field = issue && issue.path.length ? issue.path.map(String).join(".") : "body";
  return { field, message: `${field}: ${issue ? issueMessage(issue, locale) : "invalid"}` };
}

const t = initTRPC.context<Context>().create({
  // Subscriptions stream over SSE through the fetch adapter; a ping every 10 s
  // keeps proxies and Bun.serve's idle timeout (src/server.ts) from closing them.
  sse: { ping: { enabled: true, intervalMs: 10_000 }, client: { reconnectAfterInactivityMs: 30_000 } },
  errorFormatter({ shape, error, ctx }) {
    const cause = error.cause;
    let app: AppErrorData | undefined;
    let message = shape.message;
    if (cause instanceof AppError) {
      app = { kind: cause.kind, field: cause.field, details: cause.details, retryAfterSeconds: cause.retryAfterSeconds };
    } else if (cause instanceof ZodError) {
      const z = describeZodError(cause, ctx?.locale);
      app = { kind: "BAD_INPUT", field: z.field };
      message = z.message;
    } else if (error.code === "INTERNAL_SERVER_ERROR") {
      message = "Internal server error";
    }
    if (app && ctx) message = localizedErrorMessage(app.kind, message, ctx.locale);
    return { ...shape, message, data: { ...shape.data, stack: undefined, app } };
  },
});

/** Rethrows an AppError as a TRPCError carrying it as the cause, so its status and code survive. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.code, message: cause.message, cause });
  }
  return result;
});

/**
 * A subscription's events, with errors mapped as every procedure's: an
 * AppError thrown while streaming (a 404 after the first read, a 403) keeps
 * its status and code instead of becoming a logged 500. Every stream goes
 * through here.
 * @example .subscription(({ ctx, input, signal }) => stream(events(ctx, input, signal)))
 */
export async function* stream<T>(events: AsyncIterable<T>): AsyncGenerator<T, void, unknown> {
  try {
    yield* events;
  } catch (err) {
    throw err instanceof AppError ? new TRPCError({ code: err.code, message: err.message, cause: err }) : err;
  }
}

/**
 * Exam rules (src/courses/exam/gate.ts): every procedure runs inside the request's exam scope (so loading an
 * assignment or contest checks its access rules), after the lock-down guard of a student inside an exam window.
 */
const examScope = t.middleware(async ({ ctx, next, path, getRawInput }) => {
  const req = examRequestFrom(ctx, path);
  return runInExamScope(req, async () => {
    await examGuard(req, getRawInput);
    return next();
  });
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(appErrors).use(examScope);
/**
 * What a session that must first set up two-factor sign-in may still call (src/accounts/two-factor/policy.ts):
 * who it is, its language, its sessions, and the set-up itself.
 */
const TWO_FACTOR_SETUP_PATHS: ReadonlySet<string> = new Set([
  "auth.me",
  "auth.setLocale",
  "auth.passwordStatus",
  "auth.identities",
  "sessions.list",
  "sessions.end",
  "sessions.endOthers",
  "twoFactor.status",
  "twoFactor.start",
  "twoFactor.confirm",
]);

export const protectedProcedure = publicProcedure.use(({ ctx, next, path }) => {
  if (!ctx.user) throw new AppError("UNAUTHENTICATED");
  if (ctx.mustSetUpTwoFactor && !TWO_FACTOR_SETUP_PATHS.has(path)) throw new AppError("TWO_FACTOR_SETUP_REQUIRED");
  return next({ ctx: { ...ctx, user: ctx.user as SessionUser, sessionId: ctx.sessionId as string } });
});
/** Site admins only (src/accounts/admin.ts `requireAdmin`). @throws UNAUTHENTICATED (401), FORBIDDEN (403). */
export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  requireAdmin(ctx.user);
  return next();
});
