/**
 * The isolate backend's box quota (review N3) and rlimit-mode memory rule
 * (N7), on the real isolate builds of the test command: each box is a
 * size-limited tmpfs of its own, a killed server's leftover box mounts do not
 * stop the next start, and a backend that cannot mount one refuses to start
 * saying how to fix it. The programs' side (ENOSPC in /box and /tmp, the host's
 * disk untouched, JS and PyPy memory) is the contract suite's.
 * Box ids 3950–3953 (+ each build's offset: 3970…, 3990…).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { boxFilesOverMemoryLimit, resultFromMeta } from "./backends/isolate-args.ts";
import { boxFsSource, mountsAt } from "./backends/isolate-boxfs.ts";
import { createIsolateBackend } from "./backends/isolate.ts";
import { getLanguage } from "./languages/index.ts";
import { isolateCandidates } from "./test-backends.ts";
import type { SandboxBackend } from "./types.ts";

const FIRST_BOX = 3950;
const TMPFS_MAGIC = 0x01021994;
const MIB = 1024;

describe("rlimit mode: memory above the limit is MLE (review N7)", () => {
  const io = { stdout: "", stderr: "", stdoutTruncated: false, isolateStderr: "" };
  const req = { memoryLimitKib: 128 * MIB, cpuTimeLimitMs: 1000 };
  const meta = (rssKib: number) => `time:0.100\ntime-wall:0.200\nmax-rss:${rssKib}\nexitcode:0\n`;
  test("a program that ended by itself with a peak resident size above the limit is MLE where its address space was bounded", () => {
    expect(resultFromMeta(0, meta(800 * MIB), req, io, { rssOverLimitIsMle: true }).status).toBe("MLE");
    expect(resultFromMeta(0, meta(100 * MIB), req, io, { rssOverLimitIsMle: true }).status).toBe("OK");
    // Not asked (cgroup mode, or a runtime bounded otherwise): as before.
    expect(resultFromMeta(0, meta(800 * MIB), req, io).status).toBe("OK");
  });
  test("isolate 1.x refusing a memory limit below what the box's files hold is recognised (MLE, not XX)", () => {
    expect(boxFilesOverMemoryLimit("Cannot set /sys/fs/cgroup/memory/box-820/memory.limit_in_bytes to 134217728\n: Device or resource busy\n")).toBe(true);
    expect(boxFilesOverMemoryLimit("Cannot run proxy, clone failed: Operation not permitted")).toBe(false);
  });
  test("JavaScript and PyPy get an address-space bound of their limit plus a measured reserve", () => {
    const limits = { cpuTimeLimitMs: 1000, wallTimeLimitMs: 2000, memoryLimitKib: 64 * MIB, processLimit: 16, outputLimitBytes: 1 << 20, fileSizeLimitKib: 1024 };
    const js = getLanguage("js").runCommand("main.js", limits).limits;
    expect(js.addressSpaceLimit).not.toBe(false);
    // 64 + 64 MiB of Node's own, 1 GiB reserved, 16 threads of 64 MiB stacks.
    expect(js.addressSpaceLimitKib).toBe(128 * MIB + 1024 * MIB + 16 * 64 * MIB);
    const pypy = getLanguage("pypy").runCommand("main.py", limits);
    expect(pypy.limits.addressSpaceLimit).not.toBe(false);
    expect(pypy.limits.addressSpaceLimitKib).toBe(64 * MIB + 128 * MIB + 64 * MIB);
    expect(pypy.env?.PYPY_GC_MAX).toBe("64MB");
    // The nursery is fixed, not half the host's cache (240 MiB where /proc/cpuinfo reports 480 MiB).
    expect(pypy.env?.PYPY_GC_NURSERY).toBe("4MB");
  });
});

for (const candidate of isolateCandidates()) {
  describe(`box quota: ${candidate.label}`, () => {
    if (candidate.missing || !candidate.bin) {
      test.skip(`SKIPPED, ${candidate.missing}`, () => {});
      return;
    }
    const bin = candidate.bin;
    const start = FIRST_BOX + candidate.boxIdOffset;
    let backend: SandboxBackend | null = null;
    afterAll(async () => {
      await backend?.close();
    });

    test("every box is a tmpfs of its own, bounded in bytes and files, gone after release", async () => {
      backend = await createIsolateBackend({ isolateBin: bin, boxIdStart: start, boxIdCount: 2, poolSize: 2, boxFs: { sizeMib: 32, inodes: 500 } });
      expect(backend.description).toContain("32 MiB / 500-file tmpfs per box");
      const box = await backend.acquire();
      const dir = (box as unknown as { dir: string }).dir;
      const boxDir = join(dir, "..");
      const st = statfsSync(boxDir);
      expect(st.type).toBe(TMPFS_MAGIC);
      expect(st.blocks * st.bsize).toBe(32 * 1024 * 1024);
      expect(st.files).toBe(500);
      expect(mountsAt(boxDir)).toBe(1);
      await backend.release(box);
      expect(mountsAt(boxDir)).toBe(0);
      await backend.close();
      backend = null;
    });

    test("a box mount left by a killed server is cleared at start, so the box can be made again", async () => {
      // What a server killed mid-submission leaves: the box's tmpfs still mounted over isolate's box directory.
      const id = start + 2;
      const init = Bun.spawnSync([bin, `--box-id=${id}`, "--init"], { stderr: "pipe" });
      const boxDir = init.stdout.toString().trim();
      expect(boxDir).toMatch(new RegExp(`/${id}$`));
      expect(Bun.spawnSync(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=1m", boxFsSource(id), boxDir]).exitCode).toBe(0);
      mkdirSync(join(boxDir, "box"));
      try {
        backend = await createIsolateBackend({ isolateBin: bin, boxIdStart: id, boxIdCount: 1, poolSize: 1 });
        const box = await backend.acquire();
        const r = await box.run({ argv: ["/bin/sh", "-c", "echo hi > /box/f && cat /box/f"], cpuTimeLimitMs: 1000, wallTimeLimitMs: 20_000, memoryLimitKib: 64 * MIB, processLimit: 4, outputLimitBytes: 1024, fileSizeLimitKib: 1024 });
        expect(r.status).toBe("OK");
        expect(r.stdout).toBe("hi\n");
        // One mount: the leftover was removed, not stacked under the new one.
        expect(mountsAt(boxDir)).toBe(1);
        await backend.release(box);
      } finally {
        await backend?.close();
        backend = null;
        while (mountsAt(boxDir) > 0) Bun.spawnSync(["/usr/bin/umount", "-l", boxDir]);
        Bun.spawnSync([bin, `--box-id=${id}`, "--cleanup"]);
      }
    });

    test("without the right to mount (no CAP_SYS_ADMIN) the backend refuses to start, saying how to fix it", () => {
      // The same process as root but with CAP_SYS_ADMIN out of its bounding set: isolate's --init
      // still works, mounting the box's tmpfs does not.
      const script = `import { createIsolateBackend } from ${JSON.stringify(join(import.meta.dir, "backends/isolate.ts"))};
try { const b = await createIsolateBackend({ isolateBin: ${JSON.stringify(bin)}, boxIdStart: ${start + 3}, boxIdCount: 1, poolSize: 1 }); await b.close(); console.log("STARTED"); }
catch (err) { console.log("REFUSED " + err.message); }`;
      const r = Bun.spawnSync(["/usr/bin/setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin", process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
      const out = r.stdout.toString();
      expect(out, r.stderr.toString()).toStartWith("REFUSED ");
      expect(out).toContain("size-limited file system");
      expect(out).toContain("CAP_SYS_ADMIN");
      expect(out).toContain("docs/sandbox.md");
      // Nothing is left mounted or initialised for that box.
      expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(` ${boxFsSource(start + 3)} `);
    });
  });
}
