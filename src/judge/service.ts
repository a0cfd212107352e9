/**
 * The judge's runtime in this process: the queue and its doorbell, the
 * compile cache, the in-process consumer's start and stop, and Run with its
 * per-user limits (RUN_RATE_PER_MINUTE, RUNS_IN_FLIGHT_PER_USER; the Run
 * itself is ./run.ts). Submissions are created and followed in
 * src/submissions (create.ts, watch.ts) with `submissions`, the deps this
 * service builds (SUBMIT_RATE_PER_MINUTE is spent there).
 */
import type { Database } from "../../db/index.ts";
import type { SandboxBackend } from "../../isolate/types.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { RateLimiter } from "../lib/rate-limit.ts";
import type { Logger } from "../log.ts";
import { CompileCache, compileCacheSettings } from "./compile-cache.ts";
import { JudgeConsumer } from "./consumer.ts";
import { JudgeEvents } from "./events.ts";
import { offeredLanguages, requireOffered } from "./languages.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import { recomputeActiveAssignments } from "../courses/scores.ts";
import { callerOf, type SubmissionCaller, type SubmissionDeps } from "../submissions/create.ts";
import { runCustomInput, type RunInput, type RunResponse } from "./run.ts";
import { JudgeQueue, newOwnerId } from "../submissions/queue.ts";

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
  /** The languages offered; default `offeredLanguages(config)` (LANGUAGES and what is installed here). */
  languages?: readonly LanguageId[];
}

/** A caller: a signed-in user (id and site role), or a bare user id (scripts and tests: a plain user). */
export type JudgeCaller = SubmissionCaller;

export class JudgeService {
  readonly events = new JudgeEvents();
  readonly queue: JudgeQueue;
  private consumer: JudgeConsumer | null = null;
  private readonly runLimiter: RateLimiter;
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
    this.queue = new JudgeQueue(opts.db, { owner: opts.owner ?? newOwnerId(), leaseMs: opts.config.JUDGE_LEASE_SECONDS * 1000, jobsPerUser: opts.config.JUDGE_JOBS_PER_USER });
    this.runLimiter = new RateLimiter({ limit: opts.config.RUN_RATE_PER_MINUTE, windowMs: 60_000 });
    this.languages = opts.languages ?? offeredLanguages(opts.config).ids;
    this.submissions = {
      db: opts.db,
      languages: this.languages,
      events: this.events,
      now: () => this.now(),
      submitLimiter: new RateLimiter({ limit: opts.config.SUBMIT_RATE_PER_MINUTE, windowMs: 60_000 }),
      submitRatePerMinute: opts.config.SUBMIT_RATE_PER_MINUTE,
      requireVerifiedEmail: opts.config.REQUIRE_VERIFIED_EMAIL_TO_SUBMIT,
      ...(opts.config.JUDGE_IN_PROCESS ? { requireJudge: () => void this.requireBackend() } : {}),
    };
  }

  /**
   * Opens the compile cache (COMPILE_CACHE_MIB under DATA_DIR) and builds the service.
   * Call `start()` to consume the queue in this process.
   */
  static async create(opts: JudgeServiceOptions): Promise<JudgeService> {
    const settings = compileCacheSettings(opts.config);
    const cache = await CompileCache.open(opts.cacheDir ?? settings.dir, settings.maxBytes);
    return new JudgeService(opts, cache);
  }

  /** The languages this server offers (src/judge/languages.ts), in display order. */
  readonly languages: readonly LanguageId[];

  /** The service's clock, ms since the epoch. */
  now(): number {
    return (this.opts.now ?? Date.now)();
  }

  get backend(): SandboxBackend | null {
    return this.opts.sandbox.backend;
  }

  /**
   * What creating and following submissions needs (src/submissions/create.ts, watch.ts): this service's
   * database, doorbell, clock and per-user submission budget; refuses when this process should judge but has
   * no sandbox.
   */
  readonly submissions: SubmissionDeps;

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
      budgetCeilingMs: this.config.JUDGE_SUBMISSION_BUDGET_SECONDS * 1000,
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
   * @throws SANDBOX_UNAVAILABLE (503) without a sandbox; LANGUAGE_UNAVAILABLE (400) for a language not
   *   offered here; RATE_LIMITED (429)
   *   past RUN_RATE_PER_MINUTE or with RUNS_IN_FLIGHT_PER_USER runs already in
   *   flight; PROBLEM_NOT_FOUND (404) for an unknown `problemId`;
   *   COMPILATION_ERROR (400) with `details.compileOutput` on a compile error.
   */
  async run(caller: JudgeCaller, input: RunInput): Promise<RunResponse> {
    const viewer = callerOf(caller);
    const userId = viewer.id;
    const backend = this.requireBackend();
    requireOffered(this.languages, input.language);
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
      return await runCustomInput({ cache: this.cache, log: this.log, db: this.db, backend, now: () => this.now(), languages: this.languages }, viewer, input);
    } finally {
      const n = (this.runsInFlight.get(userId) ?? 1) - 1;
      if (n <= 0) this.runsInFlight.delete(userId);
      else this.runsInFlight.set(userId, n);
    }
  }
}
