import type { Box, SandboxBackend } from "./types.ts";

/**
 * A fixed set of box ids handed out one at a time; `acquire` waits (FIFO)
 * when all are taken. Box ids come from the configured range
 * [ISOLATE_BOX_ID_START, +ISOLATE_BOX_ID_COUNT) so that two servers on one
 * host with disjoint ranges never share a box (never from submission ids).
 */
export class BoxIdPool {
  private readonly free: number[];
  /** Waiting takers in arrival order, each for `count` ids at once (strict FIFO: a pair is not starved by singles). */
  private readonly waiters: { count: number; resolve: (ids: number[]) => void }[] = [];
  private closed = false;

  /**
   * @param start first box id; @param count ids in the range; @param size boxes in the pool (≤ count).
   * @throws Error when the range is empty or size < 1.
   */
  constructor(start: number, count: number, size: number) {
    const n = Math.min(count, size);
    if (n < 1) throw new Error(`empty box pool (start ${start}, count ${count}, size ${size})`);
    this.free = Array.from({ length: n }, (_, i) => start + i);
    this.ids = [...this.free];
  }

  /** Every id of the pool (for start-up cleaning and shutdown). */
  readonly ids: readonly number[];

  /** Takes a free id, waiting when none is free. @throws Error after close(). */
  async take(): Promise<number> {
    return (await this.takeMany(1))[0]!;
  }

  /**
   * Takes `count` ids at once, waiting until that many are free (never holding
   * some while waiting for the rest, so two takers of pairs cannot deadlock).
   * @throws Error after close(), or when the pool has fewer than `count` ids.
   */
  async takeMany(count: number): Promise<number[]> {
    if (this.closed) throw new Error("sandbox pool is closed");
    if (count < 1 || count > this.ids.length) throw new Error(`cannot take ${count} boxes from a pool of ${this.ids.length}`);
    if (this.waiters.length === 0 && this.free.length >= count) return this.free.splice(0, count);
    return new Promise<number[]>((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Gives an id back (or to the longest waiters, as far as the free ids go). */
  give(id: number): void {
    this.free.push(id);
    while (this.waiters.length && this.free.length >= this.waiters[0]!.count) {
      const w = this.waiters.shift()!;
      w.resolve(this.free.splice(0, w.count));
    }
  }

  close(): void {
    this.closed = true;
  }
}

/** How one backend opens a box for a new holder and cleans it when handed back. */
export interface BoxLifecycle<B extends Box> {
  /** Prepares box `id` for a new holder (an empty directory, `isolate --init`). May throw: the id goes back to the pool. */
  open(id: number): Promise<B>;
  /** Cleans a box handed back or left at shutdown (its files, `isolate --cleanup`). */
  reset(box: B): Promise<void>;
}

/**
 * The acquire/release/close half of a SandboxBackend over a BoxIdPool, the
 * same for every backend: a box is handed out once, released once (a second
 * release is ignored), its id always returns to the pool, and closing resets
 * every box still out.
 * @returns `acquire` and `release` for the backend, and `closeBoxes` for its `close`.
 */
export function pooledBoxes<B extends Box>(
  pool: BoxIdPool,
  life: BoxLifecycle<B>,
): Pick<SandboxBackend, "acquire" | "acquireMany" | "release"> & { closeBoxes(): Promise<void> } {
  const active = new Set<B>();
  async function acquireMany(count: number): Promise<B[]> {
    const ids = await pool.takeMany(count);
    const opened: B[] = [];
    try {
      for (const id of ids) opened.push(await life.open(id));
    } catch (err) {
      for (const b of opened) await life.reset(b).catch(() => {});
      for (const id of ids) pool.give(id);
      throw err;
    }
    for (const b of opened) active.add(b);
    return opened;
  }
  return {
    async acquire() {
      return (await acquireMany(1))[0]!;
    },
    acquireMany,
    async release(box: Box) {
      const b = box as B;
      if (!active.delete(b)) return;
      try {
        await life.reset(b);
      } finally {
        pool.give(b.id);
      }
    },
    async closeBoxes() {
      pool.close();
      for (const b of active) await life.reset(b).catch(() => {});
      active.clear();
    },
  };
}
