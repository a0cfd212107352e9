/**
 * JSON response bodies for the REST doors, with the serialisation of shared,
 * never-mutated values done once instead of per request.
 *
 * The problem list (src/problems/list-cache.ts `publicProblemList`) is one
 * array of shapes shared by every request until a problem changes; with 1,000
 * problems it is ~0.9 MB of JSON, and `JSON.stringify` of it was most of the
 * route's CPU time (scripts/bench-api.ts). A producer marks such values with
 * `shareJson`; `encodeJson` then reuses their encoded bytes: the whole array when
 * the procedure returned the shared array itself (a caller who owns none of
 * the problems), or each shared element's bytes when it returned a new array
 * mixing shared elements with per-caller copies (an owner's problems carry
 * their hidden tests). The result is byte-for-byte `JSON.stringify(value)`.
 * `sendJson` answers with it, gzip-compressed (once) for a shared value when
 * the client accepts that.
 * Why and what it saved: docs/decisions/024-problem-list-cache.md.
 *
 * Contract: a value passed to `shareJson` must never be mutated afterwards;
 * its cached bytes would silently go stale. Values are held weakly, so a
 * replaced list and its bytes are garbage-collected together.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const shared = new WeakSet<object>();
const bytes = new WeakMap<object, Uint8Array<ArrayBuffer>>();
const gzipped = new WeakMap<object, Uint8Array<ArrayBuffer>>();

/**
 * Marks `value` (and, for an array, each object element) as shared and
 * immutable, so `encodeJson` may serialise it once.
 * @returns `value` itself.
 * @example const shapes = shareJson(rows.map(toShape));
 */
export function shareJson<T extends object>(value: T): T {
  shared.add(value);
  if (Array.isArray(value)) for (const el of value) if (typeof el === "object" && el !== null) shared.add(el);
  return value;
}

const encoder = new TextEncoder();
const OPEN = encoder.encode("[");
const COMMA = encoder.encode(",");
const CLOSE = encoder.encode("]");

/** The cached UTF-8 JSON of a shared value. */
function bytesOf(value: object): Uint8Array<ArrayBuffer> {
  let encoded = bytes.get(value);
  if (!encoded) {
    encoded = encoder.encode(JSON.stringify(value));
    bytes.set(value, encoded);
  }
  return encoded;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The JSON encoding of `value`, equal to `JSON.stringify(value)`: cached UTF-8
 * bytes for a shared value, the cached bytes of its shared elements joined for
 * an array that holds some, plain `JSON.stringify` otherwise.
 */
export function encodeJson(value: unknown): string | Uint8Array<ArrayBuffer> {
  // `?? "null"`: JSON.stringify(undefined) is undefined, and a body must be text.
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (shared.has(value)) return bytesOf(value);
  if (Array.isArray(value) && value.some((el) => typeof el === "object" && el !== null && shared.has(el))) {
    // Bytes, not a joined string: Bun would transcode a 0.9 MB string on every response.
    const parts: Uint8Array[] = [OPEN];
    value.forEach((el, i) => {
      if (i) parts.push(COMMA);
      parts.push(typeof el === "object" && el !== null && shared.has(el) ? bytesOf(el) : encoder.encode(JSON.stringify(el) ?? "null"));
    });
    parts.push(CLOSE);
    return concat(parts);
  }
  return JSON.stringify(value);
}

/** Whether an Accept-Encoding header admits gzip (listed, or `*`, with a q-value above 0; RFC 9110 §12.5.3). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let gzip: boolean | undefined;
  let star = false;
  for (const item of acceptEncoding.split(",")) {
    const [name = "", ...params] = item.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === "gzip" || name.trim() === "x-gzip") gzip = allowed;
    else if (name.trim() === "*") star = allowed;
  }
  return gzip ?? star;
}

/**
 * Answers `value` as JSON (like `c.json`), keeping headers already set on `c`
 * (a renewed session's Set-Cookie), through `encodeJson`'s cache. A shared
 * value is also sent gzip-compressed when the client accepts it, compressed
 * once per value (a 0.9 MB list is ~30-150 KB), never per request; other
 * bodies go out as they are.
 * @example return sendJson(c, await call(c, (api) => api.problems.list()));
 */
export function sendJson(c: Context, value: unknown, status: ContentfulStatusCode = 200): Response {
  if (typeof value === "object" && value !== null && shared.has(value)) {
    const headers: Record<string, string> = { "content-type": "application/json", vary: "Accept-Encoding" };
    if (acceptsGzip(c.req.header("accept-encoding"))) {
      let gz = gzipped.get(value);
      if (!gz) {
        gz = Bun.gzipSync(bytesOf(value)) as Uint8Array<ArrayBuffer>;
        gzipped.set(value, gz);
      }
      return c.body(gz, status, { ...headers, "content-encoding": "gzip" });
    }
    return c.body(bytesOf(value), status, headers);
  }
  return c.body(encodeJson(value), status, { "content-type": "application/json" });
}
