/**
 * The judge service: what the judge router (and through it the REST routes)
 * calls. Run (compile and run once on custom input), submit (store and queue a
 * submission), read one submission, wait for its verdict, and stream its
 * progress; plus the in-process queue consumer's start and stop.
 *
 * Per-user limits live here (per process): RUN_RATE_PER_MINUTE and
 * RUNS_IN_FLIGHT_PER_USER for runs, SUBMIT_RATE_PER_MINUTE for submissions.
 */
import { join } from "node:path";
import { and, count, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { submissions } from "../../db/schema.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { RateLimiter } from "../lib/rate-limit.ts";
import type { Logger } from "../log.ts";
import { CompileCache } from "./compile-cache.ts";
import { JudgeConsumer } from "./consumer.ts";
import { JudgeEvents } from "./events.ts";
import { requireVisibleProblem, submissionTarget } from "../courses/course-problems.ts";
import { requireLiveProblem } from "../problems/store.ts";
import { recomputeActiveAssignments } from "../courses/scores.ts";
import { viewSubmission } from "../submissions/view.ts";
import type { Caller } from "../accounts/user.ts";
import type { SubmissionShape, SubmissionTestShape } from "../submissions/shape.ts";
import { runCustomInput, type RunInput, type RunResponse } from "./run.ts";
import { JudgeQueue, newOwnerId } from "./queue.ts";

/** How often a waiter or subscription re-reads a submission without a doorbell (another process judging it), ms. */
export const PROGRESS_POLL_MS = 500;

export interface SubmitInput {
  problemId: string;
  code: string;
  language: LanguageId;
  /** Submit inside this assignment (its window and policies apply). */
  assignmentId?: string;
}

/** Live progress of one submission (what `judge.progress` streams). Never carries hidden data. */
export type JudgeProgress =
  | { status: "queued"; submissionId: string; /** Submissions queued before this one (all users). */ ahead: number }
  | { status: "compiling"; submissionId: string }
  | {
      status: "running";
      submissionId: string;
      /** 1-based number of the test being run now, of `of`; null when the feedback policy shows only the verdict. */
      test: number | null;
      of: number | null;
      /** Finished tests so far. */
      tests: SubmissionTestShape[];
    }
  | { status: "done"; submissionId: string; submission: SubmissionShape };

export interface JudgeServiceOptions {
  config: Config;
  db: Database;
  log: Logger;
  /** The sandbox chosen at start; null backend: runs answer SANDBOX_UNAVAILABLE with `reason`. */
  sandbox: { backend: SandboxBackend | null; reason?: string };
  /** Compile cache directory; default `<DATA_DIR>/compile-cache`. */
  cacheDir?: string;
  /** Consumer identity; default `newOwnerId()`. */
  owner?: string;
  /** Idle consumer poll interval, ms (default 1000). */
  pollMs?: number;
  /** The clock submission times and deadlines are read from, ms (default `Date.now`; tests set it). */
  now?: () => number;
}

/** A caller: a signed-in user (id and site role), or a bare user id (scripts and tests: a plain user). */
export type JudgeCaller = Caller | string;
const callerOf = (c: JudgeCaller): Caller => (typeof c === "string" ? { id: c, siteRole: "user" } : c);

export class JudgeService {
  readonly events = new JudgeEvents();
  readonly queue: JudgeQueue;
  private consumer: JudgeConsumer | null = null;
  private readonly runLimiter: RateLimiter;
  private readonly submitLimiter: RateLimiter;
  private readonly runsInFlight = new Map<string, number>();
  private readonly db: Database;
  private readonly config: Config;
  private readonly log: Logger;

  private constructor(
    private readonly opts: JudgeServiceOptions,
    readonly cache: CompileCache,
  ) {
    this.db = opts.db;
    this.config = opts.config;
    this.log = opts.log;
    this.queue = new JudgeQueue(opts.db, { owner: opts.owner ?? newOwnerId(), leaseMs: opts.config.JUDGE_LEASE_SECONDS * 1000 });
    this.runLimiter = new RateLimiter({ limit: opts.config.RUN_RATE_PER_MINUTE, windowMs: 60_000 });
    this.submitLimiter = new RateLimiter({ limit: opts.config.SUBMIT_RATE_PER_MINUTE, windowMs: 60_000 });
  }

  /**
   * Opens the compile cache (COMPILE_CACHE_MIB under DATA_DIR) and builds the service.
   * Call `start()` to consume the queue in this process.
   */
  static async create(opts: JudgeServiceOptions): Promise<JudgeService> {
    const dir = opts.cacheDir ?? join(opts.config.DATA_DIR, "compile-cache");
    const cache = await CompileCache.open(dir, opts.config.COMPILE_CACHE_MIB * 1024 * 1024);
    return new JudgeService(opts, cache);
  }

  /** The service's clock, ms since the epoch. */
  now(): number {
    return (this.opts.now ?? Date.now)();
  }

  get backend(): SandboxBackend | null {
    return this.opts.sandbox.backend;
  }

  /** The queue consumer, when started. */
  get activeConsumer(): JudgeConsumer | null {
    return this.consumer;
  }

  /**
   * Starts consuming the queue in this process with SANDBOX_POOL_SIZE slots
   * (re-queuing jobs abandoned by a crashed process first). Does nothing
   * without a sandbox.
   */
  async start(): Promise<void> {
    const backend = this.opts.sandbox.backend;
    if (!backend || this.consumer) return;
    this.consumer = new JudgeConsumer({
      db: this.db,
      backend,
      cache: this.cache,
      queue: this.queue,
      events: this.events,
      log: this.log,
      concurrency: this.config.SANDBOX_POOL_SIZE,
      pollMs: this.opts.pollMs,
    });
    await this.consumer.start();
    this.log.info("judge: consuming the queue", { owner: this.queue.owner, concurrency: this.config.SANDBOX_POOL_SIZE });
    // A process that died between a verdict and its gradebook update leaves no stale score.
    const reconciled = await recomputeActiveAssignments(this.db, this.now());
    if (reconciled) this.log.info(`judge: gradebooks of ${reconciled} active assignments recomputed`);
  }

  /** Stops the consumer (jobs in progress go back to the queue) and waits for compile-cache writes. */
  async stop(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = null;
    await this.cache.settled();
  }

  private requireBackend(): SandboxBackend {
    const backend = this.opts.sandbox.backend;
    if (!backend) {
      throw new AppError("SANDBOX_UNAVAILABLE", {
        message: `Code execution is unavailable: ${this.opts.sandbox.reason ?? "no sandbox"}`,
      });
    }
    return backend;
  }

  /**
   * Compiles (through the compile cache) and runs `code` once on `input`.
   * @throws SANDBOX_UNAVAILABLE (503) without a sandbox; RATE_LIMITED (429)
   *   past RUN_RATE_PER_MINUTE or with RUNS_IN_FLIGHT_PER_USER runs already in
   *   flight; PROBLEM_NOT_FOUND (404) for an unknown `problemId`;
   *   COMPILATION_ERROR (400) with `details.compileOutput` on a compile error.
   */
  async run(caller: JudgeCaller, input: RunInput): Promise<RunResponse> {
    const viewer = callerOf(caller);
    const userId = viewer.id;
    const backend = this.requireBackend();
    const inFlight = this.runsInFlight.get(userId) ?? 0;
    if (inFlight >= this.config.RUNS_IN_FLIGHT_PER_USER) {
      throw new AppError("RATE_LIMITED", {
        message: `At most ${this.config.RUNS_IN_FLIGHT_PER_USER} runs at a time. Wait for the running ones to finish.`,
        retryAfterSeconds: 1,
      });
    }
    const rate = this.runLimiter.hit(userId);
    if (!rate.ok) {
      throw new AppError("RATE_LIMITED", {
        message: `At most ${this.config.RUN_RATE_PER_MINUTE} runs per minute. Try again in ${rate.retryAfterSeconds} s.`,
        retryAfterSeconds: rate.retryAfterSeconds,
      });
    }
    // Taken before the first await: concurrent runs of one user (a tRPC batch, parallel requests)
    // must each see the others, or all of them pass the check above together.
    this.runsInFlight.set(userId, inFlight + 1);
    try {
      return await runCustomInput({ cache: this.cache, log: this.log, db: this.db, backend, now: () => this.now() }, viewer, input);
    } finally {
      const n = (this.runsInFlight.get(userId) ?? 1) - 1;
      if (n <= 0) this.runsInFlight.delete(userId);
      else this.runsInFlight.set(userId, n);
    }
  }

  /**
   * Stores a submission and queues it for judging.
   * @returns the new submission's id.
   * @throws SANDBOX_UNAVAILABLE (503) when this process judges (JUDGE_IN_PROCESS) but has no sandbox;
   *   RATE_LIMITED (429) past SUBMIT_RATE_PER_MINUTE; PROBLEM_NOT_FOUND (404).
   */
  async submit(caller: JudgeCaller, input: SubmitInput): Promise<{ id: string }> {
    const viewer = callerOf(caller);
    if (this.config.JUDGE_IN_PROCESS) this.requireBackend();
    const now = this.now();
    // Inside a named assignment its window is checked first (a student learns when it opens, with a 403);
    // otherwise the problem must be one the caller can see.
    const problem =
      input.assignmentId !== undefined
        ? await requireLiveProblem(this.db, input.problemId, "problemId")
        : await requireVisibleProblem(this.db, viewer, input.problemId, now, "problemId");
    const target = await submissionTarget(this.db, viewer, problem, input.assignmentId, now);
    const rate = this.submitLimiter.hit(viewer.id);
    if (!rate.ok) {
      throw new AppError("RATE_LIMITED", {
        message: `At most ${this.config.SUBMIT_RATE_PER_MINUTE} submissions per minute. Try again in ${rate.retryAfterSeconds} s.`,
        retryAfterSeconds: rate.retryAfterSeconds,
      });
    }
    const [row] = await this.db
      .insert(submissions)
      .values({
        userId: viewer.id,
        problemId: input.problemId,
        language: input.language,
        code: input.code,
        status: "queued",
        assignmentId: target.assignmentId,
        runAllTests: target.runAllTests,
        createdAt: new Date(now),
      })
      .returning({ id: submissions.id });
    this.events.queued();
    return { id: row!.id };
  }

  /**
   * One submission as the caller may see it (their own, or as course staff),
   * cut to the feedback policy in force for them.
   * @throws SUBMISSION_NOT_FOUND (404) when absent or not theirs to read.
   */
  async byId(caller: JudgeCaller, id: string): Promise<SubmissionShape> {
    return (await viewSubmission(this.db, callerOf(caller), id, this.now())).submission;
  }

  /**
   * Waits until the submission is judged (or `timeoutMs` passes, or `signal` aborts).
   * @returns the submission as it is then (status `done` unless the wait ended early).
   * @throws SUBMISSION_NOT_FOUND (404) when absent or not the caller's to read.
   */
  async wait(caller: JudgeCaller, id: string, timeoutMs: number, signal?: AbortSignal): Promise<SubmissionShape> {
    const deadline = Date.now() + timeoutMs;
    const first = await this.byId(caller, id);
    if (first.status === "done") return first;
    // Poll one small row (the doorbell wakes us at once for judging in this process).
    while (Date.now() < deadline && !signal?.aborted) {
      await this.events.waitChanged(id, Math.min(PROGRESS_POLL_MS, Math.max(1, deadline - Date.now())), signal);
      if ((await this.fingerprint(id))?.status === "done") break;
    }
    return this.byId(caller, id);
  }

  /**
   * Streams the submission's progress: one event per change, ending with
   * `done`. Re-checks on every doorbell and every PROGRESS_POLL_MS (a cheap
   * fingerprint query; the full read only when it changed), so it follows
   * judging done by another process too. Every event is cut to the caller's
   * feedback policy.
   * @throws SUBMISSION_NOT_FOUND (404) when absent or not the caller's to read.
   */
  async *progress(caller: JudgeCaller, id: string, signal?: AbortSignal): AsyncGenerator<JudgeProgress, void, unknown> {
    const viewer = callerOf(caller);
    await this.byId(viewer, id);
    let lastPrint = "";
    let last = "";
    while (!signal?.aborted) {
      const fp = await this.fingerprint(id);
      if (!fp) throw new AppError("SUBMISSION_NOT_FOUND");
      const print = JSON.stringify(fp);
      if (print !== lastPrint) {
        lastPrint = print;
        const event = await this.progressEvent(viewer, id);
        const key = JSON.stringify(event);
        if (key !== last) {
          last = key;
          yield event;
        }
        if (event.status === "done") return;
      }
      await this.events.waitChanged(id, PROGRESS_POLL_MS, signal);
    }
  }

  /** What changes while a submission is judged: status, tests finished, and the queue ahead of it while queued. */
  private async fingerprint(id: string): Promise<{ status: string; total: number; done: number; ahead: number } | null> {
    const rows = await this.db.all<{ status: string; total: number; done: number; ahead: number }>(sql`
      SELECT s.status AS status, s.tests_total AS total,
             (SELECT count(*) FROM submission_tests t WHERE t.submission_id = s.id) AS done,
             CASE WHEN s.status = 'queued'
                  THEN (SELECT count(*) FROM submissions q WHERE q.status = 'queued' AND q.created_at < s.created_at)
                  ELSE 0 END AS ahead
        FROM submissions s WHERE s.id = ${id}`);
    return rows[0] ?? null;
  }

  private async progressEvent(viewer: Caller, id: string): Promise<JudgeProgress> {
    const s = await this.byId(viewer, id);
    switch (s.status) {
      case "queued": {
        const [ahead] = await this.db
          .select({ n: count() })
          .from(submissions)
          .where(and(eq(submissions.status, "queued"), lt(submissions.createdAt, new Date(s.createdAt))));
        return { status: "queued", submissionId: id, ahead: ahead?.n ?? 0 };
      }
      case "compiling":
        return { status: "compiling", submissionId: id };
      case "running":
        return {
          status: "running",
          submissionId: id,
          test: s.testsTotal === null ? null : Math.min(s.tests.length + 1, s.testsTotal),
          of: s.testsTotal,
          tests: s.tests,
        };
      case "done":
        return { status: "done", submissionId: id, submission: s };
    }
  }
}

