/**
 * Collapsing concurrent identical reads without serving anything older than
 * the caller (docs/decisions/082-bank-in-memory.md). Plain single-flight
 * (join whatever is in flight) would hand a caller a read that began before
 * its call, so a write that committed just before the call could be missed.
 * Here a caller joins a read only if that read has not started yet: while one
 * runs for a key, every caller arriving for that key waits for the next run,
 * which they all share and which starts once the current one settles. A burst
 * of N identical calls costs at most two reads, and each caller's answer was
 * read wholly after its call began.
 */

const noop = () => {};

interface Slot<A, V> {
  running?: Promise<V>;
  /** The next run, not started yet: callers join it and widen its argument. */
  queued?: { arg: A; promise: Promise<V> };
}

export class AfterArrival<A, V> {
  private readonly slots = new Map<string, Slot<A, V>>();

  /**
   * @param merge how a joining caller's argument widens the queued run's (e.g. the latest clock reading).
   * @param read the read itself, given the merged argument.
   */
  constructor(
    private readonly merge: (queued: A, joining: A) => A,
    private readonly read: (arg: A) => Promise<V>,
  ) {}

  /** The value for `key`, read after this call began (shared with the callers that joined the same run). */
  run(key: string, arg: A): Promise<V> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {};
      this.slots.set(key, slot);
    }
    if (slot.queued) {
      slot.queued.arg = this.merge(slot.queued.arg, arg);
      return slot.queued.promise;
    }
    if (!slot.running) return this.start(key, slot, arg);
    const s = slot;
    const queued = { arg, promise: undefined as unknown as Promise<V> };
    queued.promise = s.running!.then(noop, noop).then(() => {
      s.queued = undefined;
      return this.start(key, s, queued.arg);
    });
    s.queued = queued;
    return queued.promise;
  }

  /** Keys with a read running or queued (for tests: the map never keeps idle keys). */
  get size(): number {
    return this.slots.size;
  }

  private start(key: string, slot: Slot<A, V>, arg: A): Promise<V> {
    const p = Promise.resolve().then(() => this.read(arg));
    slot.running = p;
    p.then(noop, noop).then(() => {
      if (slot.running !== p) return;
      slot.running = undefined;
      if (!slot.queued && this.slots.get(key) === slot) this.slots.delete(key);
    });
    return p;
  }
}
