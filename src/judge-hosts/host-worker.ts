/**
 * A judge host: `bun run worker --server URL --token-file FILE` judges jobs
 * claimed from the web server's judge API (src/rest/judge-hosts.ts) with its
 * own sandbox pool and compile cache. It holds no database URL or credential
 * and runs no migration: the job is read and written through an HTTP JobPort,
 * so the judging is the same pipeline as the server's own (judgeSubmission).
 * A 409 from the server means the claim no longer holds the job: that job
 * stops at once. On stop it gives back what it holds.
 */
import type { SandboxBackend } from "../../isolate/types.ts";
import type { HiddenTestCase } from "../problems/shape.ts";
import type { Logger } from "../log.ts";
import { CompileCache } from "../judge/compile-cache.ts";
import { JudgeEvents } from "../judge/events.ts";
import type { JobPort } from "../judge/job-port.ts";
import { judgeSubmission } from "../judge/judge-submission.ts";
import type { SubmissionRow } from "../submissions/row.ts";
import { VERSION } from "../version.ts";
import type { HostJob } from "./jobs.ts";

/** Test files kept by hash on the host, bytes (a problem's tests are fetched once). */
export const HOST_TEST_CACHE_BYTES = 512 * 1024 * 1024;

export interface HostWorkerOptions {
  /** The web server, e.g. https://judge.example.edu (plain http only for loopback unless allowHttp). */
  server: string;
  token: string;
  backend: SandboxBackend;
  cacheDir: string;
  cacheBytes: number;
  /** Jobs judged at once (the sandbox pool's size). */
  capacity: number;
  log: Logger;
  allowHttp?: boolean;
  /** Claim only jobs in these languages (a host without a JDK: cpp, py); all when absent. */
  languages?: readonly string[];
}

/** Refuses plain HTTP to a non-loopback server unless allowed (tokens and hidden tests travel on it). */
export function checkServerUrl(server: string, allowHttp = false): URL {
  const url = new URL(server);
  if (url.protocol === "https:") return url;
  if (url.protocol !== "http:") throw new Error(`--server ${server}: http(s) only`);
  const loopback = ["127.0.0.1", "localhost", "[::1]", "::1"].includes(url.hostname);
  if (!loopback && !allowHttp) throw new Error(`--server ${server}: plain HTTP to another machine is refused (use https via your reverse proxy, or --allow-http)`);
  return url;
}

export class HostWorker {
  private readonly stopping = new AbortController();
  private readonly running = new Map<string, { job: HostJob; ctl: AbortController }>();
  private readonly tests = new Map<string, string>();
  private testBytes = 0;
  private loops: Promise<void>[] = [];
  judged = 0;

  private constructor(
    private readonly opts: HostWorkerOptions,
    private readonly cache: CompileCache,
  ) {}

  static async create(opts: HostWorkerOptions): Promise<HostWorker> {
    checkServerUrl(opts.server, opts.allowHttp);
    return new HostWorker(opts, await CompileCache.open(opts.cacheDir, opts.cacheBytes));
  }

