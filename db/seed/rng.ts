/**
 * Deterministic random numbers for the seed tests: mulberry32 (Tommy
 * Ettinger's 32-bit generator, public domain). The same seed gives the same
 * tests on every machine, so expected outputs are reproducible.
 */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [lo, hi] (inclusive; both within ±2^53). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Uniform bigint in [lo, hi], built from two 32-bit draws (enough for ±10^18). */
  bigint(lo: bigint, hi: bigint): bigint {
    const span = hi - lo + 1n;
    const r = (BigInt(Math.floor(this.next() * 2 ** 32)) << 32n) | BigInt(Math.floor(this.next() * 2 ** 32));
    return lo + (r % span);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** `n` characters drawn from `alphabet`. */
  string(n: number, alphabet: string): string {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[this.int(0, alphabet.length - 1)];
    return s;
  }

  /** Shuffles in place (Fisher–Yates) and returns the array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

/** Whitespace-separated tokens of an input. */
export function tokens(input: string): string[] {
  return input.split(/\s+/).filter(Boolean);
}
