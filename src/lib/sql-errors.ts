/** Recognising database errors by what they mean. */

/**
 * Whether `err` (or any error in its `cause` chain) is a UNIQUE constraint
 * failure, optionally on one index (`"courses.code_normalized"`).
 */
export function isUniqueViolation(err: unknown, column?: string): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const msg = String((e as { message?: unknown }).message ?? "");
    if (/UNIQUE constraint failed/i.test(msg) && (column === undefined || msg.includes(column))) return true;
  }
  return false;
}
