/**
 * The isolate backend's handling of the isolate CLI, where isolate itself
 * cannot be installed (as on our build machines): a scripted stand-in for
 * `isolate` answers `--version`, `--init`, `--run` and `--cleanup` the way
 * isolate(1) documents (box directory printed by --init, meta file keys, exit
 * codes 0/1/2, isolate 2.x's "Sandbox ID out of range" refusal) and records
 * every call. This checks what the unit tests of the argument builder cannot:
 * the version gate, --cg detection, the box-id range probe, that every box is
 * cleaned up on release and on close, and that a hung isolate is killed and
 * its box re-created. The real sandbox properties are the contract suite's
 * (contract.test.ts), which runs wherever isolate is installed.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createIsolateBackend } from "./backends/isolate.ts";
import { processesWithMarker } from "./test-backends.ts";
import type { RunRequest, SandboxBackend } from "./types.ts";

const work = mkdtempSync(join(tmpdir(), "oj-fake-isolate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Box ids of this file (880-899 are the sandbox runner's tests'). */
const FIRST_BOX = 880;

/** The stand-in (bash; `@{` stands for the shell's `${`, which a template literal would take). */
const SCRIPT = String.raw`#!/bin/bash
here=$(dirname "$0")
. "$here/conf"
echo "$*" >> "$here/calls.log"
cg=0; id=0; meta=; err=; cmd=
while [ $# -gt 0 ]; do
  case "$1" in
    --cg) cg=1 ;;
    --box-id=*) id=@{1#--box-id=} ;;
    --meta=*) meta=@{1#--meta=} ;;
    --stdout=*) echo "the runner must not redirect stdout" >&2; exit 2 ;;
    --stderr=*) err=@{1#--stderr=} ;;
    --version) echo "The process isolator $VERSION"; echo "(c) 2012--2025 Martin Mares and Bernard Blackham"; exit 0 ;;
    --init|--cleanup) cmd=$1 ;;
    --run) cmd=run; shift; [ "$1" = "--" ] && shift; break ;;
  esac
  shift
done
if [ "$cg" = 1 ] && [ -n "$NO_CG" ]; then echo "Cannot open /sys/fs/cgroup/isolate.slice/isolate.service/cgroup.subtree_control" >&2; exit 2; fi
if [ "$id" -ge "$NUM_BOXES" ]; then echo "Sandbox ID out of range (allowed: 0-$((NUM_BOXES - 1)))" >&2; exit 2; fi
dir="$here/boxes/$id"
case "$cmd" in
  --init) rm -rf "$dir"; mkdir -p "$dir/box"; echo "$dir" ;;
  --cleanup) rm -rf "$dir" ;;
  run)
    cd "$dir/box" || { echo "Box not found, did you run isolate --init?" >&2; exit 2; }
    case "$RUN" in
      ok) echo "ran: $*"; echo "note" >&2; printf 'time:0.012\ntime-wall:0.034\nmax-rss:1200\ncg-mem:900\ncsw-voluntary:2\ncsw-forced:1\nexitcode:0\n' > "$meta"; exit 0 ;;
      oom) printf 'time:0.200\ntime-wall:0.250\nmax-rss:70000\ncg-mem:65536\ncg-oom-killed:1\nexitsig:9\nkilled:1\nstatus:SG\nmessage:Caught fatal signal 9\n' > "$meta"; exit 1 ;;
      xx) printf 'status:XX\nmessage:Cannot run proxy, clone failed: Operation not permitted\n' > "$meta"; echo "Cannot run proxy, clone failed: Operation not permitted" >&2; exit 2 ;;
      hang) exec -a "$here/hung-run" sleep 30 ;;
      flood)
        # isolate's keeper turns SIGTERM into "SG: Interrupted" after killing the box.
        trap 'printf "time:0.100\ntime-wall:0.100\nexitsig:15\nkilled:1\nstatus:SG\nmessage:Interrupted\n" > "$meta"; exit 1' TERM
        line=$(printf "%0100d" 0); while :; do echo "$line"; done ;;
    esac ;;
esac
`.replaceAll("@{", "${");

interface Fake {
  bin: string;
  calls(): string[];
}

