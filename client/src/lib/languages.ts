/**
 * The judge's languages as the client shows them, read from the shared
 * registry (isolate/languages): the selector's names, the editor and
 * highlighting modes, the boilerplates and each language's time limit.
 * Adding a language to the registry adds it here.
 */
import {
  DEFAULT_LANGUAGE,
  effectiveTimeLimitMs,
  isLanguageId,
  LANGUAGE_IDS,
  LANGUAGES,
  type Language,
  type LanguageId,
} from "../../../isolate/languages/index.ts";

export { DEFAULT_LANGUAGE, effectiveTimeLimitMs, isLanguageId, LANGUAGE_IDS, type LanguageId };

/** Every language in display order. */
export const LANGUAGE_LIST: readonly Language<LanguageId>[] = LANGUAGE_IDS.map((id) => LANGUAGES[id]);

/** The language record for an id the server sent. */
export function languageOf(id: LanguageId): Language<LanguageId> {
  return LANGUAGES[id];
}

/** Short name ("C++") of a language id, or the id itself when unknown. */
export function languageName(id: string): string {
  return isLanguageId(id) ? LANGUAGES[id].name : id;
}

/** Syntax name for Monaco and Prism ("python"), or `fallback` for an unknown id. */
export function editorModeOf(id: string, fallback: string): string {
  return isLanguageId(id) ? LANGUAGES[id].editorMode : fallback;
}
