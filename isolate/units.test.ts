/**
 * Pure parts of the runner: isolate's argument builder and meta-file parser
 * (run everywhere, also where isolate is not installed), bwrap's argv,
 * status precedence, Java's class naming, output capping.
 */
import { describe, expect, test } from "bun:test";
import { buildIsolateRunArgs, missingProgram, msToSeconds, parseIsolateMeta, parseIsolateVersion, resultFromMeta } from "./backends/isolate.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { boxUidConflict, buildBwrapArgv, type BwrapFeatures } from "./backends/bwrap.ts";
import { parseJsonStatus } from "./backends/common.ts";
import { classify, type Observation } from "./result.ts";
import { MAX_CLASS_NAME_CHARS, mainClassName, stripJavaNoise } from "./languages/java.ts";
import { capUtf8 } from "./exec.ts";
import { getLanguage, isLanguageId, COMPILER_FLAGS } from "./languages/index.ts";
import type { RunRequest } from "./types.ts";

const req: RunRequest = {
  argv: ["./prog", "a b"],
  cpuTimeLimitMs: 1500,
  wallTimeLimitMs: 4000,
  memoryLimitKib: 262144,
  processLimit: 16,
  outputLimitBytes: 1 << 20,
  fileSizeLimitKib: 4096,
};
const io = { stdout: "", stderr: "", stdoutTruncated: false, isolateStderr: "" };

describe("isolate argument builder", () => {
  test("converts units at the boundary and keeps argv as separate arguments", () => {
    const args = buildIsolateRunArgs("/usr/bin/isolate", { boxId: 7, cg: true, metaFile: "/tmp/m", req, binds: [["/pch", "/data/pch"]] });
    expect(args.slice(0, 4)).toEqual(["/usr/bin/isolate", "--cg", "--box-id=7", "--meta=/tmp/m"]);
    expect(args).toContain("--time=1.5");
    expect(args).toContain("--wall-time=4");
    expect(args).toContain("--extra-time=0");
    expect(args).toContain("--cg-mem=262144");
    expect(args.some((a) => a.startsWith("--mem="))).toBe(false);
    expect(args).toContain("--processes=16");
    expect(args).toContain("--stack=65536");
    expect(args).toContain("--fsize=4096");
    expect(args).toContain("--dir=/pch=/data/pch:maybe");
    expect(args).toContain("--env=PATH=/usr/local/bin:/usr/bin:/bin");
    expect(args.slice(-5)).toEqual(["--silent", "--run", "--", "./prog", "a b"]);
  });
  test("rlimit mode uses --mem unless the language opts out (JVM)", () => {
    const plain = buildIsolateRunArgs("isolate", { boxId: 0, cg: false, metaFile: "m", req, binds: [] });
    expect(plain).toContain("--mem=262144");
    expect(plain).not.toContain("--cg");
    const jvm = buildIsolateRunArgs("isolate", { boxId: 0, cg: false, metaFile: "m", req: { ...req, addressSpaceLimit: false }, binds: [] });
    expect(jvm.some((a) => a.startsWith("--mem"))).toBe(false);
  });
  test("stdout stays the runner's pipe (no --stdout), so --fsize is exactly the file-size limit; stderr goes to the box file", () => {
    const args = buildIsolateRunArgs("isolate", { boxId: 0, cg: true, metaFile: "m", req: { ...req, fileSizeLimitKib: 16, outputLimitBytes: 1 << 20 }, binds: [] });
    expect(args).toContain("--fsize=16");
    expect(args.some((a) => a.startsWith("--stdout") || a.startsWith("--stdin") || a === "--stderr-to-stdout")).toBe(false);
    // stderr is the runner's pipe too: nothing of the runner's is written into the box.
    expect(args.some((a) => a.startsWith("--stderr"))).toBe(false);
  });
  test("uses only options of isolate(1) (2.x option table), with a private /dev/shm and none that open a wall", () => {
    // isolate(1) OPTIONS / ENVIRONMENT RULES / DIRECTORY RULES / CONTROL GROUPS, and isolate.c's long_opts for 2.x.
    const documented = new Set([
      "box-id", "cg", "cg-mem", "chdir", "core", "dir", "no-default-dirs", "fsize", "env", "extra-time", "full-env",
      "inherit-fds", "mem", "meta", "processes", "quota", "share-net", "silent", "stack", "open-files", "special-files",
      "stderr", "stderr-to-stdout", "stdin", "stdout", "time", "tty-hack", "verbose", "wait", "wall-time", "run",
    ]);
    for (const cg of [true, false]) {
      const args = buildIsolateRunArgs("/usr/bin/isolate", { boxId: 3, cg, metaFile: "/tmp/m", req, binds: [["/etc/alternatives", "/etc/alternatives"]] });
      const options = args.slice(1, args.indexOf("--"));
      for (const o of options) expect(documented.has(/^--([a-z-]+)/.exec(o)?.[1] ?? o)).toBe(true);
      expect(options).toContain("--dir=/dev/shm:tmp");
      expect(options).toContain("--dir=/etc/alternatives=/etc/alternatives:maybe");
      expect(options).toContain("--open-files=512");
      expect(options).toContain("--silent");
      for (const wall of ["--share-net", "--full-env", "-e", "--inherit-fds", "--special-files", "--no-default-dirs", "--tty-hack"]) expect(options).not.toContain(wall);
      // Control-group options are refused by isolate without --cg.
      expect(options.some((o) => o.startsWith("--cg-mem"))).toBe(cg);
      expect(options.includes("--cg")).toBe(cg);
      // Exactly one command, and the program's argv after "--" untouched.
      expect(options.filter((o) => o === "--run" || o === "--init" || o === "--cleanup")).toEqual(["--run"]);
    }
  });
  test("limits in isolate's units: seconds with fractions, KiB", () => {
    const odd = { ...req, cpuTimeLimitMs: 2, wallTimeLimitMs: 1250, memoryLimitKib: 1000, fileSizeLimitKib: 5000, outputLimitBytes: 10, processLimit: 3, stackLimitKib: 777 };
    const args = buildIsolateRunArgs("isolate", { boxId: 0, cg: true, metaFile: "m", req: odd, binds: [] });
    expect(args).toContain("--time=0.002");
    expect(args).toContain("--wall-time=1.25");
    expect(args).toContain("--cg-mem=1000");
    expect(args).toContain("--fsize=5000");
    expect(args).toContain("--stack=777");
    expect(args).toContain("--processes=3");
    expect(args).toContain("--meta=m");
  });
  test("msToSeconds", () => {
    expect(msToSeconds(1000)).toBe("1");
    expect(msToSeconds(250)).toBe("0.25");
    expect(msToSeconds(1)).toBe("0.001");
  });
  test("version parsing", () => {
    expect(parseIsolateVersion("The process isolator 2.1.2\n(c) 2012--2025 Martin Mares")).toEqual([2, 1, 2]);
    expect(parseIsolateVersion("isolate 2.0")).toEqual([2, 0, 0]);
    expect(parseIsolateVersion("nothing")).toBeNull();
  });
});

