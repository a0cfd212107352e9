/**
 * The exam access rules as pure functions (no database): address ranges,
 * Safe Exam Browser config-key hashes, and a student's timed window with
 * their extra time. The one check that applies them on every request is
 * ./gate.ts; decision 075 explains the choices.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { isTrustedProxy, parseProxyList, type ProxyList } from "../../lib/proxies.ts";

/** Refusal reasons, each naming one rule (the `rule` of an EXAM_REFUSED answer and of the access log). */
export const EXAM_RULES = ["address", "seb", "password", "session", "window", "lockdown", "start"] as const;
export type ExamRule = (typeof EXAM_RULES)[number];

/** Most CIDRs and SEB config keys per assignment or contest. */
export const EXAM_LIST_MAX = 50;

/** Whether `cidr` is an IPv4 or IPv6 address or CIDR (`10.1.0.0/16`, `2001:db8::/32`, `192.0.2.7`). */
export function isCidr(cidr: string): boolean {
  const [addr, bits, extra] = cidr.split("/");
  if (extra !== undefined) return false;
  const family = isIP(addr ?? "");
  if (!family) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 6 ? 128 : 32);
}

const parsed = new Map<string, ProxyList>();
/** A rule's CIDR list parsed once per distinct list (the same matcher as TRUSTED_PROXIES: IPv4, IPv6, IPv4-mapped). */
function rangesOf(cidrs: readonly string[]): ProxyList {
  const key = cidrs.join(",");
  let list = parsed.get(key);
  if (!list) {
    list = parseProxyList(key, "accessCidrs");
    if (parsed.size > 1000) parsed.clear();
    parsed.set(key, list);
  }
  return list;
}

/**
 * Whether the client address (Context.ip: the socket's peer, or X-Forwarded-For from a trusted proxy under
 * TRUST_PROXY) is inside one of `cidrs`. "unknown" is never inside.
 * @example addressAllowed(["10.1.0.0/16"], "::ffff:10.1.2.3") // true
 */
export function addressAllowed(cidrs: readonly string[], ip: string): boolean {
  return isTrustedProxy(rangesOf(cidrs).list, ip === "unknown" ? null : ip);
}

/**
 * The Config Key hash SEB sends for a request: hex SHA-256 of the absolute request URL (without its fragment)
 * followed by the config key (SEB's "Config Key" documentation: `X-SafeExamBrowser-ConfigKeyHash`).
 * @example sebHash("https://judge.example/api/assignments/a1", "f0e1…") // 64 hex digits
 */
export function sebHash(url: string, configKey: string): string {
  return createHash("sha256").update(url.split("#")[0]! + configKey).digest("hex");
}

/** Whether `header` is the SEB hash of `url` with one of `keys` (compared in constant time). */
export function sebHashValid(keys: readonly string[], url: string, header: string | null | undefined): boolean {
  if (!header || !/^[0-9a-fA-F]{64}$/.test(header)) return false;
  const got = Buffer.from(header.toLowerCase(), "hex");
  return keys.some((k) => timingSafeEqual(Buffer.from(sebHash(url, k), "hex"), got));
}

/** A member's extra time (course roster; decision 075). */
export interface ExtraTime {
  extraTimePercent: number;
  extraMinutes: number;
}

export const NO_EXTRA: ExtraTime = { extraTimePercent: 0, extraMinutes: 0 };

/**
 * Extra milliseconds a student's deadlines move by on one assignment (decision 075): minutes on every deadline;
 * the percentage only on a timed window (of its length), where it also moves the close so the whole longer
 * window fits.
 * @example extraMs({ timeLimitMinutes: 90 }, { extraTimePercent: 50, extraMinutes: 0 }) // 2_700_000 (45 minutes)
 */
export function extraMs(a: { timeLimitMinutes: number | null }, x: ExtraTime): number {
  const pct = a.timeLimitMinutes !== null ? Math.round((a.timeLimitMinutes * 60_000 * x.extraTimePercent) / 100) : 0;
  return x.extraMinutes * 60_000 + pct;
}

/**
 * A started student's timed window: from Start for the time limit plus their extra time, ending early at their
 * close (the assignment's close moved by their extra time). ms since the epoch.
 * @param close the student's close (extension and extra time counted), null: none.
 * @example timedEnd(0, 90, 2_700_000, null) // 8_100_000 (135 minutes)
 */
export function timedEnd(startedAtMs: number, timeLimitMinutes: number, extra: number, close: number | null): number {
  const end = startedAtMs + timeLimitMinutes * 60_000 + extra;
  return close === null ? end : Math.min(end, close);
}
