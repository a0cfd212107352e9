/**
 * Turning two-factor sign-in on and off (issue 36, point 3): a pending key the user scans (QR code
 * and the key typed by hand), confirmed by one code from it; ten recovery codes shown once; turning
 * it off asks for the password (or, for an account without one, a code). Every rule here runs on
 * the server; the routes only translate.
 */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import QRCode from "qrcode";
import type { Database } from "../../../db/index.ts";
import { users } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { clearTwoFactorSetupFlag } from "../../auth/session.ts";
import { manualKey, matchTotp, newTotpKeyHex, totpKeyUri } from "./totp.ts";
import { newRecoveryCodes, recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCode, isRecoveryCode } from "./recovery-codes.ts";
import { twoFactorRecoveryCodes } from "../../../db/schema.ts";
import { twoFactorRequiredFor } from "./policy.ts";
import { normalizeEmail, type Caller } from "../user.ts";
import { throttledLogin, type LoginDeps } from "../login.ts";
import type { RateLimiter } from "../../lib/rate-limit.ts";

/** The name authenticator apps show for this site. */
export const TOTP_ISSUER = "CodeArena"; // i18n-ignore: the brand

export interface TwoFactorStatus {
  enabled: boolean;
  /** Unused recovery codes (0 when off). */
  recoveryCodesLeft: number;
  /** REQUIRE_TWO_FACTOR_FOR_STAFF applies to this account: it cannot be turned off. */
  required: boolean;
}

export interface TwoFactorSetup {
  /** `otpauth://totp/…`: what the QR code holds. */
  keyUri: string;
  /** The QR code as an SVG data URL (the page's CSP allows data: images). */
  qrCodeDataUrl: string;
  /** The key in base32, in groups of four, for typing into an app by hand. */
  manualKey: string;
}

/** Wrong second-factor codes an account may send in a window (Limiters.secondFactorByAccount): 1,440 a day at most, so guessing one of the three codes valid at a time out of a million takes months. */
export const TWO_FACTOR_GUESSES_PER_ACCOUNT = { limit: 10, windowMs: 10 * 60_000 } as const;

interface Deps {
  db: Database;
  config: { REQUIRE_TWO_FACTOR_FOR_STAFF: boolean };
  now: () => number;
  limiters: LoginDeps["limiters"] & { secondFactorByAccount: RateLimiter };
  /** The client address (the sign-in limits count per address too). */
  ip: string;
}

/**
 * Runs `check` (which throws TWO_FACTOR_CODE_WRONG for a wrong code) under the account's second-factor limit:
 * the try is counted before the check and taken back when it succeeds, as throttledLogin does for passwords.
 * @throws TOO_MANY_LOGIN_ATTEMPTS (429) past TWO_FACTOR_GUESSES_PER_ACCOUNT, or what `check` throws.
 */
export async function limitedCodeCheck(limiter: RateLimiter, userId: string, check: () => Promise<void>): Promise<void> {
  const decision = limiter.hit(userId);
  if (!decision.ok) throw new AppError("TOO_MANY_LOGIN_ATTEMPTS", { retryAfterSeconds: decision.retryAfterSeconds });
  await check();
  limiter.refund(userId);
}

/** A current code of `userId` (TOTP or recovery), under the account's limit. @throws TWO_FACTOR_CODE_WRONG (400, field code), TOO_MANY_LOGIN_ATTEMPTS (429). */
async function requireCode(deps: Deps, userId: string, code: string, opts: { recoveryAllowed: boolean }): Promise<void> {
  await limitedCodeCheck(deps.limiters.secondFactorByAccount, userId, async () => {
    if ((!opts.recoveryAllowed && isRecoveryCode(code)) || !(await checkSecondFactor(deps.db, userId, code, deps.now()))) {
      throw new AppError("TWO_FACTOR_CODE_WRONG", { field: "code" });
    }
  });
}

