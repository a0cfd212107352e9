/** Plain-words helpers for messages. */

/**
 * Joins words as a sentence list, for messages that name every allowed value.
 * @example listInWords(["cpp", "java", "py"]) // "cpp, java or py"
 */
export function listInWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}
