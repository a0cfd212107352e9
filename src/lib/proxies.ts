/**
 * Addresses and CIDR lists of reverse proxies (TRUSTED_PROXIES): parsed once,
 * matched for IPv4, IPv6 and IPv4-mapped IPv6 peers.
 */
import { BlockList, isIP } from "node:net";

/** A parsed list of proxies: what matches, and the list as configured (for messages). */
export interface ProxyList {
  list: BlockList;
  cidrs: string[];
}

/**
 * Parses `10.0.0.0/8, ::1/128, 127.0.0.1` (an address alone is /32 or /128).
 * @throws Error naming `variable` and the bad entry.
 */
export function parseProxyList(value: string, variable: string): ProxyList {
  const cidrs = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [addr, bits] = cidr.split("/");
    const family = isIP(addr ?? "");
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
      throw new Error(`${variable}: "${cidr}" is not an address or CIDR (e.g. 10.0.0.0/8, ::1/128)`);
    }
    list.addSubnet(addr!, prefix, family === 6 ? "ipv6" : "ipv4");
  }
  return { list, cidrs };
}

/** Whether `address` (IPv4, IPv6 or IPv4-mapped IPv6) is in `proxies`. */
export function isTrustedProxy(proxies: BlockList, address: string | null): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped?.[1] ?? (address.includes(":") ? null : address);
  if (v4) return isIP(v4) === 4 && proxies.check(v4, "ipv4");
  return isIP(address) === 6 && proxies.check(address, "ipv6");
}

/** Whether an address is loopback (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopback(ip: string): boolean {
  return ip === "::1" || /^127\.\d+\.\d+\.\d+$/.test(ip) || /^::ffff:127\.\d+\.\d+\.\d+$/i.test(ip);
}
