/**
 * TOTP codes (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits — what every authenticator app
 * reads from an `otpauth://` URI) through @oslojs/otp, plus the step a code matched, so the
 * caller can refuse a code it has already accepted (RFC 6238 §5.2: "the verifier MUST NOT accept
 * the second attempt of the same OTP after the successful validation").
 */
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { encodeBase32UpperCaseNoPadding, decodeHex, encodeHexLowerCase } from "@oslojs/encoding";
import { timingSafeEqual } from "node:crypto";

/** RFC 6238's defaults, which authenticator apps assume. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code may come from (clock drift and typing time: RFC 6238 §5.2 recommends one). */
export const TOTP_DRIFT_STEPS = 1;
/** Key length: 20 bytes, HMAC-SHA1's output size (RFC 4226 §4 asks for at least 16; 20 recommended). */
export const TOTP_KEY_BYTES = 20;

/** A new random key, hex (as stored in users.totp_key). */
export function newTotpKeyHex(): string {
  return encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(TOTP_KEY_BYTES)));
}

/** The time step of `nowMs`: floor(unix seconds / 30). */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code for `step` (tests and the set-up check use it). */
export function totpCodeAt(keyHex: string, step: number): string {
  return generateHOTP(decodeHex(keyHex), BigInt(step), TOTP_DIGITS);
}

/**
 * The step `code` belongs to, among now ± TOTP_DRIFT_STEPS and after `lastStep` (a step already
 * used never matches again); null when it matches none. Compared in constant time.
 */
export function matchTotp(keyHex: string, code: string, nowMs: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(nowMs);
  const given = Buffer.from(code);
  let matched: number | null = null;
  for (let step = now - TOTP_DRIFT_STEPS; step <= now + TOTP_DRIFT_STEPS; step++) {
    const same = timingSafeEqual(Buffer.from(totpCodeAt(keyHex, step)), given);
    if (same && (lastStep === null || step > lastStep) && matched === null) matched = step;
  }
  return matched;
}

/** The `otpauth://totp/…` URI an authenticator app scans: issuer (the site's name) and account (the e-mail). */
export function totpKeyUri(issuer: string, account: string, keyHex: string): string {
  return createTOTPKeyURI(issuer, account, decodeHex(keyHex), TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

/** The key as a person types it into an app by hand: base32, in groups of four. */
export function manualKey(keyHex: string): string {
  return encodeBase32UpperCaseNoPadding(decodeHex(keyHex)).replace(/(.{4})/g, "$1 ").trim();
}
