/** Writing a benchmark's section of docs/benchmarks.md: each benchmark owns one section, re-running it replaces only that one. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** Replaces the section starting with `heading` (up to the next `## `) or appends it; other sections stay. */
export function writeSection(file: string, heading: string, section: string): void {
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n\nEach benchmark owns its section; re-running it replaces only that section.\n\n";
  const start = current.indexOf(heading);
  let next: string;
  if (start < 0) next = current.trimEnd() + "\n\n" + section;
  else {
    const after = current.indexOf("\n## ", start + heading.length);
    next = current.slice(0, start) + section + (after < 0 ? "" : "\n" + current.slice(after + 1));
  }
  writeFileSync(file, next);
}

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A duration for a table cell: "3.25 ms" below 10 ms, "42.1 ms" above. @param n milliseconds */
export function ms(n: number): string {
  return `${n.toFixed(n < 10 ? 2 : 1)} ms`;
}

/** Runs `fn` once. @returns its wall time in ms (performance.now) and its value. */
export async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}
