/**
 * Zod building blocks shared by the routers, so every field answers with the
 * same wording: `title: Required`, `title: At most 200 characters`, ...
 * (describeZodError in src/trpc/init.ts prefixes the field path). Other
 * languages read these wordings from src/i18n/validation/<locale>.json,
 * which recognises them by their English text: a new wording goes there too
 * (decision 068).
 */
import { z } from "zod";

/** UTF-8 size of a string in bytes. */
export function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** Human size for messages: 65536 → "64 KiB", 16777216 → "16 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const typeError = (iss: { input: unknown }) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text");

/**
 * A required string, trimmed, non-blank, at most `maxChars` characters.
 * @example requiredText(200).parse("  Two Sum ") // "Two Sum"
 */
export function requiredText(maxChars: number) {
  return z
    .string({ error: typeError })
    .trim()
    .min(1, { error: "Required" })
    .max(maxChars, { error: `At most ${maxChars} characters` });
}

/**
 * A required, non-blank string kept as typed (statements and sample data keep
 * their whitespace), at most `maxBytes` UTF-8 bytes.
 */
export function requiredBlock(maxBytes: number) {
  return z
    .string({ error: typeError })
    .refine((s) => s.trim().length > 0, { error: "Required" })
    .refine((s) => utf8Bytes(s) <= maxBytes, { error: `At most ${formatBytes(maxBytes)}` });
}

/**
 * A string kept as typed that may be empty (or blank), at most `maxBytes`
 * UTF-8 bytes; the key itself is still required.
 */
export function textBlock(maxBytes: number) {
  return z.string({ error: typeError }).refine((s) => utf8Bytes(s) <= maxBytes, { error: `At most ${formatBytes(maxBytes)}` });
}

/** An email address, trimmed, at most 254 characters (RFC 5321 path limit). */
export function emailField() {
  return z
    .string({ error: typeError })
    .trim()
    .min(1, { error: "Required" })
    .max(254, { error: "At most 254 characters" })
    .pipe(z.email({ error: "Must be a valid email address" }));
}

/** A row id as the routes receive it (opaque, bounded). */
export function idField() {
  return z
    .string({ error: typeError })
    .trim()
    .min(1, { error: "Required" })
    .max(64, { error: "At most 64 characters" });
}

/** An instant: an ISO 8601 date-time with its offset (`2026-03-09T23:59:00+01:00`, `...Z`) or ms since the epoch, as a Date. */
export function instantField() {
  return z.union(
    [
      z.iso.datetime({ offset: true, error: "Must be an ISO 8601 date-time with a time zone offset, e.g. 2026-03-09T23:59:00+01:00" }).transform((s) => new Date(s)),
      z.number({ error: "Must be a date-time" }).int().nonnegative().transform((n) => new Date(n)),
    ],
    { error: "Must be an ISO 8601 date-time with a time zone offset, e.g. 2026-03-09T23:59:00+01:00" },
  );
}
