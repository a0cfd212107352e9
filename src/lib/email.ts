/** Email addresses as keys. */

/** Lower-cased, trimmed email: the unique sign-in key and the roster's key. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
