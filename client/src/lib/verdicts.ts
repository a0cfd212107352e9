/**
 * Verdict names: the standard short codes (AC, WA, TLE, MLE, RE, CE, OLE, IE) and their full names,
 * in the interface's language (the `common` catalogue's `verdict.*`; English as src/verdicts.ts).
 * The history keeps the spec's badge wording, Accepted / Wrong Answer, for
 * AC / WA and names the other verdicts in full.
 */
import { VERDICT_NAMES, type VerdictCode } from "../../../src/verdicts.ts";
import { translate, type Translate } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

export { VERDICT_NAMES, type VerdictCode };

/** Each verdict code's message in the `common` catalogue. */
const VERDICT_KEYS = {
  AC: "verdict.AC",
  WA: "verdict.WA",
  TLE: "verdict.TLE",
  MLE: "verdict.MLE",
  RE: "verdict.RE",
  CE: "verdict.CE",
  OLE: "verdict.OLE",
  IE: "verdict.IE",
} as const satisfies Record<VerdictCode, string>;

/** `common`'s messages as a component's `useT(common)` gives them (it re-renders on a language switch). */
export type CommonT = Translate<NonNullable<(typeof common)["keys"]>>;

/**
 * @returns the full name of a verdict code in the interface's language ("Accepted", "Akzeptiert"), or the code itself when unknown.
 * @param t `useT(common)` from the calling component (so it re-renders on a switch); without it, the active locale's message.
 */
export function verdictName(code: string, t?: CommonT): string {
  if (!(code in VERDICT_KEYS)) return code;
  const key = VERDICT_KEYS[code as VerdictCode];
  return t ? t(key) : translate(common, key);
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
