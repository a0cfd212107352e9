/** Config: .env.example lists every key and parses; bad values name the variable. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../src/config.ts";

const root = join(import.meta.dir, "..");

test(".env.example lists every config key, and its values parse", () => {
  const source = readFileSync(join(root, "src", "config.ts"), "utf8");
  const keys = [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
  expect(keys.length).toBeGreaterThan(20);
  const example = Object.fromEntries(
    readFileSync(join(root, ".env.example"), "utf8")
      .split("\n")
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  expect(Object.keys(example).sort()).toEqual([...keys].sort());
  expect(loadConfig(example).PORT).toBe(3000);
});

test("a bad value throws ConfigError naming the variable; empty strings count as unset", () => {
  expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
  expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
  expect(() => loadConfig({ CORS_ORIGINS: "not a url" })).toThrow(/CORS_ORIGINS/);
  expect(() => loadConfig({ DATABASE_URL: "postgres://x" })).toThrow(/DATABASE_URL/);
  expect(loadConfig({ PORT: "", SESSION_SECRET: "  " }).PORT).toBe(3000);
});
