/**
 * lib/dates.ts, the client's one date formatter, and the rule that keeps it
 * the only one: no other client file formats a date (toLocale*String,
 * Intl.DateTimeFormat / RelativeTimeFormat, Date's own text methods or field
 * getters, or dayjs imported directly).
 */
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import deLocale from "dayjs/esm/locale/de.js";
import {
  dateLocale,
  formatAuto,
  formatDate,
  formatDateTime,
  formatDay,
  formatMonth,
  formatRelative,
  fromLocalInput,
  isoOf,
  RELATIVE_MAX_AGE_MS,
  setDateLocale,
  setDateZone,
  toLocalInput,
  yearOf,
  zoneOffsetLabel,
} from "./dates.ts";

const T = "2026-03-09T22:00:00.000Z"; // 23:00 in Berlin (CET, +01:00), 18:00 in New York (EDT from Mar 8)

afterEach(() => {
  setDateZone("UTC");
  setDateLocale("en");
});

test("absolute dates in the viewer's zone, with the offset on request", () => {
  setDateZone("Europe/Berlin");
  expect(formatDateTime(T)).toBe("Mar 9, 2026 11:00 PM");
  expect(formatDateTime(T, { withZone: true })).toBe("Mar 9, 2026 11:00 PM (GMT+01:00)");
  expect(formatDate(T)).toBe("Mar 9, 2026");
  expect(zoneOffsetLabel(T)).toBe("GMT+01:00");
  setDateZone("America/New_York");
  expect(formatDateTime(T, { withZone: true })).toBe("Mar 9, 2026 6:00 PM (GMT-04:00)");
  // ms and Date read the same as ISO text.
  expect(formatDateTime(Date.parse(T))).toBe(formatDateTime(new Date(T)));
});

test("the year turns at the viewer's midnight, not UTC's", () => {
  setDateZone("Pacific/Auckland");
  expect(yearOf("2026-12-31T12:00:00Z")).toBe(2027);
  setDateZone("UTC");
  expect(yearOf("2026-12-31T12:00:00Z")).toBe(2026);
});

test("relative form: minutes ago, hours ahead; absolute past a week", () => {
  const now = Date.parse(T);
  expect(formatRelative(now - 3 * 60_000, now)).toBe("3 minutes ago");
  expect(formatRelative(now + 2 * 3_600_000, now)).toBe("in 2 hours");
  expect(formatRelative(now - 10_000, now)).toBe("a few seconds ago");
  expect(formatAuto(now - 3 * 60_000, now)).toBe("3 minutes ago");
  expect(formatAuto(now - RELATIVE_MAX_AGE_MS - 60_000, now)).toBe(formatDateTime(now - RELATIVE_MAX_AGE_MS - 60_000));
});

test("the viewer's locale words and formats", () => {
  setDateLocale(deLocale.name);
  expect(dateLocale()).toBe("de");
  setDateZone("Europe/Berlin");
  expect(formatDateTime(T)).toBe("9. März 2026 23:00");
  expect(formatRelative(Date.parse(T) - 3 * 60_000, Date.parse(T))).toBe("vor 3 Minuten");
});

test("missing or unreadable values read as a dash", () => {
  expect(formatDateTime(null)).toBe("—");
  expect(formatDateTime(undefined)).toBe("—");
  expect(formatDateTime("not a date")).toBe("—");
  expect(formatRelative("")).toBe("—");
});

test("datetime-local values round-trip in the viewer's zone", () => {
  setDateZone("Europe/Berlin");
  expect(toLocalInput(T)).toBe("2026-03-09T23:00:00");
  expect(isoOf(fromLocalInput("2026-03-09T23:00:00")!)).toBe(T);
  expect(toLocalInput(null)).toBe("");
  expect(fromLocalInput("")).toBeNull();
});

/** What formats a date outside lib/dates.ts. Numbers keep Intl.NumberFormat. */
const FORBIDDEN: { pattern: RegExp; what: string }[] = [
  { pattern: /\.toLocale(Date|Time)?String\s*\(/, what: "toLocaleString / toLocaleDateString / toLocaleTimeString" },
  { pattern: /Intl\s*\.\s*(DateTimeFormat|RelativeTimeFormat)/, what: "Intl.DateTimeFormat / RelativeTimeFormat" },
  { pattern: /\.to(UTC|GMT|Date|Time)String\s*\(/, what: "Date's own text (toUTCString, toDateString, ...)" },
  { pattern: /\.get(UTC)?(FullYear|Month|Date|Day|Hours|Minutes|Seconds)\s*\(/, what: "Date field getters" },
  { pattern: /from\s+["']dayjs(\/[^"']*)?["']|import\(\s*["']dayjs/, what: "dayjs imported directly" },
];
const ALLOWED = new Set(["lib/dates.ts", "lib/date-locale.ts", "lib/dates.test.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

test("no client file formats a date except lib/dates.ts (use it or components/DateTime.tsx)", () => {
  const root = join(import.meta.dir, "..");
  const offences: string[] = [];
  for (const file of sourceFiles(root)) {
    const rel = relative(root, file);
    if (ALLOWED.has(rel)) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        for (const { pattern, what } of FORBIDDEN) if (pattern.test(line)) offences.push(`client/src/${rel}:${i + 1}: ${what}: ${line.trim()}`);
      });
  }
  expect(offences).toEqual([]);
});

test("the guard itself catches each way of formatting a date", () => {
  const samples = [
    "new Date(x).toLocaleString()",
    "d.toLocaleDateString('en')",
    "new Intl.DateTimeFormat('en').format(d)",
    "d.toUTCString()",
    "d.getFullYear()",
    'import dayjs from "dayjs";',
  ];
  for (const s of samples) expect(FORBIDDEN.some(({ pattern }) => pattern.test(s))).toBe(true);
  expect(FORBIDDEN.some(({ pattern }) => pattern.test("new Intl.NumberFormat().format(n)"))).toBe(false);
});

test("a calendar day reads as that day in every zone (never shifted), in the locale's words", () => {
  for (const zone of ["UTC", "Pacific/Kiritimati", "America/Los_Angeles"]) {
    setDateZone(zone);
    expect(formatDay("2026-03-29")).toBe("Mar 29, 2026");
    expect(formatMonth("2026-03-29")).toBe("Mar");
  }
  expect(formatDay("not a day")).toBe("—");
});
