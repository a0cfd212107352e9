/** Opaque random ids for rows: 20 characters of base32 (100 bits). */
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";

/**
 * @returns a new random id, e.g. `"k3v7q2m9x4c8b1n6t5r0"`.
 */
export function newId(): string {
  const bytes = new Uint8Array(13);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes).slice(0, 20);
}
