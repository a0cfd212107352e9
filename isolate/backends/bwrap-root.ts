/**
 * What the bubblewrap backend prepares once under SANDBOX_ROOT: the boxes'
 * /etc (passwd and group naming the box users, a few host files) and /dev
 * (device nodes and links), each a directory swapped in whole, so a run binds
 * one directory instead of one file each (docs/decisions/003, addendum); and
 * the mount helpers the backend uses.
 */
import { closeSync, constants, promises as fsp, lstatSync, openSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, resolve } from "node:path";

export function isMountPoint(dir: string): boolean {
  const abs = resolve(dir);
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .some((l) => l.split(" ")[4]?.replace(/\\040/g, " ") === abs);
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
