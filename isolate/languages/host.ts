/**
 * Which registered languages this host can run: a language whose `requires`
 * (compilers, runtimes at absolute paths) are all present. Server side only
 * (the client bundles index.ts, never this file).
 */
import { existsSync } from "node:fs";
import { LANGUAGE_IDS, LANGUAGES, type LanguageId } from "./index.ts";

/** Each registered language's tools missing on this host (empty: runnable), in registry order. */
export function missingTools(exists: (path: string) => boolean = existsSync): { id: LanguageId; missing: string[] }[] {
  return LANGUAGE_IDS.map((id) => ({ id, missing: LANGUAGES[id].requires.map((t) => t.path).filter((p) => !exists(p)) }));
}
