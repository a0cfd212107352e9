/**
 * The catalogues are complete and agree with English (issue 34 §2): every
 * namespace has a catalogue for every locale; each has exactly English's keys;
 * every message is valid ICU MessageFormat with the same placeholders,
 * plural/select arguments and markup tags as English (plural categories may
 * differ by language, `other` is always there); and every English key is used
 * somewhere in the client (as a string literal: keys are never built at run time).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse, type Token } from "@messageformat/parser";
import { LOCALE_TAGS } from "../../../src/i18n/locales.ts";

const CATALOG = join(import.meta.dir, "catalog");
const CLIENT = join(import.meta.dir, "..");
const namespaces = readdirSync(CATALOG).filter((d) => statSync(join(CATALOG, d)).isDirectory());

function read(ns: string, locale: string): Record<string, string> {
  return JSON.parse(readFileSync(join(CATALOG, ns, `${locale}.json`), "utf8"));
}

/** What must match between languages: placeholders (with their type), select/plural arguments, and markup tag numbers. */
export function shapeOf(message: string): string[] {
  const out = new Set<string>();
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === "content") for (const m of t.value.matchAll(/<\/?(\d+)\/?>/g)) out.add(`tag:${m[0]}`);
      else if (t.type === "argument") out.add(`arg:${t.arg}`);
      else if (t.type === "function") out.add(`fn:${t.arg}:${t.key}`);
      else if (t.type === "plural" || t.type === "select" || t.type === "selectordinal") {
        out.add(`${t.type}:${t.arg}`);
        if (t.type === "select") for (const c of t.cases) out.add(`case:${t.arg}:${c.key}`);
        for (const c of t.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return [...out].sort();
}

function pluralsHaveOther(message: string): boolean {
  let ok = true;
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === "plural" || t.type === "select" || t.type === "selectordinal") {
        if (!t.cases.some((c) => c.key === "other")) ok = false;
        for (const c of t.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return ok;
}

function clientSources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "catalog") clientSources(path, out);
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

test("there are namespaces", () => {
  expect(namespaces.length).toBeGreaterThan(0);
});

describe.each(namespaces)("namespace %s", (ns) => {
  const en = read(ns, "en");

  test("English messages are valid ICU and plurals have `other`", () => {
    for (const [key, message] of Object.entries(en)) {
      expect(() => parse(message), `${ns}.${key}`).not.toThrow();
      expect(pluralsHaveOther(message), `${ns}.${key} has a plural or select without "other"`).toBe(true);
    }
  });

  test.each(LOCALE_TAGS.filter((l) => l !== "en"))("%s has English's keys, and each message English's placeholders", (locale) => {
    const files = readdirSync(join(CATALOG, ns));
    expect(files, `catalog/${ns}/${locale}.json is missing`).toContain(`${locale}.json`);
    const other = read(ns, locale);
    const missing = Object.keys(en).filter((k) => !(k in other));
    const extra = Object.keys(other).filter((k) => !(k in en));
    expect(missing, `keys missing in ${ns}/${locale}.json`).toEqual([]);
    expect(extra, `keys in ${ns}/${locale}.json that English lacks`).toEqual([]);
    for (const [key, message] of Object.entries(other)) {
      expect(typeof message, `${ns}/${locale}.json "${key}"`).toBe("string");
      let shape: string[] = [];
      expect(() => (shape = shapeOf(message)), `${ns}/${locale}.json "${key}" is not valid ICU`).not.toThrow();
      expect(shape, `${ns}/${locale}.json "${key}": placeholders, arguments or tags differ from English`).toEqual(shapeOf(en[key]!));
      expect(pluralsHaveOther(message), `${ns}/${locale}.json "${key}" has a plural or select without "other"`).toBe(true);
      if (en[key]!.trim() !== "") expect(message.trim(), `${ns}/${locale}.json "${key}" is empty`).not.toBe("");
    }
  });

  test("every key is used in the client", () => {
    const literals = new Set<string>();
    for (const file of clientSources(CLIENT)) for (const m of readFileSync(file, "utf8").matchAll(/["'`]([A-Za-z0-9_.]+)["'`]/g)) literals.add(m[1]!);
    const unused = Object.keys(en).filter((k) => !literals.has(k));
    expect(unused, `keys of ${ns} no client file names`).toEqual([]);
  });
});
