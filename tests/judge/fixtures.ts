/**
 * Judge test helpers: rows inserted straight into a real test database, a
 * config for judge tests (own box-id range and box root, silent log), the
 * shared DATA_DIR that holds the precompiled header between runs, and a fake
 * sandbox backend of queued results — for testing the pipeline's logic only
 * (verdict order, first-failure stop, lease loss, IE handling); verdicts from
 * real programs are tested through the real sandbox.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../../db/index.ts";
import { problems, testCases, users } from "../../db/schema.ts";
import { ensurePch } from "../../isolate/pch.ts";
import type { Box, RunRequest, RunResult, SandboxBackend } from "../../isolate/types.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { createLogger, type Logger } from "../../src/log.ts";
import { problemRow } from "../fixtures/problem.ts";
import type { ValidatorSpec } from "../../src/problems/validator-spec.ts";
import type { ScoringSpec } from "../../src/problems/scoring-spec.ts";

/**
 * First box id of judge tests (disjoint from the dev server's 0.. and other suites). Offsets in use:
 * golden 0, run-once 10, crash 20-51 (4 per process; it runs beside the main run, so no other file may use them),
 * import 70, roundtrip 74, verify 78, rejudge 86, validator 88, api 90; scripts/bench-judge.ts uses 3580. Pools of 2.
 */
export const JUDGE_TEST_BOX_ID_START = 3500;

/** DATA_DIR shared by judge tests for the precompiled header (built once, reused). */
export const SHARED_DATA_DIR = join(tmpdir(), "oj-judge-tests-data");

/** Builds the precompiled header into SHARED_DATA_DIR if missing or stale. */
export async function preparePch(): Promise<void> {
  await ensurePch(SHARED_DATA_DIR);
}

/** A silent logger for services under test. */
export const silentLog = createLogger("silent");

/** One line a `captureLog` logger received. */
export interface LoggedLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  data?: Record<string, unknown>;
}

/**
 * A logger that keeps every line (all levels) instead of printing, so a test
 * can assert what was logged — and what never was (hidden test data).
 * `text()` is everything as one string (messages and JSON data).
 */
export function captureLog(): Logger & { lines: LoggedLine[]; text(): string } {
  const lines: LoggedLine[] = [];
  const at = (level: LoggedLine["level"]) => (message: string, data?: Record<string, unknown>) => {
    lines.push(data ? { level, message, data } : { level, message });
  };
  return {
    lines,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    text: () => lines.map((l) => `${l.level} ${l.message} ${l.data ? JSON.stringify(l.data) : ""}`).join("\n"),
  };
}

/**
 * Wraps a backend so every `box.run` (one sandbox start) is counted; boxes
 * behave exactly as the wrapped backend's.
 */
export function countingBackend(inner: SandboxBackend): SandboxBackend & { starts: number } {
  const wrapped = new Map<Box, Box>();
  const counter = {
    name: inner.name,
    description: inner.description,
    starts: 0,
    async acquire(): Promise<Box> {
      return wrap(await inner.acquire());
    },
    async acquireMany(count: number): Promise<Box[]> {
      return (await inner.acquireMany(count)).map(wrap);
    },
    async release(box: Box): Promise<void> {
      const real = wrapped.get(box);
      wrapped.delete(box);
      await inner.release(real ?? box);
    },
    close: () => inner.close(),
  };
  function wrap(box: Box): Box {
      const outer: Box = {
        id: box.id,
        writeFile: (name, content, mode) => box.writeFile(name, content, mode),
        readFile: (name, maxBytes) => box.readFile(name, maxBytes),
        run: (req) => {
          counter.starts++;
          return box.run(req);
        },
        ...(box.listFiles ? { listFiles: () => box.listFiles!() } : {}),
      };
      wrapped.set(outer, box);
      return outer;
  }
  return counter;
}

/**
 * Config for judge tests. `boxIdOffset` separates processes of one test (web and workers).
 * @throws Error when the box range would reach below 1000 (a default server on this machine uses 0-99).
 */
export function judgeConfig(dbUrl: string, env: Record<string, string> = {}, boxIdOffset = 0): Config {
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: dbUrl,
    DATA_DIR: SHARED_DATA_DIR,
    SANDBOX: "bwrap",
    SANDBOX_ROOT: mkdtempSync(join(tmpdir(), "oj-judge-boxes-")),
    ISOLATE_BOX_ID_START: String(JUDGE_TEST_BOX_ID_START + boxIdOffset),
    ISOLATE_BOX_ID_COUNT: "20",
    SANDBOX_POOL_SIZE: "2",
    // Suites that judge many cases of one test user (the golden suite) keep both boxes busy; the
    // per-user cap itself is tested where it is the subject (tests/judge/budget.test.ts, queue.test.ts).
    JUDGE_JOBS_PER_USER: "1000",
    ...env,
  });
  if (config.ISOLATE_BOX_ID_START < 1000) {
    throw new Error(`judgeConfig: ISOLATE_BOX_ID_START=${config.ISOLATE_BOX_ID_START}: tests take box ids from 1000 up, never a default server's 0-99`);
  }
  return config;
}

