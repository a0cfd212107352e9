/** createSandbox: which backend SANDBOX picks, and the refusals (unsafe-local in production, nothing installed). */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, INSTALL_HINT, type SandboxOptions } from "./index.ts";

const work = mkdtempSync(join(tmpdir(), "oj-select-"));
// The box uids must be able to traverse SANDBOX_ROOT's ancestors.
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const config = (o: Partial<SandboxOptions>): SandboxOptions => ({
  mode: "auto",
  dataDir: join(work, "data"),
  root: join(work, "boxes"),
  boxIdStart: 840,
  boxIdCount: 4,
  poolSize: 1,
  isolateBin: "isolate",
  production: false,
  ...o,
});

describe("createSandbox", () => {
  test("unsafe-local is refused when NODE_ENV=production, and says what to install", async () => {
    const logs: string[] = [];
    const sel = await createSandbox(config({ mode: "unsafe-local", production: true }), (m) => logs.push(m), { buildPch: false });
    expect(sel.backend).toBeNull();
    expect(sel.name).toBe("none");
    expect(sel.reason).toContain("refused");
    expect(sel.reason).toContain(INSTALL_HINT);
    expect(logs.join("\n")).toContain("refused");
  });

  test("unsafe-local outside production runs code and warns loudly", async () => {
    const logs: string[] = [];
    const sel = await createSandbox(config({ mode: "unsafe-local" }), (m) => logs.push(m), { buildPch: false });
    expect(sel.name).toBe("unsafe-local");
    expect(logs.join("\n")).toContain("WARNING");
    const box = await sel.backend!.acquire();
    try {
      const r = await box.run({ argv: ["/bin/echo", "local"], cpuTimeLimitMs: 1000, wallTimeLimitMs: 2000, memoryLimitKib: 65536, processLimit: 4, outputLimitBytes: 1024, fileSizeLimitKib: 1024 });
      expect(r.status).toBe("OK");
      expect(r.stdout).toBe("local\n");
    } finally {
      await sel.backend!.release(box);
      await sel.backend!.close();
    }
  });

  test("an explicitly chosen backend that is missing gives none with the reason, not a fallback", async () => {
    const sel = await createSandbox(config({ mode: "isolate", isolateBin: "/nonexistent/isolate" }), () => {}, { buildPch: false });
    expect(sel.backend).toBeNull();
    expect(sel.name).toBe("none");
    expect(sel.reason).toContain("isolate not found");
    expect(sel.reason).toContain("apt install bubblewrap");
  });

  test("auto falls back from a missing isolate to a working bwrap", async () => {
    if (!Bun.which("bwrap")) return void expect(Bun.which("bwrap")).toBeNull();
    const logs: string[] = [];
    const sel = await createSandbox(config({ mode: "auto", isolateBin: "/nonexistent/isolate" }), (m) => logs.push(m), { buildPch: false });
    try {
      expect(sel.reason ?? "").not.toContain("no working sandbox");
      expect(sel.name).toBe("bwrap");
      expect(sel.reason).toContain("isolate not found");
      expect(logs.join("\n")).toContain("using bwrap");
    } finally {
      await sel.backend?.close();
    }
  });

  test("bwrap refuses a SANDBOX_ROOT the box users cannot reach, naming the directory", async () => {
    if (process.getuid?.() !== 0 || !Bun.which("bwrap")) return void expect(process.getuid?.() === 0 && Bun.which("bwrap")).toBeFalsy();
    const hidden = mkdtempSync(join(tmpdir(), "oj-hidden-"));
    try {
      const sel = await createSandbox(config({ mode: "bwrap", root: join(hidden, "boxes") }), () => {}, { buildPch: false });
      expect(sel.backend).toBeNull();
      expect(sel.reason).toContain(`ancestor ${hidden} is not searchable`);
    } finally {
      rmSync(hidden, { recursive: true, force: true });
    }
  });
});