  private async call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    return fetch(new URL(`/api/judge${path}`, this.opts.server), {
      method,
      headers: { authorization: `Bearer ${this.opts.token}`, "content-type": "application/json", "x-judge-version": VERSION },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  }

  /** A test file by hash: from the host's cache, else fetched once. */
  private async testFile(sha: string, problemId: string): Promise<string> {
    const hit = this.tests.get(sha);
    if (hit !== undefined) return hit;
    // The problem lets a server restarted since the claim find the file again.
    const res = await this.call("GET", `/testdata/${sha}?problem=${encodeURIComponent(problemId)}`);
    if (!res.ok) throw new Error(`test data ${sha.slice(0, 12)}…: HTTP ${res.status}`);
    const text = await res.text();
    this.tests.set(sha, text);
    this.testBytes += Buffer.byteLength(text);
    for (const [k, v] of this.tests) {
      if (this.testBytes <= HOST_TEST_CACHE_BYTES) break;
      this.tests.delete(k);
      this.testBytes -= Buffer.byteLength(v);
    }
    return text;
  }

  /** The job's port over HTTP: every write names the claim; 409 → false (stop). */
  private portOf(job: HostJob): JobPort {
    const send = async (path: string, body: Record<string, unknown>) => {
      const res = await this.call("POST", `/jobs/${job.submissionId}/${path}`, { claimToken: job.claimToken, ...body });
      if (res.status === 409) return false;
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
      return true;
    };
    return {
      load: async () => {
        const hidden: HiddenTestCase[] = [];
        for (const t of job.tests.filter((x) => !x.isSample)) hidden.push({ input: await this.testFile(t.inputSha256, job.problem.id), expectedOutput: await this.testFile(t.answerSha256, job.problem.id) });
        return { problem: job.problem, hidden };
      },
      clear: async () => void (await send("progress", { clear: true })),
      update: (values) => send("progress", { update: values }),
      addTest: (test) => send("progress", { test }),
      finish: (values) => send("finish", { values }),
      keepFailure: async (test, result) => void (await send("progress", { failure: { test, result } })),
      // The server updates the gradebook when it accepts the finish.
      afterJudged: async () => {},
    };
  }

  private async judgeOne(job: HostJob): Promise<void> {
    const ctl = new AbortController();
    this.running.set(job.submissionId, { job, ctl });
    const renewer = setInterval(() => {
      this.call("POST", `/jobs/${job.submissionId}/renew`, { claimToken: job.claimToken })
        .then((r) => {
          if (r.status === 409) ctl.abort();
        })
        .catch(() => {});
    }, Math.max(250, Math.floor(job.leaseMs / 3)));
    try {
      const row = { id: job.submissionId, claimToken: job.claimToken, language: job.language, code: job.code, runAllTests: job.runAllTests, assignmentId: job.assignmentId } as SubmissionRow;
      const verdict = await judgeSubmission({ backend: this.opts.backend, cache: this.cache, events: new JudgeEvents(), log: this.opts.log, ...(job.budgetCeilingMs ? { budgetCeilingMs: job.budgetCeilingMs } : {}) }, row, ctl.signal, this.portOf(job));
      if (verdict) this.judged++;
      else if (this.stopping.signal.aborted) await this.call("POST", `/jobs/${job.submissionId}/release`, { claimToken: job.claimToken }).catch(() => {});
    } catch (err) {
      // The server's lease expires and the job is re-queued there.
      this.opts.log.warn("judge host: job failed", { submissionId: job.submissionId, detail: err instanceof Error ? err.message : String(err) });
    } finally {
      clearInterval(renewer);
      this.running.delete(job.submissionId);
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      let res: Response;
      try {
        res = await this.call("POST", "/claim", { waitMs: 20_000, ...(this.opts.languages ? { languages: this.opts.languages } : {}) }, this.stopping.signal);
      } catch (err) {
        if (this.stopping.signal.aborted) return;
        this.opts.log.warn("judge host: cannot reach the server", { detail: String(err) });
        await Bun.sleep(2000);
        continue;
      }
      if (res.status === 204) continue;
      if (res.status === 429) {
        // At the capacity the server allows this host: wait for a job in hand to finish.
        await Bun.sleep(Number(res.headers.get("retry-after") ?? 2) * 1000);
        continue;
      }
      if (res.status === 401) throw new Error("the server refused this host's token (revoked?)");
      if (!res.ok) {
        this.opts.log.warn("judge host: claim failed", { status: res.status });
        await Bun.sleep(2000);
        continue;
      }
      await this.judgeOne((await res.json()) as HostJob);
    }
  }

  /** Starts `capacity` claim loops. @returns a promise that settles when they end (stop, or a refused token). */
  start(): Promise<void> {
    this.loops = Array.from({ length: this.opts.capacity }, () => this.loop());
    return Promise.all(this.loops).then(() => {});
  }

  /** Stops claiming, aborts the jobs in hand and gives them back. */
  async stop(): Promise<void> {
    this.stopping.abort();
    for (const { ctl } of this.running.values()) ctl.abort();
    await Promise.allSettled(this.loops);
  }
}
