/**
 * The bubblewrap backend's argv: the launch chain for one run (oj-launch or
 * sh/setpriv/prlimit, then bwrap, then the program) as argument arrays, never
 * a shell string with user data; and what the host's bwrap supports
 * (`detectBwrap`). Pure but for detection: unit-tested in isolate/units.test.ts.
 */
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import { BASE_ENV } from "../request.ts";
import { PCH_MOUNT, type RunRequest } from "../types.ts";
import { LAUNCH_JOIN_FAILED } from "./launcher.ts";

/** Tasks the launch chain adds on top of the program's own (bwrap's monitor, which the join script became, and its pid-1 reaper). */
export const BWRAP_OVERHEAD_TASKS = 2;

/** Headroom of the RLIMIT_NPROC backstop over the pids cgroup's exact limit. */
const NPROC_SLACK_WITH_CGROUP = 256;
/** Headroom for not-yet-collected zombies of earlier runs when RLIMIT_NPROC is the only task limit. */
const NPROC_SLACK = 8;

/** Exit code of the launcher (or the cgroup-join script) when writing cgroup.procs failed. */
const JOIN_FAILED = LAUNCH_JOIN_FAILED;
/** Joins every cgroup.procs given before `--`, then execs the rest. A constant: no user data is ever in it. */
const JOIN_SCRIPT = `for f do if [ "$f" = -- ]; then shift; exec "$@"; fi; echo $$ > "$f" || exit ${JOIN_FAILED}; shift; done; exit ${JOIN_FAILED}`;

/** Host capabilities the argv builder depends on (detected once). */
export interface BwrapFeatures {
  /** bwrap ≥ 0.8: `--size` for tmpfs. */
  tmpfsSize: boolean;
  /** bwrap ≥ 0.8: `--disable-userns`. */
  disableUserns: boolean;
  /** /etc paths to bind read-only (dynamic loader cache, JDK config, alternatives). */
  etcBinds: string[];
  /** Top-level directories: symlink (merged /usr) or directory to bind. */
  topLevel: { name: string; symlinkTo?: string }[];
}

/** Everything one run's argv depends on. */
export interface BwrapRunSpec {
  boxDir: string;
  uid: number;
  /** null when not root (no uid switch). */
  switchUser: boolean;
  passwdFile: string;
  groupFile: string;
  req: RunRequest;
  /** cgroup.procs files to join; empty without cgroups. */
  procsFiles: string[];
  /** Memory is limited by a cgroup (then no address-space rlimit is set). */
  memoryByCgroup: boolean;
  /** Tasks are limited by a cgroup (RLIMIT_NPROC stays as a backstop anyway). */
  tasksByCgroup: boolean;
  /** Host directory to bind read-only at /pch (readable by the box uid), or null. */
  pchSource: string | null;
  /** fd number of the json status file in the child. */
  statusFd: number;
  /**
   * fd number of the gate in the child (bwrap's --block-fd: the program is
   * exec'd once a byte can be read from it, see gate.ts); null or absent: none.
   */
  blockFd?: number | null;
  /**
   * Absolute path of the oj-launch helper (launcher.ts), which then replaces the
   * sh/setpriv/prlimit chain; null or absent: that chain.
   */
  launcher?: string | null;
  /**
   * A prepared /etc (passwd, group and copies of `features.etcBinds`, see
   * prepareSandboxEtc) bound read-only in one mount; null or absent: each of
   * those files bound on its own (eight mounts).
   */
  etcDir?: string | null;
  /**
   * A prepared /dev (the device nodes and symlinks bwrap's `--dev` makes, see
   * prepareSandboxDev) bound in one mount, plus a private size-limited tmpfs at
   * /dev/shm; null or absent: bwrap's `--dev` (a tmpfs, six bind mounts, devpts).
   */
  devDir?: string | null;
  tmpSizeMib: number;
  features: BwrapFeatures;
}

/**
 * Builds the full launch argv for one run (pure; unit-tested). Unit
 * conversions happen here: KiB → bytes for prlimit, ms → whole seconds for
 * the CPU rlimit backstop (limit rounded up, plus one second of slack, because
 * the poller enforces the exact limit and RLIMIT_CPU counts per process only).
 */
