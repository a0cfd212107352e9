/**
 * The sandbox contract suite: one list of hostile and ordinary programs, run
 * against every real backend present on this machine: bwrap, and isolate —
 * installed, or built by the test command from the vendored sources (1.10.1
 * with control groups on a cgroup v1 host, 2.6 in rlimit mode; 2.6 with
 * control groups on cgroup v2) — otherwise its block is skipped with the
 * reason in its name. Every case also proves that nothing it started survives the
 * run (no process carrying the case's marker is left on the host).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSource, runProgram, type Artifact } from "./exec.ts";
import { getLanguage } from "./languages/index.ts";
import { runConnected } from "./pipes.ts";
import { backendCandidates, processesWithMarker } from "./test-backends.ts";
import type { Box, RunRequest, RunResult, SandboxBackend } from "./types.ts";

// Ordinary cases finish in tens of milliseconds of CPU; the wall limit is far above what a slow, busy
// machine needs (cases that expect a wall-time TLE set their own), so no verdict depends on the load.
const LIMITS = {
  cpuTimeLimitMs: 1000,
  wallTimeLimitMs: 20_000,
  memoryLimitKib: 128 * 1024,
  processLimit: 16,
  outputLimitBytes: 1024 * 1024,
  fileSizeLimitKib: 1024,
} satisfies Omit<RunRequest, "argv">;

const SECRET = `oj-secret-${crypto.randomUUID()}`;
// The server's own environment carries a secret the box must never see.
process.env.OJ_CONTRACT_SECRET = SECRET;

/** One C++ program with a behaviour per first word of stdin: one compile, many cases. */
const CPP_MODES = String.raw`
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>
#include <vector>
#include <stdexcept>
#include <string>
#include <unistd.h>
static double threadCpu() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int deep(int n) { volatile char pad[512]; pad[0] = (char)n; return deep(n + 1) + pad[0]; }
int main() {
  char mode[32] = {0};
  if (scanf("%31s", mode) != 1) return 99;
  std::string m = mode;
  if (m == "hello") { printf("hello, world\n"); return 0; }
  if (m == "spin") { volatile unsigned long x = 0; for (;;) x++; }
  if (m == "work2") {
    // Two threads, 300 ms of CPU each: the reported CPU time must count both.
    std::vector<std::thread> ts;
    for (int i = 0; i < 2; i++) ts.emplace_back([] { volatile unsigned long x = 0; while (threadCpu() < 0.3) x++; });
    for (auto& t : ts) t.join();
    printf("done\n");
    return 0;
  }
  if (m == "spin4") {
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; i++) ts.emplace_back([] { volatile unsigned long x = 0; for (;;) x++; });
    for (auto& t : ts) t.join();
  }
  if (m == "mem") {
    std::vector<char*> keep;
    for (int i = 0; i < 4096; i++) { char* p = (char*)malloc(1 << 20); if (!p) return 42; memset(p, i, 1 << 20); keep.push_back(p); }
    printf("survived\n");
    return 0;
  }
  if (m == "recurse") return deep(0);
  if (m == "exit3") return 3;
  if (m == "throw") throw std::runtime_error("boom");
  if (m == "flood") { static char buf[65536]; memset(buf, 'x', sizeof buf); for (;;) fwrite(buf, 1, sizeof buf, stdout); }
  if (m == "sleep") { sleep(30); return 0; }
  if (m == "bigfile") {
    // No SIGXFSZ handler: the write past the file-size limit kills the program.
    FILE* f = fopen("big", "wb"); static char buf[65536]; memset(buf, 'z', sizeof buf);
    for (;;) fwrite(buf, 1, sizeof buf, f);
  }
  if (m == "forkbomb") { for (;;) fork(); }
  if (m == "threads") {
    // Sleeping threads until creation fails; prints how many were made.
    int n = 0;
    try { for (; n < 10000; n++) std::thread([] { sleep(5); }).detach(); } catch (...) {}
    printf("%d\n", n); fflush(stdout); _exit(0);
  }
  if (m == "daemon") {
    if (fork() == 0) { setsid(); if (fork() == 0) { sleep(60); _exit(0); } _exit(0); }
    printf("parent done\n");
    return 0;
  }
  return 98;
}
`;

const JAVA_MODES = String.raw`
import java.util.*;

public class Solution {
    static int deep(int n) { return deep(n + 1) + 1; }
    public static void main(String[] args) throws Exception {
        Scanner in = new Scanner(System.in);
        String mode = in.next();
        switch (mode) {
            case "hello": System.out.println("hello, world"); break;
            case "throw": throw new IllegalStateException("boom");
            case "mem": { List<long[]> keep = new ArrayList<>(); while (true) keep.add(new long[1 << 20]); }
            case "recurse": System.out.println(deep(0)); break;
            case "spin": { long x = 0; while (true) x++; }
            case "exit3": System.exit(3);
            case "sleep": Thread.sleep(30_000); break;
            case "flood": { String line = "x".repeat(4095); while (true) System.out.println(line); }
            case "threads": {
                // Sleeping threads until the JVM cannot start another; prints how many were made.
                int n = 0;
                try {
                    for (; n < 10_000; n++) { Thread t = new Thread(() -> { try { Thread.sleep(5_000); } catch (InterruptedException e) { } }); t.setDaemon(true); t.start(); }
                } catch (Throwable e) { }
                System.out.println(n);
                System.exit(0);
            }
            default: System.exit(98);
        }
    }
}
`;