let n = 0;
function fakeIsolate(conf: { version?: string; noCg?: boolean; numBoxes?: number; run?: "ok" | "oom" | "xx" | "hang" | "flood" }): Fake {
  const dir = join(work, `fake-${++n}`);
  Bun.spawnSync(["mkdir", "-p", dir]);
  const bin = join(dir, "isolate");
  writeFileSync(bin, SCRIPT);
  chmodSync(bin, 0o755);
  writeFileSync(
    join(dir, "conf"),
    `VERSION='${conf.version ?? "2.2.1"}'\nNO_CG='${conf.noCg ? "1" : ""}'\nNUM_BOXES=${conf.numBoxes ?? 1000}\nRUN=${conf.run ?? "ok"}\n`,
  );
  writeFileSync(join(dir, "calls.log"), "");
  return { bin, calls: () => readFileSync(join(dir, "calls.log"), "utf8").split("\n").filter(Boolean) };
}

const REQ: RunRequest = {
  argv: ["/usr/bin/python3", "-c", "print(1)", "two words"],
  cpuTimeLimitMs: 1500,
  wallTimeLimitMs: 300,
  memoryLimitKib: 65536,
  processLimit: 8,
  outputLimitBytes: 4096,
  fileSizeLimitKib: 1024,
};

const opened: SandboxBackend[] = [];
afterEach(async () => {
  for (const b of opened.splice(0)) await b.close();
});
/** Starts the backend on the stand-in; the host's cgroup mode is pretended (default v2, where 2.x uses --cg). */
async function start(fake: Fake, extra: { guardMs?: number; boxIdCount?: number; poolSize?: number; hostCgroups?: 1 | 2 | null } = {}) {
  const b = await createIsolateBackend({
    isolateBin: fake.bin,
    boxIdStart: FIRST_BOX,
    boxIdCount: extra.boxIdCount ?? 4,
    poolSize: extra.poolSize ?? 2,
    hostCgroups: 2,
    ...extra,
  });
  opened.push(b);
  return b;
}