async function totpRow(db: Database, userId: string) {
  const [row] = await db
    .select({ email: users.email, totpKey: users.totpKey, totpPendingKey: users.totpPendingKey, totpLastStep: users.totpLastStep, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new AppError("UNAUTHENTICATED");
  return row;
}

/** Whether two-factor sign-in is on for `caller`, how many recovery codes are left, and whether it is required. */
export async function twoFactorStatus(deps: Deps, caller: Caller): Promise<TwoFactorStatus> {
  const row = await totpRow(deps.db, caller.id);
  const enabled = row.totpKey !== null;
  return {
    enabled,
    recoveryCodesLeft: enabled ? await recoveryCodesLeft(deps.db, caller.id) : 0,
    required: await twoFactorRequiredFor(deps.db, deps.config, caller),
  };
}

/**
 * Starts setting up: a new pending key (replacing any earlier pending one), as a QR code and as text.
 * @throws TWO_FACTOR_ALREADY_ON (409).
 */
export async function startTwoFactorSetup(deps: Deps, caller: Caller): Promise<TwoFactorSetup> {
  const row = await totpRow(deps.db, caller.id);
  if (row.totpKey) throw new AppError("TWO_FACTOR_ALREADY_ON");
  const key = newTotpKeyHex();
  await deps.db.update(users).set({ totpPendingKey: key }).where(eq(users.id, caller.id));
  const keyUri = totpKeyUri(TOTP_ISSUER, row.email, key);
  const svg = await QRCode.toString(keyUri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { keyUri, qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`, manualKey: manualKey(key) };
}

/**
 * Turns two-factor sign-in on with a code from the pending key; every session of the account may
 * do everything again.
 * @returns the ten recovery codes, shown this once.
 * @throws TWO_FACTOR_ALREADY_ON (409), TWO_FACTOR_NOT_STARTED (409), TWO_FACTOR_CODE_WRONG (400, field code).
 */
export async function confirmTwoFactorSetup(deps: Deps, caller: Caller, code: string): Promise<{ recoveryCodes: string[] }> {
  const row = await totpRow(deps.db, caller.id);
  if (row.totpKey) throw new AppError("TWO_FACTOR_ALREADY_ON");
  if (!row.totpPendingKey) throw new AppError("TWO_FACTOR_NOT_STARTED");
  const step = matchTotp(row.totpPendingKey, code, deps.now(), null);
  if (step === null) throw new AppError("TWO_FACTOR_CODE_WRONG", { field: "code" });
  const recoveryCodes = newRecoveryCodes();
  await deps.db.batch([
    deps.db.update(users).set({ totpKey: row.totpPendingKey, totpPendingKey: null, totpLastStep: step }).where(eq(users.id, caller.id)),
    ...replaceRecoveryCodes(deps.db, caller.id, recoveryCodes),
    clearTwoFactorSetupFlag(deps.db, caller.id),
  ]);
  return { recoveryCodes };
}

/**
 * Checks a second factor of `userId`: a TOTP code (never one already accepted: the step is stored
 * with a conditional write, so two requests racing with the same code cannot both pass) or an
 * unused recovery code (spent).
 * @returns true when it is right.
 */
export async function checkSecondFactor(db: Database, userId: string, code: string, nowMs: number): Promise<boolean> {
  const trimmed = code.trim();
  if (isRecoveryCode(trimmed)) return spendRecoveryCode(db, userId, trimmed);
  const row = await totpRow(db, userId);
  if (!row.totpKey) return false;
  const step = matchTotp(row.totpKey, trimmed.replace(/\s/g, ""), nowMs, row.totpLastStep);
  if (step === null) return false;
  const taken = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return taken.length === 1;
}

/**
 * Turns two-factor sign-in off: the password for an account with one, else a current code.
 * @throws TWO_FACTOR_OFF (409), TWO_FACTOR_REQUIRED (403) when the setting requires it,
 *   PASSWORD_WRONG (400, field password) / TWO_FACTOR_CODE_WRONG (400, field code).
 */
export async function disableTwoFactor(deps: Deps, caller: Caller, proof: { password?: string; code?: string }): Promise<void> {
  const row = await totpRow(deps.db, caller.id);
  if (!row.totpKey) throw new AppError("TWO_FACTOR_OFF");
  if (await twoFactorRequiredFor(deps.db, deps.config, caller)) throw new AppError("TWO_FACTOR_REQUIRED");
  if (row.passwordHash) {
    const hash = row.passwordHash;
    // Under the sign-in limits, as a password change is: a stolen session must not make a password-guessing oracle.
    await throttledLogin(deps.limiters, deps.ip, `email:${normalizeEmail(row.email)}`, async () => {
      if (!proof.password || !(await Bun.password.verify(proof.password, hash))) throw new AppError("PASSWORD_WRONG", { field: "password" });
    });
  } else {
    if (!proof.code) throw new AppError("TWO_FACTOR_CODE_WRONG", { field: "code" });
    await requireCode(deps, caller.id, proof.code, { recoveryAllowed: true });
  }
  await deps.db.batch([
    deps.db.update(users).set({ totpKey: null, totpPendingKey: null, totpLastStep: null }).where(eq(users.id, caller.id)),
    deps.db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, caller.id)),
  ]);
}

/**
 * New recovery codes in place of the old ones, with a current code as proof.
 * @throws TWO_FACTOR_OFF (409), TWO_FACTOR_CODE_WRONG (400, field code).
 */
export async function renewRecoveryCodes(deps: Deps, caller: Caller, code: string): Promise<{ recoveryCodes: string[] }> {
  const row = await totpRow(deps.db, caller.id);
  if (!row.totpKey) throw new AppError("TWO_FACTOR_OFF");
  await requireCode(deps, caller.id, code, { recoveryAllowed: false });
  const recoveryCodes = newRecoveryCodes();
  await deps.db.batch([...replaceRecoveryCodes(deps.db, caller.id, recoveryCodes)]);
  return { recoveryCodes };
}
