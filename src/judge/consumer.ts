/**
 * The queue consumer: `concurrency` loops (the sandbox pool size) that claim a
 * job, judge it while renewing its lease, and claim the next; idle loops wait
 * for the in-process queue bell or poll (jobs enqueued by another process).
 * Expired leases are recovered at start and every half lease. The web server
 * runs one in-process (JUDGE_IN_PROCESS); `bun run worker` runs the same class
 * alone.
 */
import type { Logger } from "../log.ts";
import { recordJudged } from "../ops/metrics.ts";
import type { JudgeEvents } from "./events.ts";
import { judgeSubmission, type PipelineDeps } from "./judge-submission.ts";
import type { JudgeQueue } from "../submissions/queue.ts";

export interface ConsumerOptions extends PipelineDeps {
  /** Jobs judged at once; the sandbox pool size. */
  concurrency: number;
  /** How often an idle loop looks for jobs enqueued elsewhere, ms. */
  pollMs?: number;
}

export class JudgeConsumer {
  private readonly stopping = new AbortController();
  private loops: Promise<void>[] = [];
  private recoverTimer: ReturnType<typeof setInterval> | null = null;
  private readonly active = new Map<string, AbortController>();
  private readonly queue: JudgeQueue;
  private readonly events: JudgeEvents;
  private readonly log: Logger;
  /** Jobs finished by this consumer since start (any verdict). */
  judged = 0;

  constructor(private readonly opts: ConsumerOptions) {
    this.queue = opts.queue;
    this.events = opts.events;
    this.log = opts.log;
  }

  get running(): boolean {
    return this.loops.length > 0;
  }

  /** Ids being judged by this consumer right now. */
  get activeIds(): string[] {
    return [...this.active.keys()];
  }

  /** Recovers abandoned jobs, then starts the loops. Idempotent. */
  async start(): Promise<void> {
    if (this.loops.length) return;
    await this.recover();
    const everyMs = Math.max(1000, Math.floor(this.queue.leaseMs / 2));
    this.recoverTimer = setInterval(() => void this.recover(), everyMs);
    for (let i = 0; i < this.opts.concurrency; i++) this.loops.push(this.loop());
  }

  /**
   * Stops claiming, aborts the jobs in progress between their steps and gives
   * them back to the queue (another process, or this one after a restart,
   * judges them again), then waits for the loops to end. A job whose claim
   * was in flight when stop() was called is given back too, not judged.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.recoverTimer) clearInterval(this.recoverTimer);
    this.recoverTimer = null;
    for (const ctl of this.active.values()) ctl.abort();
    await Promise.all(this.loops);
    this.loops = [];
  }

  private async recover(): Promise<void> {
    try {
      const { requeued, failed } = await this.queue.recover();
      if (requeued.length || failed.length) {
        this.log.info("judge: recovered abandoned jobs", { requeued: requeued.length, failed: failed.length });
        for (const id of [...requeued, ...failed]) this.events.changed(id);
        if (requeued.length) this.events.queued();
      }
    } catch (err) {
      this.log.warn("judge: lease recovery failed", { detail: err instanceof Error ? err.message : String(err) });
    }
  }

  private async loop(): Promise<void> {
    const signal = this.stopping.signal;
    const pollMs = this.opts.pollMs ?? 1000;
    while (!signal.aborted) {
      let row;
      try {
        row = await this.queue.claim();
      } catch (err) {
        this.log.warn("judge: claim failed", { detail: err instanceof Error ? err.message : String(err) });
        await this.events.waitQueued(pollMs, signal);
        continue;
      }
      if (!row) {
        await this.events.waitQueued(pollMs, signal);
        continue;
      }
      await this.judge(row.id, row);
    }
  }

  private async judge(id: string, row: Parameters<typeof judgeSubmission>[1]): Promise<void> {
    const ctl = new AbortController();
    // Claimed after stop() aborted the jobs it knew of: given back at once instead of judged to the end.
    if (this.stopping.signal.aborted) ctl.abort();
    this.active.set(id, ctl);
    this.events.changed(id);
    const renewEveryMs = Math.max(250, Math.floor(this.queue.leaseMs / 3));
    const renewer = setInterval(() => {
      this.queue
        .renew(row)
        .then((held) => {
          if (!held) ctl.abort();
        })
        .catch(() => {});
    }, renewEveryMs);
    const started = performance.now();
    try {
      const verdict = await judgeSubmission(this.opts, row, ctl.signal);
      if (verdict) {
        this.judged++;
        const waited = row.claimedAt ? (row.claimedAt.getTime() - row.createdAt.getTime()) / 1000 : null;
        recordJudged(row.language, verdict, (performance.now() - started) / 1000, waited);
      }
      else if (this.stopping.signal.aborted) await this.queue.release(row).catch(() => {});
    } catch (err) {
      // Database trouble: leave the lease to expire; recovery re-queues the job.
      this.log.warn("judge: job failed", { submissionId: id, detail: err instanceof Error ? err.message : String(err) });
    } finally {
      clearInterval(renewer);
      this.active.delete(id);
      this.events.changed(id);
    }
  }
}