describe("isolate backend against a scripted isolate CLI", () => {
  test("refuses isolate older than 1.10, 2.0.x and an unreadable version, naming why", async () => {
    await expect(start(fakeIsolate({ version: "1.9" }))).rejects.toThrow("isolate 1.9.0 is too old: the runner needs 1.10 or newer");
    await expect(start(fakeIsolate({ version: "2.0" }))).rejects.toThrow("isolate 2.0.0 cannot time repeated runs of one box with control groups (fixed in 2.1)");
    await expect(start(fakeIsolate({ version: "unknown" }))).rejects.toThrow("cannot read isolate's version");
  });

  test("isolate 1.10 on a cgroup v1 host: cgroup mode with --cg --cg-timing and --cg-mem", async () => {
    const fake = fakeIsolate({ version: "1.10.1" });
    const b = await start(fake, { hostCgroups: 1 });
    expect(b.description).toContain("isolate 1.10.1, cgroup mode (cgroup v1: --cg --cg-timing, --cg-mem");
    const box = await b.acquire();
    expect((await box.run(REQ)).status).toBe("OK");
    const runCall = fake.calls().find((c) => c.includes("--run"))!;
    expect(runCall).toStartWith("--cg --box-id=880 ");
    for (const o of ["--cg-mem=65536", "--cg-timing"]) expect(runCall).toContain(o);
    await b.release(box);
  });

  test("a version that cannot use this host's control groups runs in rlimit mode and says why (2.x on cgroup v1, 1.10 on cgroup v2)", async () => {
    const two = fakeIsolate({ version: "2.6" });
    const b2 = await start(two, { hostCgroups: 1 });
    expect(b2.description).toContain("rlimit mode (isolate 2.6.0 needs cgroup v2 for --cg and this host has cgroup v1");
    // --cg is never even tried.
    expect(two.calls().some((c) => c.includes("--cg"))).toBe(false);
    const box = await b2.acquire();
    expect((await box.run(REQ)).status).toBe("OK");
    expect(two.calls().find((c) => c.includes("--run"))).toContain("--mem=65536");
    await b2.release(box);
    const one = await start(fakeIsolate({ version: "1.10.1" }), { hostCgroups: 2 });
    expect(one.description).toContain("rlimit mode (isolate 1.10.1 needs cgroup v1 for --cg and this host has cgroup v2");
  });

  test("a box id beyond isolate's configured boxes fails at start with isolate's own message", async () => {
    // The pool uses ids 880 and 881; isolate here has boxes 0-880.
    await expect(start(fakeIsolate({ numBoxes: 881 }))).rejects.toThrow("Sandbox ID out of range (allowed: 0-880)");
  });

  test("cgroup mode where --cg --init works: --cg on every call, --cg-mem, and every box cleaned up on release and close", async () => {
    const fake = fakeIsolate({});
    const b = await start(fake);
    expect(b.description).toContain("cgroup mode");
    const box1 = await b.acquire();
    const box2 = await b.acquire();
    expect([box1.id, box2.id]).toEqual([880, 881]);
    const r = await box1.run(REQ);
    expect(r).toMatchObject({ status: "OK", exitCode: 0, cpuTimeMs: 12, wallTimeMs: 34, memoryKib: 900, stderr: "note\n" });
    // The program's argv reached isolate after "--", one argument each.
    expect(r.stdout).toBe("ran: /usr/bin/python3 -c print(1) two words\n");
    const runCall = fake.calls().find((c) => c.includes("--run"))!;
    expect(runCall).toStartWith("--cg --box-id=880 ");
    for (const o of ["--cg-mem=65536", "--time=1.5", "--wall-time=0.3", "--processes=8", "--dir=/dev/shm:tmp"]) expect(runCall).toContain(o);
    // The runner's own files are not listed as the program's.
    expect(await box1.listFiles!()).toEqual([]);
    await b.release(box1);
    expect(fake.calls().at(-1)).toBe("--cg --box-id=880 --cleanup");
    await b.close();
    opened.splice(0);
    expect(fake.calls().at(-1)).toBe("--cg --box-id=881 --cleanup");
  });

  test("rlimit mode where --cg does not work: no control-group options, memory as --mem", async () => {
    const fake = fakeIsolate({ noCg: true });
    const b = await start(fake);
    expect(b.description).toContain("rlimit mode");
    const box = await b.acquire();
    expect((await box.run(REQ)).status).toBe("OK");
    const runCall = fake.calls().find((c) => c.includes("--run"))!;
    expect(runCall).toStartWith("--box-id=880 ");
    expect(runCall).toContain("--mem=65536");
    expect(runCall).not.toContain("--cg");
    await b.release(box);
    expect(fake.calls().at(-1)).toBe("--box-id=880 --cleanup");
  });

  test("cg-oom-killed is MLE; isolate's exit 2 is XX with its message, and the box is still cleaned up", async () => {
    const oom = await start(fakeIsolate({ run: "oom" }));
    const box = await oom.acquire();
    expect(await box.run(REQ)).toMatchObject({ status: "MLE", signal: 9, memoryKib: 65536 });
    await oom.release(box);

    const fake = fakeIsolate({ run: "xx" });
    const b = await start(fake);
    const xbox = await b.acquire();
    const r = await xbox.run(REQ);
    expect(r.status).toBe("XX");
    expect(r.message).toContain("Cannot run proxy");
    await b.release(xbox);
    expect(fake.calls().at(-1)).toBe("--cg --box-id=880 --cleanup");
  });

  test("a program that does not exist is XX before isolate runs (its exit 127 could be imitated)", async () => {
    const fake = fakeIsolate({});
    const b = await start(fake);
    const box = await b.acquire();
    const r = await box.run({ ...REQ, argv: ["/usr/bin/no-such-compiler", "x.cpp"] });
    expect(r.status).toBe("XX");
    expect(r.message).toContain("/usr/bin/no-such-compiler");
    expect(fake.calls().some((c) => c.includes("--run"))).toBe(false);
    await b.release(box);
  });

  test("stdout past the output limit: isolate is told to stop (SIGTERM), the run is OLE with the output capped", async () => {
    const b = await start(fakeIsolate({ run: "flood" }));
    const box = await b.acquire();
    const r = await box.run({ ...REQ, outputLimitBytes: 10_000, wallTimeLimitMs: 5000 });
    expect(r.status).toBe("OLE");
    expect(r.stdoutTruncated).toBe(true);
    expect(r.stdout.length).toBe(10_000);
    await b.release(box);
  });

  test("a hung isolate is killed past the wall limit, the run is XX and the box re-created", async () => {
    const fake = fakeIsolate({ run: "hang" });
    const b = await start(fake, { guardMs: 300 });
    const box = await b.acquire();
    const started = performance.now();
    const r = await box.run(REQ);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(r.status).toBe("XX");
    expect(r.message).toContain("did not return");
    const calls = fake.calls();
    expect(calls.slice(-2)).toEqual(["--cg --box-id=880 --cleanup", "--cg --box-id=880 --init"]);
    // Nothing of the hung call is left running.
    const marker = join(dirname(fake.bin), "hung-run");
    for (let i = 0; i < 50 && (await processesWithMarker(marker)).length > 0; i++) await Bun.sleep(20);
    expect(await processesWithMarker(marker)).toEqual([]);
    await b.release(box);
  });
});
