/**
 * The bwrap backend's launches made in advance (gate.ts, docs/decisions/034):
 * after a run, the box's next sandbox is set up for the same request and waits
 * at its gate. Through the real sandbox: a warm run behaves exactly like a cold
 * one, a launch made for another request never runs, a box handed to a new
 * holder shows nothing of the old one, and close() leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOX_UID_BASE, createBwrapBackend, type BwrapRunTimings } from "./backends/bwrap.ts";
import { launchKey } from "./backends/gate.ts";
import type { Box, RunRequest, SandboxBackend } from "./types.ts";

const hasBwrap = Bun.which("bwrap") !== null;
const isRoot = process.getuid?.() === 0;
const BOX_ID_START = 3700;
const work = mkdtempSync(join(tmpdir(), "oj-warm-test-"));
chmodSync(work, 0o755);

const base: Omit<RunRequest, "argv"> = {
  cpuTimeLimitMs: 2000,
  wallTimeLimitMs: 4000,
  memoryLimitKib: 256 * 1024,
  processLimit: 16,
  outputLimitBytes: 1 << 20,
  fileSizeLimitKib: 4096,
};
const sh = (script: string, extra: Partial<RunRequest> = {}): RunRequest => ({ ...base, argv: ["/bin/sh", "-c", script], ...extra });

/**
 * Live processes of the box uids (root: each box has its own uid). Zombies are
 * left out: a killed sandbox's pid 1 is collected by the host's init, which may
 * take a few seconds.
 */
