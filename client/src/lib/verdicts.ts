/**
 * Verdict names: the standard short codes (AC, WA, TLE, MLE, RE, CE, OLE, IE) and their full names.
 * The history keeps the spec's badge wording, Accepted / Wrong Answer, for
 * AC / WA and names the other verdicts in full.
 */
import { VERDICT_NAMES, type VerdictCode } from "../../../src/verdicts.ts";

export { VERDICT_NAMES, type VerdictCode };

/** @returns the full name of a verdict code, or the code itself when unknown. */
export function verdictName(code: string): string {
  return code in VERDICT_NAMES ? VERDICT_NAMES[code as VerdictCode] : code;
}

/** @returns "1.2 s" / "35 ms" for a time in milliseconds. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(2)} s`;
}

/** @returns "12.3 MiB" / "512 KiB" for a size in KiB. */
export function formatKib(kib: number | null | undefined): string {
  if (kib === null || kib === undefined) return "—";
  if (kib < 1024) return `${Math.round(kib)} KiB`;
  return kib % 1024 === 0 ? `${kib / 1024} MiB` : `${(kib / 1024).toFixed(1)} MiB`;
}
