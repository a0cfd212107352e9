/**
 * The language registry: `LANGUAGES` lists every language by id; adding one
 * is a new file in this folder and one entry here.
 */
import { cpp } from "./cpp.ts";
import { java } from "./java.ts";
import { py } from "./py.ts";
import type { Language, LanguageId } from "./types.ts";

export type { Language, LanguageId, CompileLimits } from "./types.ts";

export const LANGUAGES: Readonly<Record<LanguageId, Language>> = Object.freeze({ cpp, java, py });

/** Ids in display order (the spec's selector order: C++, Java, Python). */
export const LANGUAGE_IDS: readonly LanguageId[] = ["cpp", "java", "py"];

/** True when `id` names a registered language (use it to validate input before `getLanguage`). */
export function isLanguageId(id: string): id is LanguageId {
  return Object.hasOwn(LANGUAGES, id);
}

/**
 * The language record for an id.
 * @throws Error when the id is unknown; validate user input with `isLanguageId` (or zod over `LANGUAGE_IDS`) first.
 * @example getLanguage("py").displayName // "Python 3"
 */
export function getLanguage(id: LanguageId | string): Language {
  if (!isLanguageId(id)) throw new Error(`unknown language: ${JSON.stringify(id)}`);
  return LANGUAGES[id];
}

/**
 * Exact compiler flags per language; the judge hashes these (with the code)
 * into its compile-cache key, so changing a flag invalidates cached artifacts.
 */
export const COMPILER_FLAGS: Readonly<Record<LanguageId, readonly string[]>> = Object.freeze({
  cpp: cpp.compilerFlags,
  java: java.compilerFlags,
  py: py.compilerFlags,
});
