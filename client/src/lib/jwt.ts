/**
 * Reads the user id from the session token the way the spec's client does
 * (how the product decides ownership on the client): base64url-decode the JWT's middle part and take its `id` field.
 * This is display logic only (who may see Edit/Delete); the server enforces
 * ownership itself with a 403.
 */

/**
 * @param token a JWT `header.payload.signature`
 * @returns the payload's `id` string, or null when the token is missing or malformed.
 * @example userIdFromToken(localStorage.getItem("token"))
 */
export function userIdFromToken(token: string | null): string | null {
  if (!token) return null;
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(payload.length / 4) * 4, "=");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (parsed && typeof parsed === "object" && "id" in parsed && typeof parsed.id === "string") return parsed.id;
    return null;
  } catch {
    return null;
  }
}
