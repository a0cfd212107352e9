/**
 * Judge-wide limits and the per-language time multipliers
 * (docs/decisions/011-judge-limits-and-time-multipliers.md records why these numbers).
 */
import type { LanguageId } from "../../isolate/languages/index.ts";

/**
 * CPU time multiplier per language, applied to the problem's time limit.
 * Java 2× (JVM start and JIT warm-up), Python 3× (interpreter speed), after
 * the usual practice of judges that scale limits per language (USACO and
 * HackerRank give Java 2×; Python gets 2–5× across them).
 */
export const TIME_MULTIPLIER: Readonly<Record<LanguageId, number>> = Object.freeze({ cpp: 1, java: 2, py: 3 });

/** Defaults when a run has no problem (custom input): the problem defaults. */
export const DEFAULT_TIME_LIMIT_MS = 2000;
export const DEFAULT_MEMORY_LIMIT_KIB = 256 * 1024;

/** Stdout kept per run before OLE, bytes: generous for any judge answer, small enough to hold two in memory per box. */
export const OUTPUT_LIMIT_BYTES = 16 * 1024 * 1024;

/** The sample run's output stored on a submission (the spec's `output`), UTF-8 bytes at most. */
export const STORED_OUTPUT_MAX_BYTES = 64 * 1024;

/** Largest code accepted, UTF-8 bytes (issue #4: "code over 64 KiB" is a 400). */
export const CODE_MAX_BYTES = 64 * 1024;

/** Largest custom input / expected output accepted by Run, UTF-8 bytes. */
export const RUN_TEXT_MAX_BYTES = 1024 * 1024;

/** Effective CPU time limit of `language` for a problem limit, ms. */
export function effectiveTimeLimitMs(language: LanguageId, problemTimeLimitMs: number): number {
  return Math.round(problemTimeLimitMs * TIME_MULTIPLIER[language]);
}
