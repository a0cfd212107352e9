/**
 * What the bubblewrap backend prepares once under SANDBOX_ROOT: the boxes'
 * /etc (passwd and group naming the box users, a few host files) and /dev
 * (device nodes and links), each a directory swapped in whole, so a run binds
 * one directory instead of one file each (docs/decisions/003, addendum); and
 * the mount helpers the backend uses, with what a server needs to clear a
 * killed predecessor's mounts and files from its SANDBOX_ROOT (src/sandbox.ts).
 */
import { closeSync, constants, promises as fsp, lstatSync, openSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, resolve } from "node:path";

/** Every mount point in this process's mount table, once per mount, in table order (/proc/self/mountinfo's 5th field). */
export function mountPoints(): string[] {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((l) => l.split(" ")[4])
    .filter((p): p is string => !!p)
    // The kernel writes space, tab, newline and backslash in a path as \ooo.
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8))));
}

export function isMountPoint(dir: string): boolean {
  const abs = resolve(dir);
  return mountPoints().includes(abs);
}

/**
 * Lazily unmounts (umount -l: detached at once, even while a run still uses
 * it) every mount `select()` lists, deepest first, pass after pass (stacked
 * mounts come off one layer per umount) until it lists none or a pass removes
 * nothing. Synchronous, so that a shutdown past its deadline can still call it
 * on the way out.
 * @returns the mount points unmounted, and those still mounted (umount refused: not root).
 */
export function unmountSync(select: () => string[]): { unmounted: string[]; left: string[] } {
  const unmounted: string[] = [];
  // A bound on the passes: a umount that keeps failing must not loop.
  for (let pass = 0; pass < 8; pass++) {
    const points = select().sort((a, b) => b.length - a.length);
    if (!points.length) break;
    let progress = false;
    for (const p of points) {
      const r = Bun.spawnSync(["/usr/bin/umount", "-l", p], { stdout: "ignore", stderr: "ignore", env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" } });
      if (r.exitCode === 0) {
        unmounted.push(p);
        progress = true;
      }
    }
    if (!progress) break;
  }
  return { unmounted, left: select() };
}

/** A box's directory name under SANDBOX_ROOT (and its tmpfs's mount point, as root). */
export function boxDirName(id: number): string {
  return `box-${id}`;
}
const BOX_DIR = /^box-\d+$/;

/**
 * The mounts this backend makes under `root`, whichever process made them:
 * the box tmpfs at root/box-<id> and the /pch bind mount at root/pch (and
 * anything below those), once per mount. Nothing else under root: a
 * SANDBOX_ROOT may itself be a mount, or hold another process's root below it.
 */
export function backendMountsUnder(root: string): string[] {
  const base = resolve(root);
  return mountPoints().filter((p) => {
    if (!p.startsWith(`${base}/`)) return false;
    const first = p.slice(base.length + 1).split("/")[0]!;
    return first === "pch" || BOX_DIR.test(first);
  });
}

/**
 * Unmounts every mount of backendMountsUnder(root), synchronously (a
 * shutdown past its deadline calls it on the way out). Only for a root this
 * process holds (src/sandbox.ts lockSandbox): another live server's boxes
 * would vanish under its runs.
 * @returns what was unmounted, and what is still mounted (umount refused: not root).
 */
export function unmountBackendMounts(root: string): { unmounted: string[]; left: string[] } {
  return unmountSync(() => backendMountsUnder(root));
}

/**
 * What a killed backend leaves in `root` besides its mounts, to remove once
 * those are gone: box directories, launch files in run/, and the half-swapped
 * /etc and /dev directories of an interrupted start (`<dir>.new-<pid>`,
 * `<dir>.old-<pid>`). The launcher (bin/), the prepared /dev and /etc and the
 * pch mount point stay: they are checked or rebuilt at start.
 * @returns the paths to remove, directly under root or run/.
 */
export function staleBackendFiles(root: string): string[] {
  const base = resolve(root);
  const list = (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const stale = list(base).filter((n) => BOX_DIR.test(n) || /\.(new|old)-\d+$/.test(n)).map((n) => join(base, n));
  return [...stale, ...list(join(base, "run")).map((n) => join(base, "run", n))];
}

export async function runQuiet(argv: string[]): Promise<{ code: number; err: string }> {
  const p = Bun.spawn(argv, { stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" } });
  const err = await new Response(p.stderr).text();
  return { code: await p.exited, err };
}

/** Replaces directory `dir` by the directory `fresh` (same parent); `dir` may be absent. */
async function swapDir(fresh: string, dir: string): Promise<void> {
  const old = `${dir}.old-${process.pid}`;
  await fsp.rm(old, { recursive: true, force: true });
  await fsp.rename(dir, old).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "ENOENT") throw err;
  });
  await fsp.rename(fresh, dir);
  await fsp.rm(old, { recursive: true, force: true });
}

/**
 * Builds the box's /etc as one directory `dir` (bound read-only at /etc in one
 * mount): `passwd` and `group` naming the box users, plus copies (symlinks
 * kept as symlinks, modes kept) of exactly the host paths that used to be bound
 * one by one (`etcPaths`: the dynamic loader's cache and configuration,
 * alternatives, localtime, the JDK's configuration). Absent paths are skipped,
 * as `--ro-bind-try` did. The copies are taken at start-up: a package installed
 * while the server runs is seen by the boxes after a restart.
 */
export async function prepareSandboxEtc(dir: string, passwd: string, group: string, etcPaths: readonly string[]): Promise<void> {
  const fresh = `${dir}.new-${process.pid}`;
  await fsp.rm(fresh, { recursive: true, force: true });
  await fsp.mkdir(fresh, { mode: 0o755 });
  for (const path of etcPaths) {
    const name = path.startsWith("/etc/") ? path.slice("/etc/".length) : "";
    if (!name || name.includes("/")) throw new Error(`not a top-level /etc path: ${path}`);
    if (name === "passwd" || name === "group") continue;
    if (!lstatSync(path, { throwIfNoEntry: false })) continue;
    await fsp.cp(path, join(fresh, name), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true, force: false });
  }
  await fsp.writeFile(join(fresh, "passwd"), passwd, { mode: 0o644 });
  await fsp.writeFile(join(fresh, "group"), group, { mode: 0o644 });
  await fsp.chmod(fresh, 0o755);
  await swapDir(fresh, dir);
}

/** The device nodes of bwrap's `--dev`: name, major, minor (all mode 0666). */
const DEV_NODES: readonly [string, number, number][] = [
  ["null", 1, 3],
  ["zero", 1, 5],
  ["full", 1, 7],
  ["random", 1, 8],
  ["urandom", 1, 9],
  ["tty", 5, 0],
];
/** The symlinks of bwrap's `--dev` (not ptmx: no devpts is mounted). */
const DEV_LINKS: readonly [string, string][] = [
  ["fd", "/proc/self/fd"],
  ["stdin", "/proc/self/fd/0"],
  ["stdout", "/proc/self/fd/1"],
  ["stderr", "/proc/self/fd/2"],
  ["core", "/proc/kcore"],
];

/** True when `dir` holds exactly DEV_NODES, DEV_LINKS and an empty `shm`, owned by us and writable by nobody else. */
function isSandboxDev(dir: string): boolean {
  const me = process.getuid?.();
  const ours = (st: { uid: number }) => me === undefined || st.uid === me;
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st || !st.isDirectory() || !ours(st) || (st.mode & 0o7777) !== 0o755) return false;
  const want = new Set([...DEV_NODES.map((n) => n[0]), ...DEV_LINKS.map((l) => l[0]), "shm"]);
  const names = readdirSync(dir);
  if (names.length !== want.size || names.some((n) => !want.has(n))) return false;
  for (const [name, major, minor] of DEV_NODES) {
    const n = lstatSync(join(dir, name));
    if (!n.isCharacterDevice() || !ours(n) || (n.mode & 0o7777) !== 0o666 || n.rdev !== major * 256 + minor) return false;
  }
  for (const [name, target] of DEV_LINKS) {
    const l = lstatSync(join(dir, name));
    if (!l.isSymbolicLink() || readlinkSync(join(dir, name)) !== target) return false;
  }
  const shm = lstatSync(join(dir, "shm"));
  return shm.isDirectory() && ours(shm) && (shm.mode & 0o7777) === 0o755 && readdirSync(join(dir, "shm")).length === 0;
}