describe("isolate meta file", () => {
  test("parses every documented key", () => {
    const m = parseIsolateMeta("time:0.512\ntime-wall:0.700\nmax-rss:10240\ncg-mem:20480\ncg-oom-killed:1\nexitsig:9\nkilled:1\nstatus:SG\nmessage:Caught fatal signal 9\ncsw-voluntary:3\n");
    expect(m).toMatchObject({ time: 0.512, timeWall: 0.7, maxRss: 10240, cgMem: 20480, cgOomKilled: true, exitsig: 9, killed: true, status: "SG", message: "Caught fatal signal 9" });
    expect(m.raw["csw-voluntary"]).toBe("3");
  });
  test("OK run", () => {
    const r = resultFromMeta(0, "time:0.010\ntime-wall:0.020\nmax-rss:3000\ncg-mem:2500\nexitcode:0\n", req, { ...io, stdout: "hi\n" });
    expect(r).toMatchObject({ status: "OK", exitCode: 0, signal: null, cpuTimeMs: 10, wallTimeMs: 20, memoryKib: 2500, stdout: "hi\n" });
  });
  test("RE with the exit code", () => {
    expect(resultFromMeta(1, "time:0.01\ntime-wall:0.01\nexitcode:3\nstatus:RE\nmessage:Exited with error status 3\n", req, io)).toMatchObject({ status: "RE", exitCode: 3 });
  });
  test("TO is TLE, cpu or wall by the message", () => {
    const cpu = resultFromMeta(1, "time:1.501\ntime-wall:1.6\nkilled:1\nstatus:TO\nmessage:Time limit exceeded\n", req, io);
    expect(cpu).toMatchObject({ status: "TLE", tleKind: "cpu" });
    const wall = resultFromMeta(1, "time:0.01\ntime-wall:4.0\nkilled:1\nstatus:TO\nmessage:Time limit exceeded (wall clock)\n", req, io);
    expect(wall).toMatchObject({ status: "TLE", tleKind: "wall" });
  });
  test("MLE comes from cg-oom-killed (isolate has no MLE status)", () => {
    const r = resultFromMeta(1, "time:0.2\ntime-wall:0.3\ncg-mem:262144\ncg-oom-killed:1\nexitsig:9\nkilled:1\nstatus:SG\nmessage:Caught fatal signal 9\n", req, io);
    expect(r.status).toBe("MLE");
    expect(r.signal).toBe(9);
  });
  test("a plain signal is SG", () => {
    expect(resultFromMeta(1, "time:0.01\nexitsig:11\nstatus:SG\nmessage:Caught fatal signal 11\n", req, io)).toMatchObject({ status: "SG", signal: 11 });
  });
  test("exit code 2, status XX or a missing meta file is XX, never a user verdict", () => {
    expect(resultFromMeta(2, "status:XX\n", req, io).status).toBe("XX");
    expect(resultFromMeta(0, null, req, { ...io, isolateStderr: "Cannot run proxy" }).status).toBe("XX");
    expect(resultFromMeta(0, null, req, { ...io, isolateStderr: "Cannot run proxy" }).message).toContain("Cannot run proxy");
    expect(resultFromMeta(1, "status:XX\nmessage:Cannot create cgroup\n", req, io)).toMatchObject({ status: "XX" });
    expect(resultFromMeta(null, "exitcode:0\n", req, io).status).toBe("XX");
  });
  test("exit codes other than 0 and 1 are XX whatever the meta file says", () => {
    for (const code of [2, 3, 127, 255]) expect(resultFromMeta(code, "time:0.01\nexitcode:0\n", req, io).status).toBe("XX");
  });
  test("exit 127 with an execve(...) message stays RE: a program can print that itself", () => {
    const meta = "time:0.000\ntime-wall:0.003\nexitcode:127\nstatus:RE\nmessage:Exited with error status 127\n";
    expect(resultFromMeta(1, meta, req, { ...io, stderr: 'execve("/usr/bin/g++"): No such file or directory\n' })).toMatchObject({ status: "RE", exitCode: 127 });
  });
  test("a program missing from the box or the host is found before the run", () => {
    const box = mkdtempSync(join(tmpdir(), "oj-missing-"));
    try {
      writeFileSync(join(box, "prog"), "");
      expect(missingProgram("./prog", box)).toBeNull();
      expect(missingProgram("/box/prog", box)).toBeNull();
      expect(missingProgram("./absent", box)).toBe("./absent");
      expect(missingProgram("/box/absent", box)).toBe("/box/absent");
      expect(missingProgram("/usr/bin/python3", box)).toBeNull();
      expect(missingProgram("/usr/bin/no-such-compiler", box)).toBe("/usr/bin/no-such-compiler");
      // Paths isolate does not bind by default, and escapes, are not judged from outside.
      expect(missingProgram("/pch/x", box)).toBeNull();
      expect(missingProgram("../prog", box)).toBeNull();
    } finally {
      rmSync(box, { recursive: true, force: true });
    }
  });
  test("no status and no message on a normal exit (isolate(1): not all keys have to be present)", () => {
    expect(resultFromMeta(0, "time:0.004\ntime-wall:0.010\nmax-rss:1536\ncsw-voluntary:1\ncsw-forced:0\nexitcode:0\n", req, io)).toMatchObject({
      status: "OK",
      exitCode: 0,
      cpuTimeMs: 4,
      wallTimeMs: 10,
      memoryKib: 1536,
    });
  });
  test("rlimit mode: a SIGKILL with the memory at the limit is MLE; a SIGKILL far below it is SG", () => {
    expect(resultFromMeta(1, "time:0.1\nmax-rss:262000\nexitsig:9\nstatus:SG\nmessage:Caught fatal signal 9\n", req, io).status).toBe("MLE");
    expect(resultFromMeta(1, "time:0.1\nmax-rss:2000\nexitsig:9\nstatus:SG\nmessage:Caught fatal signal 9\n", req, io).status).toBe("SG");
  });
  test("a truncated stdout is OLE", () => {
    expect(resultFromMeta(0, "time:0.1\nexitcode:0\n", req, { ...io, stdoutTruncated: true }).status).toBe("OLE");
  });
});

