/**
 * Judge-wide limits (docs/decisions/011-judge-limits-and-time-multipliers.md
 * records why these numbers). A problem's own limits and defaults are
 * src/problems/limits.ts; each language's time multiplier is in its registry entry.
 */

/**
 * The time limit a language is judged against: the problem's limit times the
 * registry's `timeMultiplier` (Java 2× for JVM start and JIT warm-up, Python
 * 3× for interpreter speed, after the usual practice of judges that scale
 * limits per language: USACO and HackerRank give Java 2×; Python gets 2–5×).
 */
export { effectiveTimeLimitMs } from "../../isolate/languages/index.ts";

/** Stdout kept per run before OLE, bytes: generous for any judge answer, small enough to hold two in memory per box. */
export const OUTPUT_LIMIT_BYTES = 16 * 1024 * 1024;

/** The sample run's output stored on a submission (the spec's `output`), UTF-8 bytes at most. */
export const STORED_OUTPUT_MAX_BYTES = 64 * 1024;

/** Largest code accepted, UTF-8 bytes: more is a 400 naming `code`. */
export const CODE_MAX_BYTES = 64 * 1024;

/** Largest custom input / expected output accepted by Run, UTF-8 bytes. */
export const RUN_TEXT_MAX_BYTES = 1024 * 1024;
