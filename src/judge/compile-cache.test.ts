import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompileCache, type CompiledEntry } from "./compile-cache.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "oj-cc-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function entry(bytes: number, name = "main"): CompiledEntry {
  return {
    ok: true,
    diagnostics: "warning: unused",
    sourceFile: "main.cpp",
    files: [{ name, mode: 0o755, content: new Uint8Array(bytes).fill(7) }],
  };
}

describe("CompileCache", () => {
  test("the key covers language, flags and code", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    const k = cache.key("cpp", ["-O2"], "int main(){}");
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(cache.key("cpp", ["-O2"], "int main(){}")).toBe(k);
    expect(cache.key("cpp", ["-O0"], "int main(){}")).not.toBe(k);
    expect(cache.key("java", ["-O2"], "int main(){}")).not.toBe(k);
    expect(cache.key("cpp", ["-O2"], "int main(){ }")).not.toBe(k);
    // flags are not concatenated ambiguously
    expect(cache.key("cpp", ["-O2", "x"], "")).not.toBe(cache.key("cpp", ["-O2x"], ""));
  });

  test("put then get round-trips files, modes and diagnostics", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    const e = entry(1000);
    await cache.put("ab".repeat(32), e);
    const got = await cache.get("ab".repeat(32));
    expect(got).not.toBeNull();
    expect(got!.ok).toBe(true);
    expect(got!.diagnostics).toBe("warning: unused");
    expect(got!.sourceFile).toBe("main.cpp");
    expect(got!.files[0]!.mode).toBe(0o755);
    expect(Buffer.from(got!.files[0]!.content).equals(Buffer.from(e.files[0]!.content))).toBe(true);
    expect(await cache.get("cd".repeat(32))).toBeNull();
  });

  test("getOrCompile compiles once for the same key, also when concurrent", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    let compiles = 0;
    const compile = async () => {
      compiles++;
      await Bun.sleep(30);
      return { entry: entry(100), cacheable: true };
    };
    const key = cache.key("cpp", [], "x");
    const [a, b] = await Promise.all([cache.getOrCompile(key, compile), cache.getOrCompile(key, compile)]);
    expect(compiles).toBe(1);
    expect([a.hit, b.hit].sort()).toEqual([false, true]);
    const c = await cache.getOrCompile(key, compile);
    expect(c.hit).toBe(true);
    expect(compiles).toBe(1);
  });

  test("a compile error is cached too, a non-cacheable result is not", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    let compiles = 0;
    const ce = async () => {
      compiles++;
      return { entry: { ok: false, diagnostics: "error: expected ';'", files: [], sourceFile: "main.cpp" }, cacheable: true };
    };
    const k1 = cache.key("cpp", [], "bad");
    await cache.getOrCompile(k1, ce);
    const again = await cache.getOrCompile(k1, ce);
    expect(again.entry.ok).toBe(false);
    expect(again.entry.diagnostics).toContain("expected ';'");
    expect(compiles).toBe(1);

    const flaky = async () => {
      compiles++;
      return { entry: { ok: false, diagnostics: "compiler timed out", files: [], sourceFile: "main.cpp" }, cacheable: false };
    };
    const k2 = cache.key("cpp", [], "slow");
    await cache.getOrCompile(k2, flaky);
    await cache.getOrCompile(k2, flaky);
    expect(compiles).toBe(3);
  });

  test("evicts least recently used entries beyond the size bound", async () => {
    const cache = await CompileCache.open(dir, 3000);
    await cache.put("01".repeat(32), entry(900));
    await Bun.sleep(5);
    await cache.put("02".repeat(32), entry(900));
    await Bun.sleep(5);
    expect(await cache.get("01".repeat(32))).not.toBeNull(); // touch 01: 02 is now the oldest
    await Bun.sleep(5);
    await cache.put("03".repeat(32), entry(900));
    expect(cache.sizeBytes).toBeLessThanOrEqual(3000);
    expect(await cache.get("02".repeat(32))).toBeNull();
    expect(await cache.get("01".repeat(32))).not.toBeNull();
    expect(await cache.get("03".repeat(32))).not.toBeNull();
    expect(cache.stats.evictions).toBe(1);
  });

  test("an entry larger than the whole bound is not stored", async () => {
    const cache = await CompileCache.open(dir, 1000);
    await cache.put("04".repeat(32), entry(5000));
    expect(await cache.get("04".repeat(32))).toBeNull();
    expect(cache.sizeBytes).toBe(0);
  });

  test("reopening indexes existing entries, applies the bound and removes debris", async () => {
    const first = await CompileCache.open(dir, 1 << 20);
    await first.put("05".repeat(32), entry(900));
    await Bun.sleep(5);
    await first.put("06".repeat(32), entry(900));
    mkdirSync(join(dir, "tmp-123-abc"));
    mkdirSync(join(dir, "07", "07".repeat(32)), { recursive: true });
    writeFileSync(join(dir, "07", "07".repeat(32), "meta.json"), "{broken");

    const second = await CompileCache.open(dir, 1500);
    expect(second.sizeBytes).toBeLessThanOrEqual(1500);
    expect(await second.get("05".repeat(32))).toBeNull();
    expect(await second.get("06".repeat(32))).not.toBeNull();
    expect(readdirSync(dir).some((n) => n.startsWith("tmp-"))).toBe(false);
    expect(readdirSync(join(dir, "07"))).toEqual([]);
  });

  test("a damaged artifact is a miss, not an error", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    const key = "08".repeat(32);
    await cache.put(key, entry(100));
    writeFileSync(join(dir, "08", key, "f0"), "short");
    expect(await cache.get(key)).toBeNull();
  });
});

