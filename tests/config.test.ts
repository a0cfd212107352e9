/** Config: .env.example lists every key and parses; bad values name the variable. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, exitOnConfigError, loadConfig } from "../src/config.ts";

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

test("exitOnConfigError: a ConfigError prints one message naming the variable and exits 1; other errors propagate", async () => {
  const printed: string[] = [];
  const codes: number[] = [];
  const exit = (code: number): never => {
    codes.push(code);
    throw new Error("exited");
  };
  const saved = console.error;
  console.error = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  try {
    await expect(
      exitOnConfigError(() => {
        throw new ConfigError("GEMINI_API_KEY: required when AI_PROVIDER=gemini");
      }, exit),
    ).rejects.toThrow("exited");
    await expect(exitOnConfigError(() => loadConfig({ PORT: "eighty" }), exit)).rejects.toThrow("exited");
  } finally {
    console.error = saved;
  }
  expect(codes).toEqual([1, 1]);
  expect(printed[0]).toBe("Invalid configuration:\n  GEMINI_API_KEY: required when AI_PROVIDER=gemini");
  // loadConfig's own message already has the headline: not repeated.
  expect(printed[1]).toStartWith("Invalid configuration:\n  PORT:");
  expect(printed[1]!.match(/Invalid configuration/g)).toHaveLength(1);
  // Not a ConfigError: rethrown untouched, nothing printed, no exit.
  await expect(exitOnConfigError(() => Promise.reject(new TypeError("boom")), exit)).rejects.toThrow(TypeError);
  expect(await exitOnConfigError(async () => 42, exit)).toBe(42);
  expect(codes).toEqual([1, 1]);
});