/**
 * Builds (or checks) the box's /dev as one directory `dir`: the same device
 * nodes and symlinks as bwrap's `--dev`, bound at /dev in one mount instead of
 * a tmpfs plus six bind mounts; /dev/shm gets a private tmpfs per run.
 * Needs root (mknod) and a file system that allows device nodes.
 * @returns false when that is not possible here (the caller uses `--dev`).
 */
export async function prepareSandboxDev(dir: string): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  if (!isSandboxDev(dir)) {
    const fresh = `${dir}.new-${process.pid}`;
    await fsp.rm(fresh, { recursive: true, force: true });
    await fsp.mkdir(fresh, { mode: 0o755 });
    for (const [name, major, minor] of DEV_NODES) {
      const m = await runQuiet(["/usr/bin/mknod", "-m", "0666", join(fresh, name), "c", String(major), String(minor)]);
      if (m.code !== 0) {
        await fsp.rm(fresh, { recursive: true, force: true });
        return false;
      }
    }
    for (const [name, target] of DEV_LINKS) await fsp.symlink(target, join(fresh, name));
    await fsp.mkdir(join(fresh, "shm"), { mode: 0o755 });
    await fsp.chmod(fresh, 0o755);
    await swapDir(fresh, dir);
    if (!isSandboxDev(dir)) return false;
  }
  // A file system mounted nodev refuses to open the nodes (even for root).
  try {
    const fd = openSync(join(dir, "null"), constants.O_WRONLY);
    closeSync(fd);
    return true;
  } catch {
    return false;
  }
}
