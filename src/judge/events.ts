/**
 * In-process doorbells for the judge: "submission X changed" (progress
 * subscriptions and waiting REST requests re-read the row) and "the queue has
 * work" (idle consumers claim). The database stays the only source of truth:
 * a doorbell carries no data, and listeners also poll, so changes made by
 * another process (`bun run worker`) are seen too, a poll interval later.
 */
import { EventEmitter } from "node:events";

export class JudgeEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open subscription or waiting request: no fixed bound.
    this.emitter.setMaxListeners(0);
  }

  /** Rings the bell of one submission (after any write to its row or tests). */
  changed(submissionId: string): void {
    this.emitter.emit(`s:${submissionId}`);
  }

  /** Rings the queue bell (after a submission is enqueued or re-queued). */
  queued(): void {
    this.emitter.emit("queue");
  }

  /** @returns a function that removes the listener. */
  onChanged(submissionId: string, listener: () => void): () => void {
    this.emitter.on(`s:${submissionId}`, listener);
    return () => this.emitter.off(`s:${submissionId}`, listener);
  }

  /** @returns a function that removes the listener. */
  onQueued(listener: () => void): () => void {
    this.emitter.on("queue", listener);
    return () => this.emitter.off("queue", listener);
  }

  /**
   * Resolves at the next ring of `submissionId`, after `timeoutMs`, or when
   * `signal` aborts, whichever comes first.
   */
  waitChanged(submissionId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return waitFor((fn) => this.onChanged(submissionId, fn), timeoutMs, signal);
  }

  /** Resolves at the next queue ring, after `timeoutMs`, or when `signal` aborts. */
  waitQueued(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return waitFor((fn) => this.onQueued(fn), timeoutMs, signal);
  }
}

function waitFor(subscribe: (fn: () => void) => () => void, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const unsubscribe = subscribe(done);
    signal?.addEventListener("abort", done, { once: true });
  });
}
