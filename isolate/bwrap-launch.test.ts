/**
 * The bwrap backend's cheaper launch (docs/decisions/003): the oj-launch
 * helper that replaced sh → setpriv → prlimit, and the prepared /etc and /dev
 * that replaced a dozen bind mounts. Through the real helper and the real
 * sandbox; the root-only parts say so when skipped.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, chmodSync, rmSync, readdirSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBwrapArgv, createBwrapBackend, prepareSandboxDev, prepareSandboxEtc, type BwrapFeatures } from "./backends/bwrap.ts";
import { ensureLauncher, LAUNCH_FAILED, LAUNCH_JOIN_FAILED } from "./backends/launcher.ts";
import type { Box, RunRequest, SandboxBackend } from "./types.ts";

const isRoot = process.getuid?.() === 0;
const hasBwrap = Bun.which("bwrap") !== null;
const work = mkdtempSync(join(tmpdir(), "oj-launch-test-"));
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code: await p.exited, out, err };
}

describe("oj-launch", () => {
  let launcher = "";
  beforeAll(async () => {
    const built = await ensureLauncher(work);
    if (!("path" in built)) throw new Error(built.why);
    launcher = built.path;
  });

  test("is built once per source and reused", async () => {
    const again = await ensureLauncher(work);
    expect(again).toEqual({ path: launcher });
    const st = lstatSync(launcher);
    expect(st.mode & 0o022).toBe(0);
  });

  test.each([
    [["--rlimit", "bogus=1:2"], "unknown rlimit"],
    [["--rlimit", "cpu=-1:2"], "bad number"],
    [["--rlimit", "cpu=1x:2"], "bad number"],
    [["--rlimit", "cpu=3:2"], "soft limit above hard limit"],
    [["--rlimit", "cpu=99999999999999999999999:1"], "bad number"],
    [["--user", "0:0"], "refusing user"],
    [["--user", "60794"], "bad user"],
    [["--frobnicate", "1"], "unknown option"],
    [["--rlimit"], "missing value"],
    [["--cgroup", "--", "/bin/true"], "missing value"],
  ])("refuses %j without running the program", async (args, message) => {
    const marker = join(work, `ran-${Math.random()}`);
    const r = await run([launcher, ...args, "--", "/usr/bin/touch", marker]);
    expect(r.code).toBe(LAUNCH_FAILED);
    expect(r.err).toContain(message);
    expect(lstatSync(marker, { throwIfNoEntry: false })).toBeUndefined();
  });

  test("runs only an absolute program path (no PATH search, no shell)", async () => {
    const r = await run([launcher, "--", "true"]);
    expect(r.code).toBe(LAUNCH_FAILED);
    expect(r.err).toContain("usage");
  });

  test("a cgroup it cannot join is its own exit code", async () => {
    const r = await run([launcher, "--cgroup", join(work, "no-such-cgroup", "cgroup.procs"), "--", "/bin/true"]);
    expect(r.code).toBe(LAUNCH_JOIN_FAILED);
    expect(r.err).toContain("cannot open");
  });

  test.skipIf(!isRoot)("sets the rlimits and no_new_privs, drops to the uid with no groups, and cannot regain root (root only)", async () => {
    const r = await run([
      launcher,
      "--rlimit", "nofile=100:200",
      "--rlimit", "fsize=4096:8192",
      "--user", "60794:60794",
      "--",
      "/bin/sh", "-c", "id -u; id -g; id -G; ulimit -n; ulimit -Hn; ulimit -f; grep -E '^(NoNewPrivs|CapEff)' /proc/self/status",
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines.slice(0, 6)).toEqual(["60794", "60794", "60794", "100", "200", "8"]);
    expect(r.out).toMatch(/NoNewPrivs:\s+1/);
    expect(r.out).toMatch(/CapEff:\s+0+\n/);
  });
});

describe("bwrap argv with oj-launch and the prepared /etc and /dev", () => {
  const features: BwrapFeatures = {
    tmpfsSize: true,
    disableUserns: true,
    etcBinds: ["/etc/ld.so.cache", "/etc/alternatives"],
    topLevel: [{ name: "bin", symlinkTo: "usr/bin" }],
  };
  const req: RunRequest = { argv: ["./prog", "a b"], cpuTimeLimitMs: 1500, wallTimeLimitMs: 3000, memoryLimitKib: 262144, processLimit: 8, outputLimitBytes: 1024, fileSizeLimitKib: 4096 };
  const spec = {
    boxDir: "/r/box-3",
    uid: 60003,
    switchUser: true,
    passwdFile: "/r/etc-3/passwd",
    groupFile: "/r/etc-3/group",
    req,
    procsFiles: ["/cg/memory/x/cgroup.procs", "/cg/pids/x/cgroup.procs"],
    memoryByCgroup: true,
    tasksByCgroup: true,
    pchSource: null,
    statusFd: 3,
    tmpSizeMib: 64,
    features,
    launcher: "/r/bin/oj-launch-0123",
    etcDir: "/r/etc-3",
    devDir: "/r/dev",
  };

  test("one exec before bwrap, the same limits as prlimit had, the user's argv untouched after --", () => {
    const a = buildBwrapArgv("/usr/bin/bwrap", spec);
    expect(a[0]).toBe("/r/bin/oj-launch-0123");
    for (const p of ["/bin/sh", "/usr/bin/setpriv", "/usr/bin/prlimit"]) expect(a).not.toContain(p);
    const joined = a.join(" ");
    expect(joined).toContain("--cgroup /cg/memory/x/cgroup.procs --cgroup /cg/pids/x/cgroup.procs");
    expect(joined).toContain("--rlimit cpu=3:4");
    expect(joined).toContain(`--rlimit fsize=${4096 * 1024}:${4096 * 1024}`);
    expect(joined).toContain("--rlimit core=0:0");
    expect(joined).toContain("--user 60003:60003");
    expect(joined).not.toContain("--rlimit as=");
    const bw = a.indexOf("/usr/bin/bwrap");
    expect(a[bw - 1]).toBe("--");
    expect(a.slice(-3)).toEqual(["--", "./prog", "a b"]);
    for (const flag of ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session", "--clearenv"]) expect(a).toContain(flag);
    expect(joined).not.toContain("--share-net");
  });

  test("/etc is one read-only bind and /dev one bind with a private /dev/shm", () => {
    const joined = buildBwrapArgv("/usr/bin/bwrap", spec).join(" ");
    expect(joined).toContain("--ro-bind /r/etc-3 /etc");
    expect(joined).not.toContain("--ro-bind-try");
    expect(joined).not.toContain("/etc/passwd");
    expect(joined).toContain("--dev-bind /r/dev /dev --size 67108864 --perms 1777 --tmpfs /dev/shm");
    expect(joined).not.toContain("--dev /dev");
  });

  test("without them: each /etc file bound and bwrap's own --dev", () => {
    const joined = buildBwrapArgv("/usr/bin/bwrap", { ...spec, etcDir: null, devDir: null }).join(" ");
    expect(joined).toContain("--ro-bind-try /etc/ld.so.cache /etc/ld.so.cache");
    expect(joined).toContain("--ro-bind /r/etc-3/passwd /etc/passwd");
    expect(joined).toContain("--dev /dev");
  });
});

describe("prepared /etc and /dev", () => {
  test("/etc holds the box users and copies of exactly the listed host paths, symlinks kept", async () => {
    const dir = join(work, "etc-test");
    await prepareSandboxEtc(dir, "box:x:60001:60001:box:/box:/usr/sbin/nologin\n", "box:x:60001:\n", ["/etc/ld.so.conf", "/etc/localtime", "/etc/no-such-thing"]);
    expect(readdirSync(dir).sort()).toEqual(["group", "ld.so.conf", "localtime", "passwd"]);
    expect(await Bun.file(join(dir, "passwd")).text()).toBe("box:x:60001:60001:box:/box:/usr/sbin/nologin\n");
    expect(lstatSync(join(dir, "localtime")).isSymbolicLink()).toBe(lstatSync("/etc/localtime").isSymbolicLink());
    // Rebuilding replaces the whole directory.
    await prepareSandboxEtc(dir, "p\n", "g\n", []);
    expect(readdirSync(dir).sort()).toEqual(["group", "passwd"]);
    await expect(prepareSandboxEtc(dir, "", "", ["/usr/lib/os-release"])).rejects.toThrow("top-level /etc");
  });

  test.skipIf(!isRoot)("/dev holds the nodes and links of bwrap's --dev, and a tampered one is rebuilt (root only)", async () => {
    const dir = join(work, "dev-test");
    expect(await prepareSandboxDev(dir)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["core", "fd", "full", "null", "random", "shm", "stderr", "stdin", "stdout", "tty", "urandom", "zero"]);
    expect(lstatSync(join(dir, "null")).rdev).toBe(1 * 256 + 3);
    rmSync(join(dir, "zero"));
    await Bun.write(join(dir, "zero"), "not a device");
    expect(await prepareSandboxDev(dir)).toBe(true);
    expect(lstatSync(join(dir, "zero")).isCharacterDevice()).toBe(true);
  });
});

describe.skipIf(!hasBwrap)("inside the box (bwrap)", () => {
  let backend: SandboxBackend;
  let box: Box;
  beforeAll(async () => {
    backend = await createBwrapBackend({ root: join(work, "boxes"), boxIdStart: 790, boxIdCount: 2, poolSize: 1 });
    box = await backend.acquire();
  });
  afterAll(async () => {
    await backend.release(box);
    await backend.close();
  });
  const sh = (script: string) =>
    box.run({ argv: ["/bin/sh", "-c", script], cpuTimeLimitMs: 2000, wallTimeLimitMs: 5000, memoryLimitKib: 128 * 1024, processLimit: 8, outputLimitBytes: 1 << 20, fileSizeLimitKib: 1024 });

  test("the devices work, /dev itself is not writable, /dev/shm is writable and private to the run", async () => {
    const first = await sh(
      "head -c 4 /dev/zero | od -An -tx1; echo x > /dev/null && echo null-ok; head -c 8 /dev/urandom | wc -c; " +
        "touch /dev/planted 2>/dev/null && echo dev-writable; echo secret > /dev/shm/left && echo shm-ok; readlink /dev/stdin",
    );
    expect(first.status).toBe("OK");
    expect(first.stdout).toBe(" 00 00 00 00\nnull-ok\n8\nshm-ok\n/proc/self/fd/0\n");
    const second = await sh("ls -A /dev/shm; ls /dev | tr '\\n' ' '");
    expect(second.status).toBe("OK");
    expect(second.stdout).not.toContain("left");
    expect(second.stdout).not.toContain("planted");
  });

  test("/etc holds only the box's files: its user, the loader's cache, no host secrets", async () => {
    const r = await sh("id -un; ls -A /etc | tr '\\n' ' '; echo; cat /etc/shadow /etc/hostname 2>&1 >/dev/null | wc -l");
    expect(r.status).toBe("OK");
    const [user, listing, errors] = r.stdout.trim().split("\n");
    expect(user).toBe(isRoot ? "box" : user!);
    expect(listing).toContain("passwd");
    expect(listing).toContain("ld.so.cache");
    for (const secret of ["shadow", "hostname", "hosts", "resolv.conf", "ssh"]) expect(listing!.split(" ")).not.toContain(secret);
    expect(errors).toBe("2");
  });
});
