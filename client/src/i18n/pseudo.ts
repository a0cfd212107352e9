/**
 * The pseudo-locale en-XA (issue 34 §7): every English message with its
 * letters accented ("Sign in" → "[Ŝîĝñ îñ ~~~]"), bracketed and about 40 %
 * longer, so that a screen read in it shows at a glance any text that does
 * not come from the catalogue, and any layout that breaks on longer words.
 * Placeholders, plural forms' `#` and Trans's `<0>` tags are kept as they are.
 * Loaded only when the pseudo-locale is chosen (`?lang=en-XA`).
 */
import type { Messages } from "@lingui/core";

import { accent } from "../../../src/i18n/pseudo-text.ts";

export { accent };

/** Padding that makes a text of `length` letters about 40 % longer: "~" in runs of at most five, spaced, so it wraps as words do. */
function padding(length: number): string {
  const n = Math.max(1, Math.round(length * 0.4));
  return ("~~~~~ ".repeat(Math.floor(n / 5)) + "~".repeat(n % 5)).trim();
}

type Token = string | [string, string?, unknown?];

function letters(tokens: Token[]): number {
  let n = 0;
  for (const t of tokens) if (typeof t === "string") n += t.replace(/<\/?\d+\/?>/g, "").length;
  return n;
}

function pseudoTokens(tokens: Token[]): Token[] {
  return tokens.map((t) => {
    if (typeof t === "string") return accent(t);
    const [name, type, format] = t;
    if (format && typeof format === "object" && (type === "plural" || type === "select" || type === "selectordinal")) {
      const choices: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(format as Record<string, unknown>)) choices[k] = Array.isArray(v) ? pseudoTokens(v as Token[]) : v;
      return [name, type, choices];
    }
    return t;
  });
}

/** One compiled message (Lingui's form: a string, or tokens) in the pseudo-locale. */
export function pseudoMessage(message: unknown): unknown {
  if (typeof message === "string") return `[${accent(message)} ${padding(message.length)}]`;
  if (!Array.isArray(message)) return message;
  const tokens = pseudoTokens(message as Token[]);
  return ["[", ...tokens, ` ${padding(Math.max(letters(message as Token[]), 4))}]`];
}

/** Every message of a catalogue in the pseudo-locale. */
export function pseudoMessages(messages: Messages): Messages {
  const out: Messages = {};
  for (const [id, message] of Object.entries(messages)) out[id] = pseudoMessage(message) as Messages[string];
  return out;
}
