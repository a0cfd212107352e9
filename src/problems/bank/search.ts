/**
 * The bank's full-text search over SQLite FTS5 (`problems_fts(title, body)`,
 * migration 0032: tokenizer `unicode61 remove_diacritics 2`, prefix indexes of
 * 2 and 3 characters). User input never reaches FTS5's query syntax: it is cut
 * into words (letters and digits), each word becomes a quoted prefix term
 * (`"word"*`), and the terms are ANDed, so any word order matches, a quote,
 * `*`, `-`, `:` or `NEAR(` is only text, and no input can make a syntax error.
 * Accents fold in the tokenizer on both sides (`é` finds `e`).
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import type { BankMatch } from "./shape.ts";

/** At most this many words go into one search (the rest are dropped). */
export const SEARCH_MAX_WORDS = 12;

/** The words of a search: letters and digits, lower-cased, deduplicated; [] when nothing searchable is left. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  const words = q.normalize("NFC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS);
}

/**
 * The FTS5 MATCH expression for `words` (from `searchWords`): each a quoted
 * prefix term, implicitly ANDed. Quotes cannot occur in a word; doubled anyway.
 */
export function ftsExpression(words: string[]): string {
  return words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ");
}

/** The problems.rowid of every problem (live or not) whose title or statement matches `words`: one FTS5 read. */
export async function matchingRowids(db: Database, words: string[]): Promise<number[]> {
  const rows = await db.all<{ rowid: number }>(sql`SELECT rowid FROM problems_fts WHERE problems_fts MATCH ${ftsExpression(words)}`);
  return rows.map((r) => r.rowid);
}

/** The condition "problem row `p` is one of `rowids`" (from `matchingRowids`, read once for the page and the counts). */
export function rowidCondition(rowids: number[]): SQL {
  return sql`p.rowid IN (SELECT value FROM json_each(${JSON.stringify(rowids)}))`;
}

// Markers FTS5 puts around each matched token: control characters a statement does not carry (stripped if it does).
const OPEN = "\u0001";
const CLOSE = "\u0002";
/** Tokens of context around the first match in a statement (FTS5's snippet). */
const SNIPPET_TOKENS = 24;

/** Plain text and [start, end) UTF-16 offsets from FTS5's marked text. */
export function parseMarked(marked: string): { text: string; highlights: [number, number][] } {
  let text = "";
  const highlights: [number, number][] = [];
  let start = -1;
  for (const ch of marked) {
    if (ch === OPEN) start = text.length;
    else if (ch === CLOSE) {
      if (start >= 0 && text.length > start) highlights.push([start, text.length]);
      start = -1;
    } else text += ch;
  }
  return { text, highlights };
}

/**
 * Where each of `rowids` matched `words`: the title when a word matched there,
 * else the statement's snippet (~24 words around the match, `…` where cut).
 * @returns by problems.rowid; a row without a match (should not happen) is absent.
 */
export async function matchesOf(db: Database, words: string[], rowids: number[]): Promise<Map<number, BankMatch>> {
  const out = new Map<number, BankMatch>();
  if (!words.length || !rowids.length) return out;
  const rows = await db.all<{ rowid: number; title: string; body: string }>(sql`
    SELECT rowid,
      highlight(problems_fts, 0, ${OPEN}, ${CLOSE}) AS title,
      snippet(problems_fts, 1, ${OPEN}, ${CLOSE}, '…', ${SNIPPET_TOKENS}) AS body
    FROM problems_fts
    WHERE problems_fts MATCH ${ftsExpression(words)} AND rowid IN (SELECT value FROM json_each(${JSON.stringify(rowids)}))`);
  for (const r of rows) {
    const title = parseMarked(r.title ?? "");
    if (title.highlights.length) out.set(r.rowid, { field: "title", ...title });
    else out.set(r.rowid, { field: "statement", ...parseMarked(r.body ?? "") });
  }
  return out;
}