function boxUidProcesses(): number[] {
  const uids = new Set([0, 1, 2, 3].map((i) => BOX_UID_BASE + BOX_ID_START + i));
  const found: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const status = readFileSync(`/proc/${d}/status`, "utf8");
      const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      if (/^State:\s+Z/m.test(status)) continue;
      if (uid && uids.has(Number(uid))) found.push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

describe.skipIf(!hasBwrap)("bwrap: launches made in advance", () => {
  let backend: SandboxBackend;
  const timings: BwrapRunTimings[] = [];
  /** Runs `req` in `box` and returns the result with whether it used a launch made in advance. */
  const runIn = async (box: Box, req: RunRequest) => {
    const n = timings.length;
    const result = await box.run(req);
    // The timings arrive with the clean-up, after the result: wait for them.
    for (let i = 0; i < 200 && timings.length === n; i++) await Bun.sleep(5);
    return { result, warm: timings[timings.length - 1]!.warm };
  };

  beforeAll(async () => {
    backend = await createBwrapBackend({
      root: join(work, "boxes"),
      boxIdStart: BOX_ID_START,
      boxIdCount: 4,
      poolSize: 1,
      onRunTimings: (t) => timings.push(t),
    });
  });
  afterAll(async () => {
    await backend?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test("the launch key ignores stdin, the wall-time and output limits, and nothing else", () => {
    const r = sh("cat");
    expect(launchKey({ ...r, stdin: "other", wallTimeLimitMs: 9, outputLimitBytes: 1, stderrLimitBytes: 2 })).toBe(launchKey(r));
    for (const change of [
      { argv: ["/bin/sh", "-c", "cat -"] },
      { env: { A: "1" } },
      { cpuTimeLimitMs: 2001 },
      { memoryLimitKib: 1024 },
      { processLimit: 17 },
      { fileSizeLimitKib: 1 },
      { stackLimitKib: 8 },
      { addressSpaceLimit: false },
    ] as Partial<RunRequest>[]) {
      expect(launchKey({ ...r, ...change })).not.toBe(launchKey(r));
    }
    expect(launchKey({ ...r, env: { A: "1", B: "2" } })).toBe(launchKey({ ...r, env: { B: "2", A: "1" } }));
  });

  test("the second run of a request uses the launch made after the first, and reads its own stdin", async () => {
    const box = await backend.acquire();
    try {
      // pid 2 in its pid namespace (bwrap's reaper is 1), cold or warm.
      const first = await runIn(box, sh("cat; echo \" pid=$$\""));
      const second = await runIn(box, { ...sh("cat; echo \" pid=$$\""), stdin: "second input" });
      const big = "x".repeat(200 * 1024) + "\n";
      const third = await runIn(box, { ...sh("cat; echo \" pid=$$\""), stdin: big });
      expect(first.warm).toBe(false);
      expect(second.warm).toBe(true);
      expect(third.warm).toBe(true);
      expect(first.result.stdout).toBe(" pid=2\n");
      expect(second.result.stdout).toBe("second input pid=2\n");
      // Bigger than the synchronous write: written through the I/O pool before the gate opens.
      expect(third.result.stdout).toBe(`${big} pid=2\n`);
      for (const r of [first, second, third]) expect(r.result.status).toBe("OK");
    } finally {
      await backend.release(box);
    }
  });

  test("limits hold the same through a warm launch: CPU time, wall time, memory, exit codes", async () => {
    const box = await backend.acquire();
    try {
      const spin = sh("while :; do :; done", { cpuTimeLimitMs: 300, wallTimeLimitMs: 3000 });
      const sleepy = sh("sleep 2", { wallTimeLimitMs: 400 });
      const hog = { ...base, argv: ["/usr/bin/python3", "-c", "x = bytearray(200 * 1024 * 1024); print(len(x))"], memoryLimitKib: 64 * 1024 };
      const exit3 = sh("echo out; echo err >&2; exit 3");
      for (const [req, check] of [
        [spin, (r: Awaited<ReturnType<typeof runIn>>["result"]) => (expect(r.status).toBe("TLE"), expect(r.tleKind).toBe("cpu"), expect(r.cpuTimeMs).toBeGreaterThanOrEqual(300))],
        [sleepy, (r: Awaited<ReturnType<typeof runIn>>["result"]) => (expect(r.status).toBe("TLE"), expect(r.tleKind).toBe("wall"), expect(r.wallTimeMs).toBeLessThan(1500))],
        [hog, (r: Awaited<ReturnType<typeof runIn>>["result"]) => expect(r.status).toBe("MLE")],
        [exit3, (r: Awaited<ReturnType<typeof runIn>>["result"]) => (expect(r.status).toBe("RE"), expect(r.exitCode).toBe(3), expect(r.stdout).toBe("out\n"), expect(r.stderr).toBe("err\n"))],
      ] as const) {
        const cold = await runIn(box, req);
        const warm = await runIn(box, req);
        expect([cold.warm, warm.warm]).toEqual([false, true]);
        check(cold.result);
        check(warm.result);
      }
    } finally {
      await backend.release(box);
    }
  });

  test("a warm run's wall time starts at its gate, not at its launch", async () => {
    const box = await backend.acquire();
    try {
      const req = sh("sleep 0.2");
      await runIn(box, req);
      // The launch made in advance waits at its gate meanwhile. Had its clock started at the launch, the run's wall
      // time would be at least this wait plus the sleep, longer than the whole run() call measured from here.
      await Bun.sleep(1500);
      const calledAt = performance.now();
      const warm = await runIn(box, req);
      const callMs = performance.now() - calledAt;
      expect(warm.warm).toBe(true);
      expect(warm.result.status).toBe("OK");
      expect(warm.result.wallTimeMs).toBeGreaterThanOrEqual(190);
      // No fixed ceiling (a loaded CI machine stretches every run): the clock started no earlier than the call.
      expect(warm.result.wallTimeMs).toBeLessThanOrEqual(callMs + 5);
    } finally {
      await backend.release(box);
    }
  });

  test("a launch made for one request never runs when another request comes", async () => {
    const box = await backend.acquire();
    try {
      const append = sh("echo ran >> /box/log; wc -l < /box/log");
      expect((await runIn(box, append)).result.stdout.trim()).toBe("1");
      // The launch made for `append` waits at its gate; this different request discards it.
      const other = await runIn(box, sh("sleep 0.1; cat /box/log"));
      expect(other.warm).toBe(false);
      expect(other.result.stdout).toBe("ran\n");
      const again = await runIn(box, sh("sleep 0.1; cat /box/log"));
      expect(again.warm).toBe(true);
      expect(again.result.stdout).toBe("ran\n");
    } finally {
      await backend.release(box);
    }
  });

  test("the next holder of a box sees nothing of the previous one, also through a launch made for it", async () => {
    const ls = sh("ls -A /box /tmp /dev/shm; echo done");
    let box = await backend.acquire();
    await box.writeFile("secret.txt", "previous holder");
    await runIn(box, sh("echo t > /tmp/t; echo s > /dev/shm/s; ls -A /box /tmp /dev/shm > /dev/null"));
    await runIn(box, ls);
    await backend.release(box);
    box = await backend.acquire();
    try {
      const r = await runIn(box, ls);
      expect(r.warm).toBe(true);
      expect(r.result.stdout).toBe("/box:\n\n/dev/shm:\n\n/tmp:\ndone\n");
    } finally {
      await backend.release(box);
    }
  });

  test.skipIf(!isRoot)("a launch killed while it waits is replaced by a cold one (root only)", async () => {
    const box = await backend.acquire();
    try {
      const req = sh("echo fine");
      await runIn(box, req);
      await Bun.sleep(100);
      for (const pid of boxUidProcesses()) process.kill(pid, "SIGKILL");
      await Bun.sleep(100);
      const r = await runIn(box, req);
      expect(r.warm).toBe(false);
      expect(r.result.status).toBe("OK");
      expect(r.result.stdout).toBe("fine\n");
    } finally {
      await backend.release(box);
    }
  });

  test.skipIf(!isRoot)("close() ends the waiting launches and removes their cgroups and files (root only)", async () => {
    const box = await backend.acquire();
    await runIn(box, sh("true"));
    await backend.release(box);
    await Bun.sleep(100);
    expect(boxUidProcesses().length).toBeGreaterThan(0); // the launch made in advance waits
    await backend.close();
    for (let i = 0; i < 100 && boxUidProcesses().length > 0; i++) await Bun.sleep(10);
    expect(boxUidProcesses()).toEqual([]);
    const prefix = `box-${BOX_ID_START}-`;
    for (const ctrl of ["memory", "pids", "cpuacct", ""]) {
      const dir = join("/sys/fs/cgroup", ctrl, "oj-sandbox");
      if (!existsSync(dir)) continue;
      const stale = readdirSync(dir).filter((n) => n.startsWith(prefix));
      expect(stale).toEqual([]);
    }
    expect(readdirSync(join(work, "boxes", "run")).filter((n) => n.startsWith(prefix))).toEqual([]);
  });
});