describe("CompileCache background writes", () => {
  test("the caller has its entry at once; identical requests share it until it is on disk; settled() waits for the write", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    let compiles = 0;
    const compile = async () => {
      compiles++;
      return { entry: entry(100), cacheable: true };
    };
    const key = cache.key("py", [], "print(1)");
    const first = await cache.getOrCompile(key, compile);
    expect(first).toMatchObject({ hit: false, entry: { ok: true } });
    // Right away (the write may still be going on): no second compile.
    const second = await cache.getOrCompile(key, compile);
    expect(second.hit).toBe(true);
    await cache.settled();
    expect(await cache.get(key)).not.toBeNull();
    expect((await cache.getOrCompile(key, compile)).hit).toBe(true);
    expect(compiles).toBe(1);
    expect(cache.stats.writeErrors).toBe(0);
  });

  test("a failed write costs only a later compile, never the caller's result", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    const key = cache.key("cpp", [], "int main(){}");
    // A file where the entry's shard directory must go: the write fails.
    writeFileSync(join(dir, key.slice(0, 2)), "in the way");
    let compiles = 0;
    const compile = async () => {
      compiles++;
      return { entry: entry(100), cacheable: true };
    };
    expect((await cache.getOrCompile(key, compile)).entry.ok).toBe(true);
    await cache.settled();
    expect(cache.stats.writeErrors).toBe(1);
    expect((await cache.getOrCompile(key, compile)).hit).toBe(false);
    expect(compiles).toBe(2);
  });

  test("a compile that throws reaches every waiting caller and caches nothing", async () => {
    const cache = await CompileCache.open(dir, 1 << 20);
    const key = cache.key("cpp", [], "boom");
    const failing = async (): Promise<{ entry: CompiledEntry; cacheable: boolean }> => {
      await Bun.sleep(20);
      throw new Error("box write failed");
    };
    const [a, b] = await Promise.allSettled([cache.getOrCompile(key, failing), cache.getOrCompile(key, failing)]);
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("rejected");
    await cache.settled();
    expect(await cache.get(key)).toBeNull();
  });
});
