/**
 * problem.yaml's `keywords`: a list of strings (2023-07 and 2025-09), or one
 * string of space-separated words (legacy). They become the problem's topic
 * tags on import (src/problems/tags/keywords.ts); export writes the tags back
 * as a list of slugs (./export.ts).
 */
import type { Yaml } from "./yaml.ts";
import { TAG_WORD_MAX_CHARS } from "../problems/tags/words.ts";

/** At most this many keywords are read (a package's list is a few words; the rest are warned about). */
export const KEYWORDS_MAX = 50;

/**
 * The package's keywords, trimmed, empty ones dropped; what cannot be a
 * keyword (a number, a mapping, a word over 60 characters, past the 50th) is
 * a warning naming it, never an error.
 */
export function readKeywords(yaml: Yaml, warnings: string[]): string[] {
  const raw = yaml.get("keywords");
  if (raw === undefined || raw === null) return [];
  const line = yaml.line("keywords");
  const where = `problem.yaml${line ? ` line ${line}` : ""}`;
  const items: unknown[] = typeof raw === "string" ? raw.split(/\s+/) : Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") {
      warnings.push(`${where}: keyword ${JSON.stringify(item)} is not text: left out`);
      continue;
    }
    const word = item.trim();
    if (!word) continue;
    if (word.length > TAG_WORD_MAX_CHARS) warnings.push(`${where}: keyword ${JSON.stringify(word.slice(0, 40))}… is longer than ${TAG_WORD_MAX_CHARS} characters: left out`);
    else if (out.length >= KEYWORDS_MAX) warnings.push(`${where}: keyword ${JSON.stringify(word)} left out (at most ${KEYWORDS_MAX} are read)`);
    else out.push(word);
  }
  return out;
}