let userCounter = 0;

/** Inserts a user row; returns its id. */
export async function insertUser(db: Database, name = "user"): Promise<string> {
  userCounter++;
  const [row] = await db
    .insert(users)
    .values({
      firstName: name,
      lastName: "Test",
      email: `${name}${userCounter}@example.com`,
      emailNormalized: `${name}${userCounter}@example.com`,
      passwordHash: null,
    })
    .returning({ id: users.id });
  return row!.id;
}

export interface ProblemSpec {
  sampleInput?: string;
  sampleOutput?: string;
  tests?: { input: string; output: string }[];
  timeLimitMs?: number;
  memoryLimitKib?: number;
  checker?: "lines" | "tokens" | "float" | "custom";
  /** The custom checker's validator (its files; the main one is found as the problem form finds it). */
  validator?: ValidatorSpec;
  interactive?: boolean;
  validationPasses?: number;
  scoring?: ScoringSpec;
}

/** Inserts a problem with its hidden tests; returns its id. */
export async function insertProblem(db: Database, userId: string, spec: ProblemSpec = {}): Promise<string> {
  const [row] = await db
    .insert(problems)
    .values(
      problemRow(userId, {
        title: "Test problem",
        sampleInput: spec.sampleInput ?? "",
        sampleOutput: spec.sampleOutput ?? "",
        ...(spec.timeLimitMs ? { timeLimitMs: spec.timeLimitMs } : {}),
        ...(spec.memoryLimitKib ? { memoryLimitKib: spec.memoryLimitKib } : {}),
        ...(spec.checker ? { checker: spec.checker } : {}),
        ...(spec.validator ? { validator: spec.validator } : {}),
        ...(spec.interactive ? { interactive: true } : {}),
        ...(spec.validationPasses ? { validationPasses: spec.validationPasses } : {}),
        ...(spec.scoring ? { scoring: spec.scoring } : {}),
      }),
    )
    .returning({ id: problems.id });
  const tests = spec.tests ?? [];
  if (tests.length) {
    await db.insert(testCases).values(tests.map((t, i) => ({ problemId: row!.id, ordinal: i, input: t.input, expectedOutput: t.output })));
  }
  return row!.id;
}

/** One scripted answer of the fake backend to the next `box.run`. */
export interface FakeStep {
  result: Partial<RunResult>;
  /** Files the "program" leaves in the box (e.g. `prog` after a compile). */
  creates?: string[];
  /** Runs before the answer (e.g. to steal the lease mid-judging). */
  before?: (req: RunRequest) => Promise<void> | void;
}

/** A sandbox backend of queued results, for pipeline-logic tests only. */
export class FakeBackend implements SandboxBackend {
  readonly name = "unsafe-local" as const;
  readonly requests: RunRequest[] = [];
  readonly steps: FakeStep[] = [];
  acquired = 0;
  released = 0;

  /** Queues answers, in order. */
  push(...steps: FakeStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  async acquire(): Promise<Box> {
    this.acquired++;
    const files = new Map<string, Uint8Array>();
    const backend = this;
    return {
      id: 1,
      async writeFile(name, content) {
        files.set(name, typeof content === "string" ? new TextEncoder().encode(content) : content);
      },
      async readFile(name) {
        return files.get(name) ?? null;
      },
      async listFiles() {
        return [...files.keys()];
      },
      async run(req) {
        backend.requests.push(req);
        const step = backend.steps.shift();
        if (!step) throw new Error(`fake backend: no scripted result for ${req.argv.join(" ")}`);
        await step.before?.(req);
        for (const f of step.creates ?? []) files.set(f, new TextEncoder().encode(`artifact ${f}`));
        return okResult(step.result);
      },
    };
  }

  async acquireMany(count: number): Promise<Box[]> {
    const boxes: Box[] = [];
    for (let i = 0; i < count; i++) boxes.push(await this.acquire());
    return boxes;
  }

  async release(): Promise<void> {
    this.released++;
  }

  async close(): Promise<void> {}
}

/** A RunResult with defaults of a clean, quick run. */
export function okResult(over: Partial<RunResult> = {}): RunResult {
  return {
    status: "OK",
    exitCode: 0,
    signal: null,
    cpuTimeMs: 5,
    wallTimeMs: 8,
    memoryKib: 2048,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    ...over,
  };
}

/** Polls `fn` until it returns a truthy value or `timeoutMs` passes. */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await Bun.sleep(everyMs);
  }
}
