/**
 * The judge API under /api/judge/ (issue 11): for judge hosts only. Every call
 * carries `Authorization: Bearer <host token>` (bun run judge-hosts -- add);
 * no user session is accepted here and no user route accepts a host token.
 * A door only: zod checks the bodies, src/judge-hosts/jobs.ts does the work.
 *
 *   POST /claim {waitMs?, languages?}      → 200 job, or 204 after waiting (≤ 20 s); only jobs in `languages` when given;
 *                                            429 while the host holds its capacity (judge-hosts add --capacity)
 *   POST /jobs/:id/renew {claimToken}      → 200, or 409 when the claim no longer holds the job
 *   POST /jobs/:id/progress {claimToken, clear?, update?, test?, failure?} → 200 / 409
 *   POST /jobs/:id/finish {claimToken, values} → 200 (also for a retry of the same finish) / 409
 *   POST /jobs/:id/release {claimToken}    → 200 (the job goes back to the queue)
 *   GET  /testdata/:sha256?problem=ID      → the file (only of a problem of a job the host holds), or 404
 * A report that does not fit the job (counts past its tests, AC without every test passed) answers 400.
 */
import { Hono } from "hono";
import { z } from "zod";
import { LANGUAGE_IDS } from "../../isolate/languages/index.ts";
import type { AppEnv } from "./call.ts";
import { authenticateHost } from "../judge-hosts/hosts.ts";
import { claimForHost, finishForHost, progressForHost, releaseForHost, renewForHost, testData, type JudgeApiDeps } from "../judge-hosts/jobs.ts";
import { VERDICTS } from "../verdicts.ts";
import { AppError } from "../errors.ts";

/** Longest a claim waits for a job, ms. */
export const CLAIM_WAIT_MAX_MS = 20_000;

type HostEnv = AppEnv & { Variables: AppEnv["Variables"] & { host: string; capacity: number } };

const claimToken = z.string().min(1).max(100);
const counts = z.number().int().min(0).max(1_000_000);
const rowUpdate = z
  .object({
    status: z.enum(["compiling", "running"]).optional(),
    testsTotal: counts.optional(),
    testsPassed: counts.optional(),
    expectedOutput: z.string().max(16 * 1024 * 1024).optional(),
    output: z.string().max(16 * 1024 * 1024).optional(),
    verdict: z.null().optional(),
    compileOutput: z.null().optional(),
    errorDetail: z.null().optional(),
  })
  .strict();
const finishValues = z
  .object({
    verdict: z.enum(VERDICTS),
    isPassed: z.boolean(),
    testsPassed: counts.optional(),
    hiddenPassed: counts.optional(),
    hiddenTotal: counts.optional(),
    timeMs: counts.optional(),
    memoryKib: counts.optional(),
    errorDetail: z.string().max(10_000).nullable().optional(),
    compileOutput: z.string().max(1024 * 1024).nullable().optional(),
    // A scoring problem's result (src/judge/groups.ts), checked against the problem's groups by finishForHost.
    score: z.number().min(0).max(1_000_000).nullable().optional(),
    maxScore: z.number().min(0).max(1_000_000).nullable().optional(),
    groupResults: z
      .array(z.object({ name: z.string().max(40), score: z.number().min(0).max(1_000_000), maxScore: z.number().min(0).max(1_000_000), verdict: z.enum(VERDICTS).nullable(), testsRun: counts }).strict())
      .max(50)
      .nullable()
      .optional(),
  })
  .strict();
const testRecord = z.object({ index: counts, isSample: z.boolean(), verdict: z.enum(VERDICTS), timeMs: counts, memoryKib: counts });

/** 400 naming the field, as every route answers bad input. */
function bad(c: { json: (b: unknown, s: 400) => Response }, error: z.ZodError) {
  const issue = error.issues[0]!;
  const field = issue.path.join(".") || "body";
  return c.json({ error: `${field}: ${issue.message}`, code: "BAD_INPUT", field }, 400);
}

const claimBody = z
  .object({
    waitMs: z.number().int().min(0).max(CLAIM_WAIT_MAX_MS).optional(),
    languages: z.array(z.enum(LANGUAGE_IDS, { error: `languages: each one of ${LANGUAGE_IDS.join(", ")}` })).max(LANGUAGE_IDS.length).optional(),
  })
  .passthrough();

