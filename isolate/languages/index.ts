/**
 * The language registry: the single source of every language the judge runs
 * (id, names, source file, commands, limits, time multiplier, editor mode,
 * boilerplate). The server, the sandbox runner and the client all read it.
 * Adding a language is one new file in this folder (a `Language<"id">`
 * record, with its self-test) and one entry in `REGISTRY`.
 *
 * No imports beyond the language files and types: the client bundles this file.
 */
import { c } from "./c.ts";
import { cpp } from "./cpp.ts";
import { go } from "./go.ts";
import { java } from "./java.ts";
import { js } from "./js.ts";
import { py } from "./py.ts";
import { pypy } from "./pypy.ts";
import { rust } from "./rust.ts";
import type { Language } from "./types.ts";

export type { Language, CompileLimits } from "./types.ts";

/**
 * Every language, in display order (the selector's order: C++, C, Java,
 * Python, PyPy, JavaScript, Go, Rust). The first is the default.
 */
const REGISTRY = { cpp, c, java, py, pypy, js, go, rust } as const;

/** A registered language's id: `"cpp" | "c" | "java" | "py" | "pypy" | "js" | "go" | "rust"`. */
export type LanguageId = keyof typeof REGISTRY;

export const LANGUAGES: Readonly<Record<LanguageId, Language<LanguageId>>> = Object.freeze(REGISTRY);

/** Ids in display order, as a non-empty tuple (zod enums and drizzle columns take it as is). */
export const LANGUAGE_IDS = Object.freeze(Object.keys(REGISTRY)) as unknown as readonly [LanguageId, ...LanguageId[]];

/** The language a new editor starts in. */
export const DEFAULT_LANGUAGE: LanguageId = LANGUAGE_IDS[0];

/** True when `id` names a registered language (use it to validate input before `getLanguage`). */
export function isLanguageId(id: string): id is LanguageId {
  return Object.hasOwn(LANGUAGES, id);
}

/**
 * The language record for an id.
 * @throws Error when the id is unknown; validate user input with `isLanguageId` (or zod over `LANGUAGE_IDS`) first.
 * @example getLanguage("py").displayName // "Python 3"
 */
export function getLanguage(id: LanguageId | string): Language<LanguageId> {
  if (!isLanguageId(id)) throw new Error(`unknown language: ${JSON.stringify(id)}`);
  return LANGUAGES[id];
}

/**
 * The CPU time limit `id` is judged against for a problem limit: the limit
 * times the language's `timeMultiplier` when the problem scales its limit by
 * language (the default), else the limit itself, ms.
 * @example effectiveTimeLimitMs("py", 1000) // 3000
 * @example effectiveTimeLimitMs("py", 1000, false) // 1000 (an imported package's limit)
 */
export function effectiveTimeLimitMs(id: LanguageId, problemTimeLimitMs: number, scaledByLanguage = true): number {
  return scaledByLanguage ? Math.round(problemTimeLimitMs * LANGUAGES[id].timeMultiplier) : problemTimeLimitMs;
}

/**
 * Exact compiler flags per language; the judge hashes these (with the code)
 * into its compile-cache key, so changing a flag invalidates cached artifacts.
 */
export const COMPILER_FLAGS: Readonly<Record<LanguageId, readonly string[]>> = Object.freeze(
  Object.fromEntries(LANGUAGE_IDS.map((id) => [id, LANGUAGES[id].compilerFlags])) as Record<LanguageId, readonly string[]>,
);

/**
 * The language a problem package's example submission is in, by its file's
 * extension (`"rs"`, `"C"`: case-sensitive first, then lower-cased), or null
 * when no language here claims it. From each record's `package.extensions`.
 * @example languageByExtension("C") // "cpp"; languageByExtension("c") // "c"
 */
export function languageByExtension(ext: string): LanguageId | null {
  for (const candidate of [ext, ext.toLowerCase()]) {
    for (const id of LANGUAGE_IDS) if (LANGUAGES[id].package.extensions.includes(candidate)) return id;
  }
  return null;
}

/**
 * The language a package names by its language code (`submissions.yaml`'s
 * `language`: `"python3"`, `"pypy3"`, `"rust"`, case-insensitive, aliases
 * too), or null when none here is called that.
 */
export function languageByPackageCode(code: string): LanguageId | null {
  const c = code.trim().toLowerCase();
  for (const id of LANGUAGE_IDS) {
    const p = LANGUAGES[id].package;
    if (p.code === c || p.aliases.includes(c)) return id;
  }
  return null;
}
