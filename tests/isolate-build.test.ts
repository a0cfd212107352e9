/**
 * scripts/build-isolate.ts against the vendored isolate sources: each
 * version builds from its tarball into a folder of its own, with the
 * configuration compiled in (its own box root, lock root and sandbox uids),
 * and a second build with the same source and configuration is kept. Skipped,
 * saying why, where the vendored sources or root are absent.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildIsolate, findVendorDir } from "../scripts/build-isolate.ts";

const vendor = findVendorDir();
const skip = process.getuid?.() !== 0 ? "isolate needs root" : vendor ? null : "the vendored isolate sources (../shared/vendor) are not here";
// Not under /tmp: the box root and its ancestors should be root's alone.
const prefix = skip ? "" : mkdtempSync("/var/lib/oj-isolate-build-test-");
afterAll(() => {
  if (prefix) rmSync(prefix, { recursive: true, force: true });
});

describe.skipIf(skip !== null)(`scripts/build-isolate.ts${skip ? ` (SKIPPED: ${skip})` : ""}`, () => {
  for (const version of ["1.10.1", "2.6"]) {
    test(`isolate ${version} builds with its own box root, lock root and uids compiled in`, async () => {
      const dir = join(prefix, version);
      const b = buildIsolate({ source: join(vendor!, `isolate-${version}.tar.gz`), prefix: dir, firstUid: 47000, numBoxes: 10 });
      expect(b.version).toBe(version);
      const config = readFileSync(join(dir, "isolate.cf"), "utf8");
      expect(config).toContain(`box_root = ${join(dir, "boxes")}`);
      expect(config).toContain("first_uid = 47000");
      expect(config).toContain("num_boxes = 10");
      expect(config.includes("lock_root")).toBe(version.startsWith("2."));
      const v = Bun.spawnSync([b.bin, "--version"]);
      expect(v.stdout.toString()).toContain(`The process isolator ${version}`);
      // The compiled-in configuration is the one used: the box lives under our root, and box 10 is out of range.
      const init = Bun.spawnSync([b.bin, "--box-id=3", "--init"]);
      expect(init.stdout.toString().trim()).toBe(join(dir, "boxes", "3"));
      Bun.spawnSync([b.bin, "--box-id=3", "--cleanup"]);
      const out = Bun.spawnSync([b.bin, "--box-id=10", "--init"]);
      expect(out.exitCode).not.toBe(0);
      expect(out.stderr.toString()).toContain("out of range");
      // Unchanged source and configuration: the binary is kept, not rebuilt; another range rebuilds it.
      const built = statSync(b.bin).mtimeMs;
      await Bun.sleep(20);
      buildIsolate({ source: join(vendor!, `isolate-${version}.tar.gz`), prefix: dir, firstUid: 47000, numBoxes: 10 });
      expect(statSync(b.bin).mtimeMs).toBe(built);
      expect(existsSync(join(dir, "src"))).toBe(false);
      buildIsolate({ source: join(vendor!, `isolate-${version}.tar.gz`), prefix: dir, firstUid: 47000, numBoxes: 20 });
      expect(statSync(b.bin).mtimeMs).not.toBe(built);
    }, 60_000);
  }

  test("a uid range that belongs to someone is refused", () => {
    expect(() => buildIsolate({ source: join(vendor!, "isolate-2.6.tar.gz"), prefix: join(prefix, "taken"), firstUid: 0, numBoxes: 10 })).toThrow("are taken: root (0)");
  });
});
