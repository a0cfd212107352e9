/**
 * Similarity reports are computed in the background, one at a time per
 * server, each in a worker of its own (./worker.ts): a report's row says
 * queued → running (with its progress) → done or failed. A report queued or
 * running when the process stopped is queued again at the next start
 * (`resumeSimilarityJobs`), so a crash loses no report.
 */
import { eq, inArray, or } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { similarityReports, submissions } from "../../db/schema.ts";
import { LANGUAGES } from "../../isolate/languages/index.ts";
import type { Logger } from "../log.ts";
import type { Program, Template } from "./engine.ts";
import { storeResult, type StoredInput } from "./result.ts";
import type { WorkerMessage, WorkerTask } from "./worker.ts";

/** Longest one analysis may run before it is stopped and the report failed, ms. */
export const ANALYSIS_TIMEOUT_MS = 10 * 60_000;
/** Progress is written to the report's row at most this often, ms. */
const PROGRESS_EVERY_MS = 300;

/** Where the worker's code is: beside this file, or inside the single binary (scripts/release.ts compiles it in). */
function workerEntry(): string {
  return import.meta.url.includes("$bunfs") ? "./src/similarity/worker.ts" : new URL("./worker.ts", import.meta.url).href;
}

/** The programs' code and the templates to ignore, for the worker. */
async function taskOf(db: Database, input: StoredInput): Promise<WorkerTask> {
  const ids = input.programs.map((p) => p.submissionId);
  const code = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.select({ id: submissions.id, code: submissions.code }).from(submissions).where(inArray(submissions.id, ids.slice(i, i + 500)));
    for (const r of rows) code.set(r.id, r.code);
  }
  const programs: Program[] = input.programs.filter((p) => code.has(p.submissionId)).map((p) => ({ id: p.submissionId, language: p.language, code: code.get(p.submissionId)!, past: p.past !== null, problemId: p.problemId }));
  return { programs, templates: templatesOf(input), options: input.engine };
}

/** What a report ignores: each compared language's boilerplate and the instructor's starter code. */
export function templatesOf(input: Pick<StoredInput, "programs" | "starterCode">): Template[] {
  const languages = [...new Set(input.programs.map((p) => p.language))];
  return [...languages.map((language) => ({ language, code: LANGUAGES[language].boilerplate })), ...input.starterCode];
}

function runWorker(task: WorkerTask, onProgress: (done: number) => void): Promise<WorkerMessage & { type: "done" | "error" }> {
  const worker = new Worker(workerEntry());
  return new Promise<WorkerMessage & { type: "done" | "error" }>((resolve) => {
    const timer = setTimeout(() => resolve({ type: "error", error: `the analysis took longer than ${ANALYSIS_TIMEOUT_MS / 60_000} minutes` }), ANALYSIS_TIMEOUT_MS);
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      if (event.data.type === "progress") return onProgress(event.data.done);
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      clearTimeout(timer);
      resolve({ type: "error", error: `the analysis failed: ${String(event.message ?? "unknown error").split("\n")[0]}` });
    };
    worker.postMessage(task);
  }).finally(() => worker.terminate());
}

/** The queue of one database's reports. */
export class SimilarityJobs {
  private readonly waiting: string[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly log?: Logger,
  ) {}

  /** Queues a report (its row exists, status queued) and starts the queue if idle. */
  enqueue(reportId: string): void {
    if (!this.waiting.includes(reportId)) this.waiting.push(reportId);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Resolves when nothing is queued or running (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let id = this.waiting.shift(); id !== undefined; id = this.waiting.shift()) {
      try {
        await this.run(id);
      } catch (err) {
        this.log?.error("similarity report failed", { reportId: id, error: String(err) });
        await this.db.update(similarityReports).set({ status: "failed", error: "internal error", finishedAt: new Date() }).where(eq(similarityReports.id, id));
      }
    }
  }

  private async run(id: string): Promise<void> {
    const [row] = await this.db.select().from(similarityReports).where(eq(similarityReports.id, id)).limit(1);
    if (!row || row.status === "done" || row.status === "failed") return;
    const input = row.options as StoredInput;
    await this.db.update(similarityReports).set({ status: "running", progress: 0, startedAt: new Date() }).where(eq(similarityReports.id, id));
    const task = await taskOf(this.db, input);
    let lastWrite = 0;
    const outcome = await runWorker(task, (done) => {
      const now = Date.now();
      if (now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      void this.db.update(similarityReports).set({ progress: Math.min(0.99, done) }).where(eq(similarityReports.id, id));
    });
    if (outcome.type === "error") {
      await this.db.update(similarityReports).set({ status: "failed", error: outcome.error, finishedAt: new Date() }).where(eq(similarityReports.id, id));
      return;
    }
    await this.db
      .update(similarityReports)
      .set({ status: "done", progress: 1, result: storeResult(outcome.analysis), finishedAt: new Date() })
      .where(eq(similarityReports.id, id));
  }
}

const byDb = new WeakMap<Database, SimilarityJobs>();

/** The queue of a database (one per process and database). */
export function similarityJobsFor(db: Database, log?: Logger): SimilarityJobs {
  let jobs = byDb.get(db);
  if (!jobs) byDb.set(db, (jobs = new SimilarityJobs(db, log)));
  return jobs;
}

/** Queues again every report left queued or running by a process that stopped. @returns how many. */
export async function resumeSimilarityJobs(db: Database, log?: Logger): Promise<number> {
  const rows = await db
    .select({ id: similarityReports.id })
    .from(similarityReports)
    .where(or(eq(similarityReports.status, "queued"), eq(similarityReports.status, "running")))
    .orderBy(similarityReports.createdAt);
  const jobs = similarityJobsFor(db, log);
  for (const r of rows) jobs.enqueue(r.id);
  return rows.length;
}
