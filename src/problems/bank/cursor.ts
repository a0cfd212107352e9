/**
 * The bank's keyset cursor: where the previous page stopped, as the sort key
 * of its last row plus that row's creation time and id (every sort ties by
 * newest, then id), and a fingerprint of the sort and filters it was made for.
 * Encoded as base64url JSON: opaque to the client, validated here (shape and
 * fingerprint), not secret: a hand-made cursor only moves where the page
 * starts, never what the viewer may see (visibility is decided on every page).
 */
import { createHash } from "node:crypto";
import { AppError } from "../../errors.ts";
import type { BankQuery } from "./shape.ts";

/** The last row's keys: `key` is the sort's value (title, acceptance, solvers; null for newest). */
export interface CursorKeys {
  key: string | number | null;
  createdAtMs: number;
  id: string;
}

/** What a cursor is bound to: the sort and every filter (not the page size). */
export function fingerprint(q: Pick<BankQuery, "sort" | "q" | "tag" | "difficulty" | "status" | "source">): string {
  const parts = [q.sort, q.q ?? "", q.tag ?? "", q.difficulty ?? "", q.status ?? "", q.source ?? ""];
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 12);
}

/** The cursor after a row. */
export function encodeCursor(fp: string, k: CursorKeys): string {
  return Buffer.from(JSON.stringify([fp, k.key, k.createdAtMs, k.id])).toString("base64url");
}

const bad = (message: string) => new AppError("BAD_INPUT", { field: "cursor", message: `cursor: ${message}` });

/**
 * The keys of `cursor`, checked against the query's fingerprint and the sort's key type.
 * @throws AppError BAD_INPUT (400, field `cursor`) when unreadable or made for another sort or filter.
 */
export function decodeCursor(cursor: string, fp: string, keyType: "string" | "number" | "null"): CursorKeys {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad("Not a cursor from this list");
  }
  if (!Array.isArray(v) || v.length !== 4) throw bad("Not a cursor from this list");
  const [f, key, createdAtMs, id] = v as unknown[];
  if (f !== fp) throw bad("This cursor belongs to another sort or filter; start from the first page");
  const keyOk = keyType === "null" ? key === null : typeof key === keyType && (keyType !== "number" || Number.isFinite(key));
  if (!keyOk || typeof createdAtMs !== "number" || !Number.isSafeInteger(createdAtMs) || typeof id !== "string" || id.length > 64) {
    throw bad("Not a cursor from this list");
  }
  return { key: key as CursorKeys["key"], createdAtMs, id };
}
