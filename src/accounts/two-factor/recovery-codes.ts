/**
 * Two-factor recovery codes: ten single-use codes shown once when two-factor sign-in is turned on
 * (or renewed), each 80 random bits written as four groups of four base32 letters
 * (`k3v7-q2m9-x4c8-b1n6`); stored as SHA-256 hex only (with 80 bits of entropy a fast hash is
 * enough: nothing to guess from it). Using one deletes it.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import type { Database } from "../../../db/index.ts";
import { twoFactorRecoveryCodes } from "../../../db/schema.ts";

/** How many codes a user holds after turning two-factor sign-in on (GitHub, Google and DMOJ give 10–16). */
export const RECOVERY_CODE_COUNT = 10;

/** SHA-256 hex of a code, after normalising what a person typed (case, spaces, dashes). */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
}

/** Lower-cased, without spaces or dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

/** Whether `code` looks like a recovery code (16 base32 letters once normalised), not a TOTP code. */
export function isRecoveryCode(code: string): boolean {
  return /^[a-z2-7]{16}$/.test(normalizeRecoveryCode(code));
}

/** RECOVERY_CODE_COUNT new codes, as shown to the user. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(10)));
    return raw.match(/.{4}/g)!.join("-");
  });
}

/** The statements that replace a user's codes with `codes` (for the caller's batch). */
export function replaceRecoveryCodes(db: Database, userId: string, codes: readonly string[]) {
  return [
    db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId)),
    db.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ codeHash: hashRecoveryCode(code), userId }))),
  ] as const;
}

/** Spends one code of `userId`: true when it was theirs and unused (it is deleted, so never accepted twice). */
export async function spendRecoveryCode(db: Database, userId: string, code: string): Promise<boolean> {
  const spent = await db
    .delete(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), eq(twoFactorRecoveryCodes.codeHash, hashRecoveryCode(code))))
    .returning({ codeHash: twoFactorRecoveryCodes.codeHash });
  return spent.length === 1;
}

/** How many unused codes `userId` has left. */
export async function recoveryCodesLeft(db: Database, userId: string): Promise<number> {
  return (await db.$count(twoFactorRecoveryCodes, eq(twoFactorRecoveryCodes.userId, userId)));
}