describe("bwrap argv", () => {
  const features: BwrapFeatures = { tmpfsSize: true, disableUserns: true, etcBinds: ["/etc/ld.so.cache"], topLevel: [{ name: "bin", symlinkTo: "usr/bin" }] };
  const spec = {
    boxDir: "/tmp/boxes/box-3",
    uid: 60003,
    switchUser: true,
    passwdFile: "/tmp/boxes/etc/passwd",
    groupFile: "/tmp/boxes/etc/group",
    req,
    procsFiles: ["/sys/fs/cgroup/memory/oj-sandbox/x/cgroup.procs"],
    memoryByCgroup: true,
    tasksByCgroup: true,
    pchSource: "/tmp/boxes/pch",
    statusFd: 3,
    tmpSizeMib: 64,
    features,
  };
  test("joins the cgroup, drops to the box uid, sets rlimits, then unshares everything", () => {
    const a = buildBwrapArgv("/usr/bin/bwrap", spec);
    expect(a.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    expect(a.indexOf("/usr/bin/setpriv")).toBeGreaterThan(a.indexOf("/sys/fs/cgroup/memory/oj-sandbox/x/cgroup.procs"));
    expect(a).toContain("--reuid=60003");
    expect(a).toContain("--cpu=3:4");
    expect(a).toContain(`--fsize=${4096 * 1024}`);
    expect(a.some((x) => x.startsWith("--as="))).toBe(false);
    for (const flag of ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session", "--clearenv"]) expect(a).toContain(flag);
    expect(a.join(" ")).toContain("--bind /tmp/boxes/box-3 /box");
    expect(a.join(" ")).toContain("--ro-bind /tmp/boxes/pch /pch");
    expect(a.join(" ")).toContain("--symlink usr/bin /bin");
    expect(a.slice(-3)).toEqual(["--", "./prog", "a b"]);
    expect(a.join(" ")).not.toContain("--share-net");
  });
  test("without cgroups: no join script, address-space limit unless the language opts out", () => {
    const a = buildBwrapArgv("bwrap", { ...spec, procsFiles: [], memoryByCgroup: false, tasksByCgroup: false, switchUser: false });
    expect(a[0]).toBe("/usr/bin/prlimit");
    expect(a).toContain(`--as=${262144 * 1024}`);
    expect(a.some((x) => x.startsWith("--nproc"))).toBe(false);
    const jvm = buildBwrapArgv("bwrap", { ...spec, procsFiles: [], memoryByCgroup: false, req: { ...req, addressSpaceLimit: false } });
    expect(jvm.some((x) => x.startsWith("--as="))).toBe(false);
  });
  test("box uids must be nobody's: not a user's, not a group's, not the overflow uid", () => {
    const passwd = "root:x:0:0:root:/root:/bin/bash\nalice:x:60005:60005::/home/alice:/bin/sh\n";
    const group = "root:x:0:\nbuilders:x:60007:\n";
    expect(boxUidConflict([60000, 60001], passwd, group)).toBeNull();
    expect(boxUidConflict([60004, 60005], passwd, group)).toContain("box uid 60005 (60000 + box id 5) is already taken by alice in /etc/passwd");
    expect(boxUidConflict([60007], passwd, group)).toContain("builders in /etc/group");
    expect(boxUidConflict([65534], passwd, group)).toContain("overflow uid");
    // The host's own account files are read by default.
    expect(boxUidConflict([0])).toContain("root in /etc/passwd");
  });
  test("bwrap's status lines", () => {
    expect(parseJsonStatus('{ "child-pid": 12 }\n{ "exit-code": 137 }\n')).toEqual({ childPid: 12, exitCode: 137 });
    expect(parseJsonStatus("")).toEqual({ childPid: null, exitCode: null });
    expect(parseJsonStatus('{ "child-pid": 12 }\n{ "exit-')).toEqual({ childPid: 12, exitCode: null });
  });
});

describe("status precedence XX > TLE > MLE > OLE > SG > RE > OK", () => {
  const o: Observation = { exitCode: 0, signal: null, cpuTimeMs: 1, wallTimeMs: 1, memoryKib: 1, cpuLimitHit: false, wallLimitHit: false, oomKilled: false, outputLimitHit: false, stdout: "", stderr: "", stdoutTruncated: false };
  test.each([
    [{ sandboxError: "x", cpuLimitHit: true }, "XX"],
    [{ cpuLimitHit: true, oomKilled: true, signal: 9, exitCode: null }, "TLE"],
    [{ oomKilled: true, outputLimitHit: true, signal: 9, exitCode: null }, "MLE"],
    [{ outputLimitHit: true, signal: 9, exitCode: null }, "OLE"],
    [{ signal: 11, exitCode: null }, "SG"],
    [{ exitCode: 1 }, "RE"],
    [{}, "OK"],
    [{ signal: 24, exitCode: null }, "TLE"],
  ] as const)("%o → %s", (over, status) => {
    expect(classify({ ...o, ...over }).status).toBe(status);
  });
});

describe("languages", () => {
  test("Java's source file is named after the public class, else the class with main", () => {
    expect(mainClassName("public class Solution { public static void main(String[] a) {} }")).toBe("Solution");
    expect(mainClassName("import java.util.*;\nclass Helper {}\nclass Main { public static void main(String... a) {} }")).toBe("Main");
    expect(mainClassName("// public class Fake {}\n/* class Nope */ final class Real { static public void main(String[] a) { String s = \"class Str\"; } }")).toBe("Real");
    expect(mainClassName("class A { class B { public static void main(String[] x) {} } }")).toBe("A");
    expect(mainClassName("")).toBe("Main");
    expect(getLanguage("java").sourceFileName("public class Foo {}")).toBe("Foo.java");
    // A name whose .class file would not fit a file name falls back to Main (javac then explains).
    const longest = `L${"x".repeat(MAX_CLASS_NAME_CHARS - 1)}`;
    expect(mainClassName(`public class ${longest} {}`)).toBe(longest);
    expect(Buffer.byteLength(`${longest}.class`)).toBe(255);
    expect(mainClassName(`public class ${longest}x {}`)).toBe("Main");
  });
  test("Java main is found with its modifiers in any order, past text blocks and unterminated literals", () => {
    expect(mainClassName("class Helper {}\nclass Runner { static public final void main(String[] a) {} }")).toBe("Runner");
    expect(mainClassName("class Helper { void main() {} }\nclass Runner { @Deprecated public static void main(String[] a) {} }")).toBe("Runner");
    expect(mainClassName('class Q { String t = """\n class Fake { public static void main( """; }\nclass Real { public static void main(String[] a) {} }')).toBe("Real");
    expect(stripJavaNoise('a /* open comment class X { public static void main(')).toBe("a  ");
    expect(stripJavaNoise('x = "unterminated\nclass Y {}')).toBe('x = ""\nclass Y {}');
    expect(stripJavaNoise("c = '\\''; d = \"\\\"\";")).toBe("c = ''; d = \"\";");
    // Hostile repetitions (quadratic for the backtracking regexes this replaced) still give an answer.
    expect(mainClassName("public ".repeat(9000))).toBe("Main");
    expect(mainClassName("/* ".repeat(20000))).toBe("Main");
  });
  test("Java limits: heap is the user's limit, the box gets the JVM's overhead on top", () => {
    const { argv, limits } = getLanguage("java").runCommand("Solution.java", { ...req, memoryLimitKib: 256 * 1024 });
    expect(argv).toContain("-Xmx256m");
    expect(argv).toContain("-XX:+UseSerialGC");
    expect(argv.at(-1)).toBe("Solution");
    expect(limits.memoryLimitKib).toBeGreaterThan(256 * 1024);
    expect(limits.processLimit).toBeGreaterThan(req.processLimit);
    expect(limits.addressSpaceLimit).toBe(false);
  });
  test("registry and compiler flags", () => {
    expect(isLanguageId("cpp")).toBe(true);
    expect(isLanguageId("rust")).toBe(true);
    expect(isLanguageId("cobol")).toBe(false);
    expect(() => getLanguage("cobol")).toThrow("unknown language");
    expect(COMPILER_FLAGS.cpp).toContain("-std=gnu++17");
    expect(COMPILER_FLAGS.cpp).toContain("-O2");
    expect(getLanguage("py").runCommand("main.py", req).argv).toEqual(["/usr/bin/python3", "-B", "-I", "main.py"]);
  });
  test("capUtf8 never splits a character", () => {
    expect(capUtf8("héllo", 2)).toBe("h");
    expect(capUtf8("abc", 10)).toBe("abc");
  });
});
