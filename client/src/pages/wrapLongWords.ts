/**
 * The inline style of the site's prose pages and the landing page's sections:
 * a word longer than its line (a German compound, a URL, the pseudo-locale's
 * 40 % padding) wraps instead of widening the page (issue 34 §7). Belongs in
 * the stylesheet's `.prose`, `.hero` and `.section` rules once those may change.
 */
export const WRAP_LONG_WORDS = { overflowWrap: "anywhere" } as const;
