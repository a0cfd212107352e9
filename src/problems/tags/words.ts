/**
 * The vocabulary's word rules, pure (no database): how a free word is
 * compared with a tag's slug, name and synonyms, and the limits on tags.
 */

/** At most this many tags on a problem (an author's choice, or a package's keywords). */
export const MAX_TAGS_PER_PROBLEM = 8;
/** A tag's name, a synonym, an author's or a package's word: at most this many characters. */
export const TAG_WORD_MAX_CHARS = 60;

/**
 * A word as the vocabulary compares it: lower-cased (locale-independent),
 * trimmed, runs of white space made one space.
 * @example normalizeTagWord("  Dynamic   Programming ") // "dynamic programming"
 */
export function normalizeTagWord(word: string): string {
  return word.toLowerCase().trim().replace(/\s+/g, " ");
}