export function judgeApiRoutes(deps: (services: AppEnv["Variables"]["services"]) => JudgeApiDeps | null) {
  const app = new Hono<HostEnv>();
  app.use("*", async (c, next) => {
    const auth = c.req.header("authorization") ?? "";
    const token = auth.startsWith("Bearer ") ? auth.slice(7).trim() : "";
    const host = token ? await authenticateHost(c.get("services").db, token, c.req.header("x-judge-version") ?? null) : null;
    if (!host) return c.json({ error: "A judge host token is required (bun run judge-hosts -- add NAME)", code: "UNAUTHORIZED" }, 401);
    c.set("host", host.name);
    c.set("capacity", host.capacity);
    await next();
  });
  const withDeps = (c: { get: (k: "services") => AppEnv["Variables"]["services"] }) => deps(c.get("services"));

  app.post("/claim", async (c) => {
    const d = withDeps(c);
    if (!d) return c.json({ error: "Judging is not available on this server", code: "SANDBOX_UNAVAILABLE" }, 503);
    const body = claimBody.safeParse(await c.req.json().catch(() => ({})));
    if (!body.success) return bad(c, body.error);
    const job = await claimForHost(d, c.get("host"), body.data.waitMs ?? CLAIM_WAIT_MAX_MS, c.req.raw.signal, body.data.languages, c.get("capacity"));
    if (job === "full") {
      return c.json({ error: `This host holds ${c.get("capacity")} jobs, its capacity (judge-hosts add NAME --capacity N): finish one first`, code: "RATE_LIMITED" }, 429, { "Retry-After": "2" });
    }
    return job ? c.json(job) : c.body(null, 204);
  });

  const jobRoute = <S extends z.ZodTypeAny>(path: string, schema: S, run: (d: JudgeApiDeps, host: string, id: string, body: z.infer<S>) => Promise<boolean>) =>
    app.post(`/jobs/:id/${path}`, async (c) => {
      const d = withDeps(c);
      if (!d) return c.json({ error: "Judging is not available on this server", code: "SANDBOX_UNAVAILABLE" }, 503);
      const body = schema.safeParse(await c.req.json().catch(() => null));
      if (!body.success) return bad(c, body.error);
      let ok: boolean;
      try {
        ok = await run(d, c.get("host"), c.req.param("id"), body.data);
      } catch (err) {
        if (err instanceof AppError && err.kind === "BAD_INPUT") return c.json({ error: err.message, code: "BAD_INPUT", field: err.field }, 400);
        throw err;
      }
      return ok ? c.json({ ok: true }) : c.json({ error: "This claim no longer holds the job: stop judging it", code: "CLAIM_LOST" }, 409);
    });
  jobRoute("renew", z.object({ claimToken }), (d, host, id, b) => renewForHost(d, host, id, b.claimToken));
  jobRoute(
    "progress",
    z.object({
      claimToken,
      clear: z.boolean().optional(),
      update: rowUpdate.optional(),
      test: testRecord.optional(),
      failure: z
        .object({
          test: z.object({ index: counts, input: z.string(), expected: z.string() }),
          result: z.object({ stdout: z.string(), stderr: z.string() }),
        })
        .optional(),
    }),
    (d, host, id, b) => progressForHost(d, host, id, b.claimToken, b),
  );
  jobRoute("finish", z.object({ claimToken, values: finishValues }), async (d, host, id, b) => (await finishForHost(d, host, id, b.claimToken, b.values)) === "accepted");
  jobRoute("release", z.object({ claimToken }), async (d, host, id, b) => {
    await releaseForHost(d, host, id, b.claimToken);
    return true;
  });

  app.get("/testdata/:sha256", async (c) => {
    const text = await testData(c.get("services").db, c.get("host"), c.req.param("sha256"), c.req.query("problem") ?? null);
    return text === null ? c.json({ error: "No such test data here (claim the job again)", code: "NOT_FOUND" }, 404) : c.text(text);
  });
  return app;
}