/** Runs a Python snippet directly (no compile step) with a marker in its argv. */
function py(code: string, marker: string): string[] {
  return ["/usr/bin/python3", "-B", "-I", "-c", code, marker];
}

/** The whole result as one line, for an assertion's message: a rare failure names its cause. */
function resultText(r: RunResult): string {
  return JSON.stringify({ ...r, stdout: r.stdout.slice(0, 200), stderr: r.stderr.slice(0, 500) });
}

async function expectNoLeftovers(marker: string): Promise<void> {
  // The backend has returned: anything still alive would be an escape. Give the kernel a moment to reap.
  for (let i = 0; i < 50; i++) {
    if ((await processesWithMarker(marker)).length === 0) return;
    await Bun.sleep(20);
  }
  expect(await processesWithMarker(marker)).toEqual([]);
}

for (const candidate of backendCandidates()) {
  if (candidate.missing) {
    describe(`contract: ${candidate.label}`, () => {
      test.skip(`SKIPPED, ${candidate.missing}`, () => {});
    });
    continue;
  }

  describe(`contract: ${candidate.label}`, () => {
    let backend: SandboxBackend;
    let box: Box;
    let other: Box;
    let work: string;
    let listener: { stop(closeActive?: boolean): void } | null = null;
    let connections = 0;
    let port = 0;

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), "oj-contract-"));
      backend = await candidate.create({ boxIdStart: candidate.name === "isolate" ? 800 + candidate.boxIdOffset : 810 });
      box = await backend.acquire();
      other = await backend.acquire();
      for (let p = 39000 + (process.pid % 50); p < 39100 && !listener; p++) {
        try {
          listener = Bun.listen({
            hostname: "127.0.0.1",
            port: p,
            socket: {
              open() {
                connections++;
              },
              data() {},
            },
          });
          port = p;
        } catch {
          // port taken: try the next
        }
      }
    });

    afterAll(async () => {
      listener?.stop(true);
      if (backend) {
        await backend.release(box);
        await backend.release(other);
        await backend.close();
      }
      rmSync(work, { recursive: true, force: true });
    });

    const run = async (argv: string[], extra: Partial<RunRequest> = {}): Promise<RunResult> =>
      box.run({ ...LIMITS, ...extra, argv });

    describe("ordinary programs", () => {
      test("hello world in python is OK with its output and measurements", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const r = await run(py("print('hello, world')", marker));
        expect(r.status).toBe("OK");
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toBe("hello, world\n");
        expect(r.wallTimeMs).toBeGreaterThan(0);
        expect(r.memoryKib).toBeGreaterThan(0);
        await expectNoLeftovers(marker);
      });

      test("stdin reaches the program and stderr is kept apart", async () => {
        const r = await run(py("import sys; d=sys.stdin.read(); print(d.upper(), end=''); print('note', file=sys.stderr)", "m"), {
          stdin: "abc\ndef\n",
        });
        expect(r.status).toBe("OK");
        expect(r.stdout).toBe("ABC\nDEF\n");
        expect(r.stderr).toBe("note\n");
      });

      test("a file written into the box is readable by the program and its output file by the runner", async () => {
        await box.writeFile("in.txt", "41");
        const r = await run(py("open('out.txt','w').write(str(int(open('in.txt').read())+1))", "m"));
        expect(r.status).toBe("OK");
        expect(new TextDecoder().decode((await box.readFile("out.txt"))!)).toBe("42");
        expect(await box.listFiles!()).toEqual(["in.txt", "out.txt"]);
        expect(await box.readFile("absent.txt")).toBeNull();
      });
    });

    describe("two boxes connected by pipes", () => {
      const req = (code: string, marker: string, extra: Partial<RunRequest> = {}) => ({ ...LIMITS, ...extra, argv: py(code, marker) });
      // The peer asks for numbers and checks the answers (a validator's shape); the program answers.
      const PEER = [
        "import sys",
        "for i in range(200):",
        "    print(i, flush=True)",
        "    if int(sys.stdin.readline()) != 2 * i: sys.exit(43)",
        "print(-1, flush=True)",
        "sys.exit(42)",
      ].join("\n");
      const PROGRAM = [
        "import os, sys",
        "print(sorted(os.listdir('/proc/self/fd')), file=sys.stderr)",
        "for line in sys.stdin:",
        "    n = int(line)",
        "    if n < 0: break",
        "    print(2 * n, flush=True)",
      ].join("\n");

      test("a program and its peer talk through the pipes; each sees only its own stdin, stdout and stderr", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const r = await runConnected({ box, req: req(PROGRAM, marker) }, { box: other, req: req(PEER, marker) });
        expect(r.peer.exitCode, resultText(r.peer)).toBe(42);
        expect(r.program.status, resultText(r.program)).toBe("OK");
        expect(r.program.stdout).toBe("");
        // 0, 1, 2 and the descriptor listdir itself opens: nothing of the runner's.
        expect(JSON.parse(r.program.stderr.trim().replace(/'/g, '"')).length).toBeLessThanOrEqual(4);
        expect(r.program.cpuTimeMs).toBeLessThan(LIMITS.cpuTimeLimitMs);
        await expectNoLeftovers(marker);
      });

      test("the transcript records the exchange in order, up to its limit", async () => {
        const r = await runConnected({ box, req: req(PROGRAM, "m") }, { box: other, req: req(PEER, "m") }, { transcript: { limitBytes: 20 } });
        expect(r.peer.exitCode, resultText(r.peer)).toBe(42);
        expect(r.transcript!.entries.slice(0, 4)).toEqual([
          { from: "peer", text: "0\n" },
          { from: "program", text: "0\n" },
          { from: "peer", text: "1\n" },
          { from: "program", text: "2\n" },
        ]);
        expect(r.transcript!.truncated).toBe(true);
      });

      test("a peer that rejects and leaves ends first; the program's later writes break its pipe", async () => {
        const peer = "import sys\nprint(5, flush=True)\nsys.stdin.readline()\nsys.exit(43)";
        const program = "import signal, sys, time\nsignal.signal(signal.SIGPIPE, signal.SIG_DFL)\nsys.stdin.readline()\nprint('wrong', flush=True)\ntime.sleep(0.3)\nwhile True: print('more', flush=True)";
        const r = await runConnected({ box, req: req(program, "m") }, { box: other, req: req(peer, "m") });
        expect(r.peer.exitCode).toBe(43);
        expect(r.peerEndedFirst).toBe(true);
        expect(r.program.signal, resultText(r.program)).toBe(13);
      });

      test("a program that never answers and a peer that waits: the program's wall limit ends both", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        // The peer's own wall limit is far away: it ends by reading EOF once the program is killed
        // (exit 43, not TLE), which proves the program's limit ended both however slow the machine.
        const r = await runConnected(
          { box, req: req("import time\ntime.sleep(30)", marker, { wallTimeLimitMs: 1000 }) },
          { box: other, req: req("import sys\nprint(1, flush=True)\nsys.exit(42 if sys.stdin.readline() else 43)", marker, { wallTimeLimitMs: 25_000 }) },
        );
        expect(r.program.status).toBe("TLE");
        expect(r.peer.status, resultText(r.peer)).toBe("RE");
        expect(r.peer.exitCode).toBe(43);
        expect(r.peerEndedFirst).toBe(false);
        await expectNoLeftovers(marker);
      });

      test("a program that leaves early does not kill a peer still writing (no SIGPIPE for the peer)", async () => {
        const peer = "import sys\nfor i in range(100000):\n    try: sys.stdout.write('x' * 100 + '\\n')\n    except BrokenPipeError: sys.exit(7)\nsys.exit(42)";
        const r = await runConnected(
          { box, req: req("print('bye')", "m") },
          { box: other, req: req(peer, "m", { wallTimeLimitMs: 1500 }) },
        );
        expect(r.program.status).toBe("OK");
        // Blocked on a full pipe nobody reads (never a broken pipe): ended by its own wall limit.
        expect(r.peer.status, resultText(r.peer)).toBe("TLE");
      });
    });

    describe("C++ through compileSource/runProgram", () => {
      let artifacts: Artifact[] = [];
      let entry = "";
      beforeAll(async () => {
        const c = await compileSource(box, "cpp", CPP_MODES);
        if (!c.ok) throw new Error(`C++ test program did not compile: ${c.result.status} ${c.diagnostics}`);
        artifacts = c.artifacts;
        entry = c.entry;
      });
      // Wall limits are generous so that a loaded CI machine still ends CPU-bound cases by their CPU limit.
      const cpp = (
        mode: string,
        over: { timeLimitMs?: number; wallTimeLimitMs?: number; memoryLimitKib?: number; outputLimitBytes?: number; fileSizeLimitKib?: number } = {},
      ) =>
        runProgram(other, "cpp", {
          entry,
          artifacts,
          stdin: `${mode}\n`,
          timeLimitMs: over.timeLimitMs ?? 1000,
          wallTimeLimitMs: over.wallTimeLimitMs ?? 10_000,
          ...(over.fileSizeLimitKib ? { fileSizeLimitKib: over.fileSizeLimitKib } : {}),
          memoryLimitKib: over.memoryLimitKib ?? 128 * 1024,
          outputLimitBytes: over.outputLimitBytes ?? 1024 * 1024,
        });

      test("hello world → OK", async () => {
        const r = await cpp("hello");
        expect(r.status).toBe("OK");
        expect(r.stdout).toBe("hello, world\n");
      });
      test("busy loop → TLE (cpu), killed near the limit", async () => {
        const r = await cpp("spin");
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("cpu");
        expect(r.cpuTimeMs).toBeGreaterThanOrEqual(1000);
        // Killed by the poller within a few of its periods, not at the wall limit.
        expect(r.cpuTimeMs).toBeLessThan(1500);
      });
      // rlimit mode (no control groups: isolate 2.x on a cgroup v1 host) limits memory as address
      // space, and glibc reserves each thread's stack (RLIMIT_STACK) in it: threads of a C++
      // program may fail to start there. The contract names that, as the backend's description does.
      const addressSpace = candidate.memory === "address-space";
      test.skipIf(addressSpace)("two busy threads → CPU time summed over threads", async () => {
        const r = await cpp("work2", { timeLimitMs: 3000 });
        expect(r.status).toBe("OK");
        expect(r.cpuTimeMs).toBeGreaterThanOrEqual(550);
      });
      test.skipIf(addressSpace)("four spinning threads → TLE (cpu) once their sum reaches the limit", async () => {
        const r = await cpp("spin4");
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("cpu");
      });
      // This bomb checks malloc's result and exits 42 on NULL: where memory is address space
      // (rlimit mode), the failed allocation is the program's own RE (std::bad_alloc would be MLE).
      test(`memory bomb → MLE${addressSpace ? " (rlimit mode: malloc's NULL → the program's RE, never OK)" : ""}`, async () => {
        const r = await cpp("mem", { memoryLimitKib: 64 * 1024 });
        if (addressSpace) expect(["MLE", "RE"]).toContain(r.status);
        else expect(r.status).toBe("MLE");
      });
      test("infinite recursion → SG (stack overflow) or MLE, never OK", async () => {
        const r = await cpp("recurse", { memoryLimitKib: 64 * 1024 });
        expect(["SG", "MLE"]).toContain(r.status);
      });
      test("non-zero exit → RE with its code", async () => {
        const r = await cpp("exit3");
        expect(r.status).toBe("RE");
        expect(r.exitCode).toBe(3);
      });
      test("uncaught exception → SG (abort)", async () => {
        const r = await cpp("throw");
        expect(r.status).toBe("SG");
        expect(r.signal).toBe(6);
        expect(r.stderr).toContain("boom");
      });
      test("output flood → OLE with the output capped at the limit", async () => {
        const r = await cpp("flood", { outputLimitBytes: 100_000 });
        expect(r.status).toBe("OLE");
        expect(r.stdoutTruncated).toBe(true);
        expect(r.stdout.length).toBe(100_000);
      });
      test("sleeping → TLE (wall), killed at the wall limit", async () => {
        const r = await cpp("sleep", { wallTimeLimitMs: 1000 });
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("wall");
        // Killed at its wall limit, not at the end of its sleep (a busy machine may add a little).
        expect(r.wallTimeMs).toBeLessThan(10_000);
      });
      test("a huge file is stopped by the file-size limit (SIGXFSZ)", async () => {
        const r = await cpp("bigfile", { fileSizeLimitKib: 1024 });
        expect(r.status).toBe("SG");
        expect(r.signal).toBe(25);
        expect((await other.readFile("big"))!.length).toBeLessThanOrEqual(1024 * 1024);
      });

      // The program is started by hand with a marker argument (it ignores its argv), so that
      // whatever it forks can be looked for on the host afterwards.
      const cppMarked = (mode: string, marker: string, extra: Partial<RunRequest> = {}) =>
        other.run({ ...LIMITS, cpuTimeLimitMs: 1000, wallTimeLimitMs: 4000, ...extra, argv: ["./prog", marker], stdin: `${mode}\n` });

      test("fork bomb is contained, leaves nothing behind, and the host still spawns", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const r = await cppMarked("forkbomb", marker);
        // MLE too: a box's memory cgroup is charged the kernel's memory of every fork (task
        // structures, page tables); isolate 1.10 on cgroup v1 measured ~100 MiB within 600 ms of
        // a 16-process bomb, and a CI machine crossed 128 MiB in 74 ms. Never OK, never an escape.
        expect(["TLE", "RE", "SG", "MLE"]).toContain(r.status);
        await expectNoLeftovers(marker);
        expect(Bun.spawnSync(["/bin/true"]).exitCode).toBe(0);
      });
      test("thread bomb is capped by the process limit", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const r = await cppMarked("threads", marker, { processLimit: 16 });
        expect(r.status).toBe("OK");
        expect(Number(r.stdout)).toBeGreaterThan(0);
        expect(Number(r.stdout)).toBeLessThan(16);
        await expectNoLeftovers(marker);
      });
      test("a process that daemonises (setsid, exit 0) is gone after the run", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const r = await cppMarked("daemon", marker);
        expect({ status: r.status, stdout: r.stdout }, resultText(r)).toEqual({ status: "OK", stdout: "parent done\n" });
        await expectNoLeftovers(marker);
      });
    });

    describe("Java through compileSource/runProgram (sparingly: JVM start is slow)", () => {
      let artifacts: Artifact[] = [];
      let entry = "";
      beforeAll(async () => {
        const c = await compileSource(box, "java", JAVA_MODES);
        if (!c.ok) throw new Error(`Java test program did not compile: ${c.result.status} ${c.diagnostics}`);
        artifacts = c.artifacts;
        entry = c.entry;
      });
      // The JVM's start takes a few hundred ms of CPU over its threads, and seconds of wall time on a busy
      // machine: limits far above both, so only the cases meant to be TLE are (they set their own).
      const java = (mode: string, memoryLimitKib = 128 * 1024, over: { timeLimitMs?: number; wallTimeLimitMs?: number; outputLimitBytes?: number } = {}) =>
        runProgram(other, "java", { entry, artifacts, stdin: `${mode}\n`, timeLimitMs: over.timeLimitMs ?? 5000, wallTimeLimitMs: 30_000, memoryLimitKib, ...over });

      test("the file is named after the public class; hello world → OK", async () => {
        expect(entry).toBe("Solution.java");
        const r = await java("hello");
        expect(r.status).toBe("OK");
        expect(r.stdout).toBe("hello, world\n");
      });
      test("uncaught exception → RE with the stack trace on stderr", async () => {
        const r = await java("throw");
        expect(r.status).toBe("RE");
        expect(r.exitCode).toBe(1);
        expect(r.stderr).toContain("IllegalStateException");
      });
      test("heap bomb → MLE (not mistaken for the JVM's reservations)", async () => {
        const r = await java("mem", 64 * 1024);
        expect(r.status).toBe("MLE");
      });
      test("deep recursion → RE (StackOverflowError)", async () => {
        const r = await java("recurse");
        expect(r.status).toBe("RE");
        expect(r.stderr).toContain("StackOverflowError");
      });
      test("non-zero exit → RE with its code", async () => {
        const r = await java("exit3");
        expect(r.status).toBe("RE");
        expect(r.exitCode).toBe(3);
      });
      test("busy loop → TLE (cpu)", async () => {
        const r = await java("spin", 128 * 1024, { timeLimitMs: 1000, wallTimeLimitMs: 10_000 });
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("cpu");
      });
      test("sleeping → TLE (wall)", async () => {
        const r = await java("sleep", 128 * 1024, { wallTimeLimitMs: 1500 });
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("wall");
      });
      test("thread bomb is capped by the process limit (the JVM's own threads plus the program's)", async () => {
        const r = await java("threads");
        expect(r.status).toBe("OK");
        // Only the program's own output: the JVM's warnings about the failed thread go to stderr.
        expect(r.stdout).toMatch(/^\d+\n$/);
        expect(Number(r.stdout)).toBeGreaterThan(0);
        // runProgram allows RUN_DEFAULTS.processLimit (16) plus JVM_THREADS (48) tasks.
        expect(Number(r.stdout)).toBeLessThan(16 + 48);
      });
      test("output flood → OLE, capped", async () => {
        const r = await java("flood", 128 * 1024, { outputLimitBytes: 300_000 });
        expect(r.status).toBe("OLE");
        expect(r.stdoutTruncated).toBe(true);
        expect(r.stdout.length).toBe(300_000);
      });
    });

    describe("Python", () => {
      test("busy loop → TLE (cpu)", async () => {
        const r = await run(py("while True: pass", "m"), { wallTimeLimitMs: 10_000 });
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("cpu");
      });
      test("sleeping → TLE (wall)", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const r = await run(py("import time; time.sleep(30)", marker), { wallTimeLimitMs: 1000 });
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("wall");
        // Killed at its wall limit, not at the end of its sleep (a busy machine may add a little).
        expect(r.wallTimeMs).toBeLessThan(10_000);
        await expectNoLeftovers(marker);
      });
      test("blocking on a read that never ends → TLE (wall)", async () => {
        const r = await run(py("import os; r, w = os.pipe(); os.read(r, 1)", "m"), { wallTimeLimitMs: 1000 });
        expect(r.status).toBe("TLE");
        expect(r.tleKind).toBe("wall");
      });
      test("memory bomb → MLE", async () => {
        const r = await run(py("x = b'x' * (1 << 30); print(len(x))", "m"), { memoryLimitKib: 64 * 1024 });
        // With cgroups the OOM killer ends it (MLE); under rlimits alone Python raises MemoryError (RE; runProgram maps it to MLE).
        expect(r.status === "MLE" || (r.status === "RE" && r.stderr.includes("MemoryError"))).toBe(true);
      });
      test("deep recursion → RE (RecursionError)", async () => {
        const r = await run(py("def f(n): return f(n + 1) + 1\nf(0)", "m"));
        expect(r.status).toBe("RE");
        expect(r.stderr).toContain("RecursionError");
      });
      test("non-zero exit → RE with its code; uncaught exception → RE", async () => {
        const a = await run(py("import sys; sys.exit(7)", "m"));
        expect(a.status).toBe("RE");
        expect(a.exitCode).toBe(7);
        const b = await run(py("raise ValueError('nope')", "m"));
        expect(b.status).toBe("RE");
        expect(b.exitCode).toBe(1);
        expect(b.stderr).toContain("ValueError: nope");
      });
      test("output flood → OLE, capped", async () => {
        const r = await run(py("import sys\nwhile True: sys.stdout.write('y' * 65536)", "m"), { outputLimitBytes: 200_000 });
        expect(r.status).toBe("OLE");
        expect(r.stdoutTruncated).toBe(true);
        expect(r.stdout.length).toBe(200_000);
      });
    });

    // Review N7: memory is bounded in every mode. In rlimit mode Node and PyPy get an address space of
    // the limit plus what their runtimes reserve (isolate/languages/js.ts, pypy.ts), and a peak resident
    // size above the limit is MLE there; with a cgroup the cgroup stops them.
    describe("memory in every mode: JavaScript and PyPy", () => {
      const limits = { timeLimitMs: 10_000, wallTimeLimitMs: 60_000, memoryLimitKib: 64 * 1024, outputLimitBytes: 1 << 20 };
      const judge = async (language: "js" | "pypy", code: string, stdin = "") => {
        const c = await compileSource(box, language, code);
        if (!c.ok) throw new Error(`${language} did not compile: ${c.result.status} ${c.diagnostics}`);
        return runProgram(box, language, { entry: c.entry, artifacts: c.artifacts, stdin, ...limits });
      };
      test("JavaScript taking 768 MiB of Buffers under a 64 MiB limit → MLE; adding two numbers → OK", async () => {
        const bomb = await judge("js", "const keep = [];\nfor (let i = 0; i < 48; i++) keep.push(Buffer.alloc(16 << 20, 1));\nconsole.log('survived', keep.length);\n");
        expect(bomb.status, resultText(bomb)).toBe("MLE");
        const small = await judge("js", getLanguage("js").selfTest.code, "40 2\n");
        expect(small.status, resultText(small)).toBe("OK");
        expect(small.stdout).toBe("42\n");
      });
      test("PyPy touching an mmap of 768 MiB under a 64 MiB limit → MLE; adding two numbers → OK", async () => {
        const bomb = await judge("pypy", "import mmap\nm = mmap.mmap(-1, 768 << 20)\nfor i in range(0, len(m), 4096):\n    m[i] = 1\nprint('survived')\n");
        expect(bomb.status, resultText(bomb)).toBe("MLE");
        const small = await judge("pypy", getLanguage("pypy").selfTest.code, "40 2\n");
        expect(small.status, resultText(small)).toBe("OK");
        expect(small.stdout).toBe("42\n");
      });
    });

    describe("files and quotas", () => {
      test("a huge file is stopped by the file-size limit", async () => {
        const r = await run(py("f = open('big', 'wb')\nwhile True: f.write(b'z' * 65536)", "m"), { fileSizeLimitKib: 1024 });
        // Python ignores SIGXFSZ, so the write fails with EFBIG (RE); C programs die of SIGXFSZ (SG).
        expect(["RE", "SG"]).toContain(r.status);
        expect(r.status === "RE" ? r.stderr : "File too large").toMatch(/File too large|EFBIG|27/);
        expect((await box.readFile("big"))!.length).toBeLessThanOrEqual(1024 * 1024);
      });
      // Every box's files are bounded (review N3): bwrap as root and isolate give each box a tmpfs of
      // its own (256 MiB, 4096 files; isolate's also holds its /tmp and /dev/shm); bwrap's /tmp is a
      // 64 MiB tmpfs per run. Only bwrap as an ordinary user has none (docs/sandbox.md), so it is skipped
      // there. These programs count what they made rather than racing a clock: their CPU limits are
      // far above what the work takes (about 0.1 s), so a slow or busy machine changes nothing.
      const quotas = !(candidate.name === "bwrap" && process.getuid?.() !== 0);
      const roomy = { cpuTimeLimitMs: 20_000, wallTimeLimitMs: 60_000 };
      const manyFiles = (dir: string) =>
        `import os\nn = 0\ntry:\n    while n < 20000:\n        open('${dir}/f%d' % n, 'w').close(); n += 1\nexcept OSError as e:\n    print('stopped', n, e.errno)\nelse:\n    print('created', n)`;
      /** Writes 16 MiB chunks to files in `dir` until a write fails or `mib` are written; prints what it wrote. */
      const bigFiles = (dir: string, mib: number) =>
        `import os\nchunk = b'z' * (16 << 20)\nn = 0\ntry:\n    while n < ${mib}:\n        with open('${dir}/big%d' % n, 'wb') as f: f.write(chunk)\n        n += 16\nexcept OSError as e:\n    print('stopped', n, e.errno)\nelse:\n    print('wrote', n)`;
      /** Free bytes of the file system holding `path` (statfs). */
      const freeBytes = (path: string) => {
        const st = statfsSync(path);
        return st.bavail * st.bsize;
      };
      /** The box's directory on the host (every backend here keeps it in one). */
      const boxDir = () => (box as unknown as { dir: string }).dir;
      test.skipIf(!quotas)("many files in /box are stopped by the box's inode quota (ENOSPC), and removed they can be made again", async () => {
        const r = await run(py(manyFiles("/box"), "m"), roomy);
        expect(r.stdout, resultText(r)).toMatch(/^stopped \d+ 28\n$/);
        expect(Number(r.stdout.split(" ")[1])).toBeLessThanOrEqual(4096);
        const clean = await run(py("import glob, os\nfor f in glob.glob('/box/f*'): os.remove(f)\nprint(len(glob.glob('/box/f*')))", "m"), roomy);
        expect(clean.stdout).toBe("0\n");
      });
      test.skipIf(!quotas)("many files in /tmp are bounded (the box's inode quota, or bwrap's per-run /tmp charged to the run's memory) and gone after the run", async () => {
        const r = await run(py(manyFiles("/tmp"), "m"), roomy);
        if (candidate.name === "isolate") expect(r.stdout, resultText(r)).toMatch(/^stopped \d+ 28\n$/);
        else expect(["OK", "MLE"]).toContain(r.status);
        const after = await run(py("import os; print(len([f for f in os.listdir('/tmp') if f.startswith('f')]))", "m"), roomy);
        expect(after.stdout).toBe("0\n");
      });
      test.skipIf(!quotas)("writing 1 GiB to /box or /tmp is stopped by the quota (ENOSPC), not on the host's disk", async () => {
        // Memory above the box's 256 MiB, so that in a cgroup (which a tmpfs page is charged to) the quota is what stops it.
        const limits = { ...roomy, fileSizeLimitKib: 1024 * 1024, memoryLimitKib: 512 * 1024 };
        for (const dir of ["/box", "/tmp"]) {
          const hostFree = freeBytes(tmpdir());
          const r = await run(py(bigFiles(dir, 1024), "m"), limits);
          expect(r.stdout, resultText(r)).toMatch(/^stopped \d+ 28\n$/);
          expect(Number(r.stdout.split(" ")[1])).toBeLessThanOrEqual(256);
          // The box is not on the host's disk, and the disk did not lose what the program wrote.
          expect(statSync(boxDir()).dev).not.toBe(statSync(tmpdir()).dev);
          expect(hostFree - freeBytes(tmpdir())).toBeLessThan(256 * 1024 * 1024);
          const clean = await run(py(`import glob, os\nfor f in glob.glob('${dir}/big*'): os.remove(f)`, "m"), limits);
          expect(clean.status, resultText(clean)).toBe("OK");
        }
      });
      test.skipIf(!quotas)("what one run leaves in /box counts against the next run's quota (one bound for a whole submission)", async () => {
        const limits = { ...roomy, fileSizeLimitKib: 1024 * 1024, memoryLimitKib: 512 * 1024 };
        const first = await run(py(bigFiles("/box", 160), "m"), limits);
        expect(first.stdout, resultText(first)).toBe("wrote 160\n");
        const second = await run(py(bigFiles("/box", 160).replaceAll("big%d", "more%d"), "m"), limits);
        expect(second.stdout, resultText(second)).toMatch(/^stopped \d+ 28\n$/);
        expect(Number(second.stdout.split(" ")[1])).toBeLessThan(160);
        // A box's files are memory of the box's control group in isolate's cgroup mode (a tmpfs page is
        // charged to its writer's cgroup, and isolate 1.x keeps one per box): a run whose limit is below
        // what the box holds is MLE there (isolate-args.ts boxFilesOverMemoryLimit), OK elsewhere, never XX.
        const low = await run(py("print('hi')", "m"), { ...roomy, memoryLimitKib: 64 * 1024 });
        expect(["OK", "MLE"], resultText(low)).toContain(low.status);
        if (candidate.name === "isolate" && candidate.memory === "cgroup") expect(low.status).toBe("MLE");
        const clean = await run(py("import glob, os\nfor f in glob.glob('/box/big*') + glob.glob('/box/more*'): os.remove(f)", "m"), limits);
        expect(clean.status, resultText(clean)).toBe("OK");
      });
      test("files written in one run are absent in the next run of another box, and after release", async () => {
        const name = `left-${crypto.randomUUID()}`;
        const w = await run(py(`open('/box/${name}','w').write('x'); open('/tmp/${name}','w').write('x')`, "m"));
        expect(w.status).toBe("OK");
        const r = await other.run({ ...LIMITS, argv: py(`import os; print(os.path.exists('/box/${name}'), os.path.exists('/tmp/${name}'))`, "m") });
        expect(r.stdout).toBe("False False\n");
        // /tmp is private to each run even in the same box.
        const again = await run(py(`import os; print(os.path.exists('/tmp/${name}'))`, "m"));
        expect(again.stdout).toBe("False\n");
        // A released box comes back empty.
        expect((await other.run({ ...LIMITS, argv: py(`open('/box/${name}','w').write('x')`, "m") })).status).toBe("OK");
        await backend.release(other);
        other = await backend.acquire();
        const t = await other.run({ ...LIMITS, argv: py(`import os; print(sorted(os.listdir('/box')))`, "m") });
        expect(t.stdout).toBe("[]\n");
      });
    });

    describe("containment", () => {
      test("fork bomb is contained, leaves nothing behind, and the host still spawns", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const code = "import os, time\nn = 0\nwhile True:\n    try:\n        os.fork(); n += 1\n    except OSError:\n        time.sleep(0.01)";
        const r = await run(py(code, marker), { wallTimeLimitMs: 2000 });
        expect(["TLE", "RE", "SG", "MLE"]).toContain(r.status); // MLE: see the C++ bomb
        await expectNoLeftovers(marker);
        const host = Bun.spawnSync(["/bin/true"]);
        expect(host.exitCode).toBe(0);
      });
      test("thread bomb is capped by the process limit", async () => {
        const code =
          "import threading, time\nn = 0\ntry:\n    while n < 10000:\n        threading.Thread(target=time.sleep, args=(5,), daemon=True).start(); n += 1\nexcept RuntimeError:\n    pass\nprint(n)";
        const r = await run(py(code, "m"), { processLimit: 16 });
        expect(r.status).toBe("OK");
        expect(Number(r.stdout)).toBeLessThan(16);
      });
      test("a process that daemonises (setsid, exit 0) is gone after the run", async () => {
        const marker = `m-${crypto.randomUUID()}`;
        const code = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(60)\n    os._exit(0)\nprint('parent done')";
        const r = await run(py(code, marker));
        expect({ status: r.status, stdout: r.stdout }, resultText(r)).toEqual({ status: "OK", stdout: "parent done\n" });
        await expectNoLeftovers(marker);
      });
      test("connecting to the server's own port on 127.0.0.1 fails", async () => {
        expect(port).toBeGreaterThan(0);
        const code = `import socket\ns = socket.socket()\ns.settimeout(1)\ntry:\n    s.connect(('127.0.0.1', ${port})); print('connected')\nexcept OSError as e:\n    print('blocked')`;
        const r = await run(py(code, "m"));
        expect(r.stdout).toBe("blocked\n");
        expect(connections).toBe(0);
        // The probe itself works from the host.
        const probe = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
        probe.end();
        await Bun.sleep(20);
        expect(connections).toBe(1);
      });
      test("resolving a host name fails, and the box has no network interface but its own loopback", async () => {
        const code = "import socket\ntry:\n    socket.getaddrinfo('example.com', 80); print('resolved')\nexcept OSError:\n    print('no dns')";
        const r = await run(py(code, "m"));
        expect(r.stdout).toBe("no dns\n");
        // Without a network of its own the box would see the host's interfaces (and name servers).
        const ifs = await run(py("import socket; print(sorted(n for _, n in socket.if_nameindex()))", "m"));
        expect(ifs.stdout).toBe("['lo']\n");
      });
      test("/dev/shm is writable and private: another box does not see what one box put there, nor does the host", async () => {
        const name = `shm-${crypto.randomUUID()}`;
        try {
          const w = await run(py(`open('/dev/shm/${name}', 'w').write('x'); import os; print(os.path.exists('/dev/shm/${name}'))`, "m"));
          expect(w.stdout).toBe("True\n");
          const r = await other.run({ ...LIMITS, argv: py(`import os; print(os.path.exists('/dev/shm/${name}'))`, "m") });
          expect(r.stdout).toBe("False\n");
          expect(existsSync(`/dev/shm/${name}`)).toBe(false);
        } finally {
          rmSync(`/dev/shm/${name}`, { force: true });
        }
      });
      test("the database file, /etc/shadow and the server's environment are unreadable", async () => {
        const dbDir = join(work, "data");
        const db = join(dbDir, "app.db");
        Bun.spawnSync(["mkdir", "-p", dbDir]);
        writeFileSync(db, `SQLite format 3 ${SECRET}`);
        const code = [
          "import os, glob",
          "hits = []",
          `for p in ['${db}', '/etc/shadow', '/proc/1/environ', '/proc/self/environ'] + glob.glob('/proc/*/environ'):`,
          "    try:",
          "        data = open(p, 'rb').read()",
          `        if b'${SECRET}' in data or p in ('${db}', '/etc/shadow'): hits.append(p)`,
          "    except OSError:",
          "        pass",
          `if '${SECRET}' in str(os.environ): hits.append('environ')`,
          "print(hits)",
        ].join("\n");
        const r = await run(py(code, "m"));
        expect(r.status).toBe("OK");
        expect(r.stdout).toBe("[]\n");
        expect(readFileSync(db, "utf8")).toContain(SECRET);
      });
      test("another box's files are out of reach", async () => {
        const name = `other-${crypto.randomUUID()}.txt`;
        await other.writeFile(name, SECRET);
        const code = [
          "import os",
          "found = []",
          "for top in os.listdir('/'):",
          "    if top in ('proc', 'sys', 'dev', 'usr'): continue",
          "    for d, _, files in os.walk('/' + top):",
          `        if '${name}' in files: found.append(d)`,
          "print(found)",
        ].join("\n");
        const r = await run(py(code, "m"), { cpuTimeLimitMs: 20_000, wallTimeLimitMs: 60_000 });
        expect(r.status, resultText(r)).toBe("OK");
        expect(r.stdout).toBe("[]\n");
      });
      test("a symlink or FIFO left in the box cannot make the runner read or write outside it, or hang", async () => {
        const target = join(work, "host-file.txt");
        writeFileSync(target, "host content");
        // Plants links and FIFOs under ordinary names and under the names of the runner's own files
        // (isolate's backend once collected the program's stderr from .oj-stderr in the box; now a pipe).
        const code = [
          "import os",
          `os.symlink('${target}', 'link')`,
          "os.mkfifo('fifo')",
          "for n, make in (('.oj-stdout', lambda n: os.symlink('/etc/passwd', n)), ('.oj-stderr', os.mkfifo)):",
          "    try: os.remove(n)",
          "    except OSError: pass",
          "    make(n)",
          "print('planted')",
        ].join("\n");
        const started = performance.now();
        const r = await run(py(code, "m"));
        expect(r.status).toBe("OK");
        expect(r.stdout).toBe("planted\n");
        expect(r.stdout + r.stderr).not.toContain("root:");
        expect(await box.readFile("link")).toBeNull();
        expect(await box.readFile("fifo")).toBeNull();
        expect(performance.now() - started).toBeLessThan(LIMITS.wallTimeLimitMs);
        expect(await box.listFiles!()).not.toContain("link");
        await box.writeFile("link", "box content");
        expect(readFileSync(target, "utf8")).toBe("host content");
        expect(new TextDecoder().decode((await box.readFile("link"))!)).toBe("box content");
        // The next run's output is still collected correctly.
        const next = await run(py("print('fine')", "m"));
        expect(next.stdout).toBe("fine\n");
        expect(next.status).toBe("OK");
      });
    });
  });
}
