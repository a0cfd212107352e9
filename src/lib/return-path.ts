/**
 * The one check of a return path (`next` in the client's `/signin?next=...`, `returnTo` of the
 * OpenID and campus-proxy sign-ins, an LMS launch's destination): where a sign-in may send the
 * browser afterwards. Only a path on this site's client passes, never another origin (no open
 * redirect, docs/decisions/056-return-path-and-onboarding.md). Shared by the server and the
 * client (tests/architecture.test.ts lists it), so both refuse the same values.
 *
 * Refused: anything but a string starting with one `/`; `//host` and `/\host` (browsers read
 * both as another host); a raw backslash, control character, space or non-ASCII character
 * anywhere; in the path, the same percent-encoded (decoded up to three times, so `%2F%2F`,
 * `%5C`, `%09` and `%252F` are caught) and malformed percent-encoding; in the query and
 * fragment, an encoded control character or backslash (an encoded space or letter is a
 * search's, kept); paths of the server's doors (`/api`, `/trpc`) and of the sign-in pages
 * themselves (`/signin`, `/signup`, `/auth`), which would loop; anything longer than
 * RETURN_PATH_MAX_CHARS.
 */

/** The longest return path kept, characters (a deep link with its query fits; longer ones are refused, not cut). */
export const RETURN_PATH_MAX_CHARS = 1024;

/** Where a sign-in goes without a usable return path. */
export const DEFAULT_RETURN_PATH = "/problems";

/** First path segments a return path may not open (server doors, and the sign-in pages, which would loop). */
const REFUSED_FIRST_SEGMENTS = new Set(["api", "trpc", "signin", "signup", "auth"]);

/** A throwaway origin to resolve against: the path must resolve inside it. */
const PROBE_ORIGIN = "http://return-path.invalid";

/** Printable ASCII other than the space and the backslash. */
const PLAIN = /^[\x21-\x5b\x5d-\x7e]*$/;

function decodeAll(value: string): string | null {
  let current = value;
  for (let i = 0; i < 3; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  // Still changing after three rounds: refused rather than guessed at.
  return current.includes("%") ? null : current;
}

/**
 * @param value a candidate return path, as a query parameter or a form sent it (any type).
 * @returns the path (pathname, query and fragment, dot segments resolved) when it is a safe
 *   same-origin client path, else null.
 * @example safeReturnPath("/join/AB12CD?x=1") === "/join/AB12CD?x=1"; safeReturnPath("//evil.example") === null
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > RETURN_PATH_MAX_CHARS) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  if (!PLAIN.test(value)) return null;
  const cut = value.search(/[?#]/);
  const path = cut < 0 ? value : value.slice(0, cut);
  const rest = cut < 0 ? "" : value.slice(cut);
  const decodedPath = decodeAll(path);
  if (decodedPath === null || !PLAIN.test(decodedPath) || decodedPath.startsWith("//")) return null;
  if (/%(?:[01][0-9a-f]|7f|5c)/i.test(rest)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // The first segment as the server would route it: decoded, any case.
  const first = (decodeAll(url.pathname) ?? "").split("/")[1]?.toLowerCase() ?? "";
  if (REFUSED_FIRST_SEGMENTS.has(first)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `safeReturnPath(value)`, else DEFAULT_RETURN_PATH (/problems): where a sign-in goes next. */
export function returnPathOr(value: unknown): string {
  return safeReturnPath(value) ?? DEFAULT_RETURN_PATH;
}
