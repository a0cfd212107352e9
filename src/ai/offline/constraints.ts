/**
 * Reads the numbers out of a problem's free-text constraints ("1 ≤ N ≤ 2·10^5,
 * |a_i| ≤ 10^9") so the offline reviewer can weigh loops and integer types
 * against them. Heuristic by nature: what it cannot read it leaves out.
 */

export interface ConstraintBounds {
  /** Largest bound on a size-like variable (N, M, Q, K, |s|, length), or null when none was found. */
  sizeMax: number | null;
  /** Largest bound of any kind (values included), or null. */
  valueMax: number | null;
  /** Name of the variable `sizeMax` came from, as written (e.g. "N"). */
  sizeName: string | null;
}

const NUM =
  String.raw`(?:\d+(?:\.\d+)?\s*(?:\*|·|×|x|\\cdot|\\times)\s*)?10\s*(?:\^|\*\*)\s*\{?\s*\d+\s*\}?` +
  String.raw`|\d+(?:\.\d+)?[eE]\+?\d+|\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?: \d{3})+(?!\d)|\d+`;
const VAR = String.raw`\|[^|\n]{1,20}\||[A-Za-z][\w]*(?:\s*\[[^\]\n]{1,10}\]|_\{?[\w]+\}?)?`;
const LE = String.raw`(?:<=|≤|=<|⩽|\\leq?|<)`;
const BOUND = new RegExp(String.raw`(${VAR})\s*${LE}\s*(${NUM})`, "g");

/** Size-like names: counts and lengths rather than values. */
const SIZE_NAME = /^(n|m|q|k|l|len|length|size|v|e|\|[a-z]\|)$/i;

/**
 * Parses one numeric expression of a constraints text.
 * @example parseNumber("2·10^5") // 200000
 * @example parseNumber("1e18")   // 1e18
 */
export function parseNumber(text: string): number | null {
  const t = text.replace(/\s+/g, "");
  let m = /^(?:(\d+(?:\.\d+)?)(?:\*|·|×|x|\\cdot|\\times))?10(?:\^|\*\*)\{?(\d+)\}?$/.exec(t);
  if (m) return (m[1] ? Number(m[1]) : 1) * 10 ** Number(m[2]);
  m = /^(\d+(?:\.\d+)?)[eE]\+?(\d+)$/.exec(t);
  if (m) return Number(m[1]) * 10 ** Number(m[2]);
  const plain = t.replace(/,/g, "");
  return /^\d+$/.test(plain) ? Number(plain) : null;
}

/**
 * @param constraints  the problem's constraints text
 * @returns the largest size-like and overall bounds found
 * @example parseConstraints("1 <= N <= 2*10^5, |a_i| <= 10^9") // { sizeMax: 200000, valueMax: 1e9, sizeName: "N" }
 */
export function parseConstraints(constraints: string): ConstraintBounds {
  let sizeMax: number | null = null;
  let sizeName: string | null = null;
  let valueMax: number | null = null;
  for (const m of constraints.matchAll(BOUND)) {
    const name = m[1]!.replace(/\s+/g, "");
    const value = parseNumber(m[2]!);
    if (value === null) continue;
    valueMax = Math.max(valueMax ?? 0, value);
    if (SIZE_NAME.test(name) && (sizeMax === null || value > sizeMax)) {
      sizeMax = value;
      sizeName = name;
    }
  }
  return { sizeMax, valueMax, sizeName };
}

/** Readable power-of-ten form for reviews: 200000 → "2·10^5", 1000 → "1000". */
export function formatBound(n: number): string {
  if (n < 10_000) return String(n);
  const exp = Math.floor(Math.log10(n));
  const mant = n / 10 ** exp;
  const m = Number.isInteger(mant) ? String(mant) : mant.toFixed(1).replace(/\.0$/, "");
  return m === "1" ? `10^${exp}` : `${m}·10^${exp}`;
}