export function buildBwrapArgv(bwrapBin: string, s: BwrapRunSpec): string[] {
  const r = s.req;
  const cpuSoftS = Math.ceil(r.cpuTimeLimitMs / 1000) + 1;
  const stackKib = r.stackLimitKib ?? Math.min(r.memoryLimitKib, 64 * 1024);
  /** [name, soft, hard]; names are prlimit(1)'s, and the launcher's. */
  const limits: [string, number, number][] = [
    ["cpu", cpuSoftS, cpuSoftS + 1],
    ["fsize", r.fileSizeLimitKib * 1024, r.fileSizeLimitKib * 1024],
    ["stack", stackKib * 1024, stackKib * 1024],
    ["core", 0, 0],
    ["nofile", 512, 512],
    ["memlock", 0, 0],
    ["msgqueue", 0, 0],
  ];
  // RLIMIT_NPROC counts every task of the real uid on the host, zombies included
  // (bwrap's reaper of an earlier run may wait a moment for init to collect it), so
  // it is only meaningful with a per-box uid, and only a loose backstop where the
  // pids cgroup enforces the exact limit.
  if (s.switchUser) {
    const nproc = r.processLimit + BWRAP_OVERHEAD_TASKS + (s.tasksByCgroup ? NPROC_SLACK_WITH_CGROUP : NPROC_SLACK);
    limits.push(["nproc", nproc, nproc]);
  }
  const asKib = r.addressSpaceLimitKib ?? r.memoryLimitKib;
  if (!s.memoryByCgroup && r.addressSpaceLimit !== false) limits.push(["as", asKib * 1024, asKib * 1024]);

  const env = { ...BASE_ENV, ...(r.env ?? {}) };
  const bw: string[] = [bwrapBin, "--unshare-all", "--unshare-user"];
  if (s.features.disableUserns) bw.push("--disable-userns");
  bw.push("--uid", String(s.uid), "--gid", String(s.uid), "--hostname", "box");
  bw.push("--die-with-parent", "--new-session", "--clearenv");
  for (const [k, v] of Object.entries(env)) bw.push("--setenv", k, v);
  bw.push("--ro-bind", "/usr", "/usr");
  for (const t of s.features.topLevel) {
    if (t.symlinkTo !== undefined) bw.push("--symlink", t.symlinkTo, `/${t.name}`);
    else bw.push("--ro-bind", `/${t.name}`, `/${t.name}`);
  }
  // Every bind mount makes bwrap re-read the whole mount table, so fewer mounts
  // is most of what a run's set-up costs beyond the namespaces themselves.
  if (s.etcDir) bw.push("--ro-bind", s.etcDir, "/etc");
  else {
    for (const e of s.features.etcBinds) bw.push("--ro-bind-try", e, e);
    bw.push("--ro-bind", s.passwdFile, "/etc/passwd", "--ro-bind", s.groupFile, "/etc/group");
  }
  bw.push("--proc", "/proc");
  const tmpfsSize = s.features.tmpfsSize ? ["--size", String(s.tmpSizeMib * 1024 * 1024)] : [];
  if (s.devDir) bw.push("--dev-bind", s.devDir, "/dev", ...tmpfsSize, "--perms", "1777", "--tmpfs", "/dev/shm");
  else bw.push("--dev", "/dev");
  bw.push(...tmpfsSize, "--perms", "1777", "--tmpfs", "/tmp");
  bw.push("--bind", s.boxDir, "/box");
  if (s.pchSource !== null) bw.push("--ro-bind", s.pchSource, PCH_MOUNT);
  if (s.blockFd !== undefined && s.blockFd !== null) bw.push("--block-fd", String(s.blockFd));
  bw.push("--chdir", "/box", "--json-status-fd", String(s.statusFd), "--", ...r.argv);

  const chain: string[] = [];
  if (s.launcher) {
    chain.push(s.launcher);
    for (const f of s.procsFiles) chain.push("--cgroup", f);
    for (const [name, soft, hard] of limits) chain.push("--rlimit", `${name}=${soft}:${hard}`);
    if (s.switchUser) chain.push("--user", `${s.uid}:${s.uid}`);
    chain.push("--", ...bw);
    return chain;
  }
  if (s.procsFiles.length) chain.push("/bin/sh", "-c", JOIN_SCRIPT, "oj-sandbox-join", ...s.procsFiles, "--");
  if (s.switchUser) chain.push("/usr/bin/setpriv", `--reuid=${s.uid}`, `--regid=${s.uid}`, "--clear-groups", "--");
  chain.push("/usr/bin/prlimit", ...limits.map(([name, soft, hard]) => `--${name}=${soft === hard && name !== "cpu" ? soft : `${soft}:${hard}`}`), "--", ...bw);
  return chain;
}

/** Detects bwrap's version and the host layout the argv builder needs. @throws Error when bwrap is missing or broken. */
export async function detectBwrap(bwrapBin: string): Promise<{ version: string; features: BwrapFeatures }> {
  const run = async (args: string[]) => {
    const p = Bun.spawn([bwrapBin, ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    await p.exited;
    return out + err;
  };
  const version = (await run(["--version"])).trim();
  if (!/bubblewrap/i.test(version)) throw new Error(`${bwrapBin} --version printed ${JSON.stringify(version.slice(0, 100))}`);
  const help = await run(["--help"]);
  const topLevel: BwrapFeatures["topLevel"] = [];
  for (const name of ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]) {
    try {
      const st = lstatSync(`/${name}`);
      if (st.isSymbolicLink()) topLevel.push({ name, symlinkTo: readlinkSync(`/${name}`) });
      else if (st.isDirectory()) topLevel.push({ name });
    } catch {
      // absent on this host
    }
  }
  const etcBinds = ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime"];
  for (const e of readdirSync("/etc")) if (/^java-\d+-openjdk$/.test(e)) etcBinds.push(`/etc/${e}`);
  return {
    version,
    features: { tmpfsSize: help.includes("--size"), disableUserns: help.includes("--disable-userns"), etcBinds, topLevel },
  };
}
