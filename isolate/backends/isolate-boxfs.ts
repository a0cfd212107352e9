/**
 * A size-limited file system for every isolate box (security review N3).
 *
 * isolate keeps a box (`<box_root>/<id>`: `box/`, and `tmp/` with the run's
 * /tmp and our private /dev/shm) in a directory of its `box_root`, and bounds
 * only each file's size (`--fsize`); its own `--quota` needs user quotas on a
 * block device, which this machine kind's kernel does not have (no QFMT_V2 for
 * ext4, no XFS_QUOTA, no TMPFS_QUOTA: /proc/config.gz). So the backend mounts a
 * tmpfs with `size=` and `nr_inodes=` over the box directory right after
 * `isolate --init` and unmounts it right before `isolate --cleanup` (isolate
 * removes the box directory itself at clean-up, and 2.x also at init, which
 * fails with EBUSY on a mount point, so the mount cannot outlive either). The
 * bound therefore covers /box, /tmp and /dev/shm together, for the whole time a
 * holder has the box: every test of a submission, since the judge keeps its
 * artifacts in the box between tests. The host's disk is never written: the
 * files are in memory, like bwrap-as-root's 256 MiB / 4096-inode box tmpfs
 * (isolate/backends/bwrap-host.ts), whose figures these defaults take.
 *
 * Mounting needs CAP_SYS_ADMIN: the backend refuses to start without it
 * (`boxFsRefusal`), as it does for an isolate it cannot drive.
 */
import { promises as fsp, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";

/** Default size of each box's tmpfs, MiB: bwrap-as-root's box (isolate/backends/bwrap-host.ts). */
export const ISOLATE_BOX_SIZE_MIB = 256;
/** Default number of files (inodes) per box, bwrap-as-root's; isolate's own layout takes about 8. */
export const ISOLATE_BOX_INODES = 4096;

/** What each box's file system is bounded to. */
export interface BoxFsLimits {
  /** Bytes of files, MiB (tmpfs `size=`). */
  sizeMib: number;
  /** Files and directories (tmpfs `nr_inodes=`). */
  inodes: number;
}

/** The mount source naming a box's tmpfs in the mount table, so a killed server's leftovers can be found. */
export function boxFsSource(id: number): string {
  return `oj-isolate-${id}`;
}

/** A mountinfo path field decoded (the kernel writes space, tab, newline and backslash as \ooo). */
function decode(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** This process's mounts: mount point, file system type and source (proc(5), /proc/self/mountinfo). */
function mounts(): { point: string; type: string; source: string }[] {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [left, right = ""] = line.split(" - ");
      const [type = "", source = ""] = right.split(" ");
      return { point: decode(left!.split(" ")[4] ?? ""), type, source: decode(source) };
    });
}

async function quiet(argv: string[]): Promise<{ code: number; err: string }> {
  const p = Bun.spawn(argv, { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" } });
  const err = await new Response(p.stderr).text();
  return { code: await p.exited, err: err.trim() };
}

/** How many mounts sit exactly at `dir` (stacked mounts count once each). */
export function mountsAt(dir: string): number {
  const abs = resolve(dir);
  return mounts().filter((m) => m.point === abs).length;
}

/**
 * Mounts the box's tmpfs over `boxDir` (the directory `isolate --init` printed)
 * and re-creates isolate's `box/` in it as `--init` left it: mode 0700, owned
 * by the caller (isolate chowns it to the box uid for each run).
 * @returns null, or why it could not (mount(8)'s message).
 */
export async function mountBoxFs(boxDir: string, id: number, limits: BoxFsLimits): Promise<string | null> {
  const m = await quiet([
    "/usr/bin/mount", "-t", "tmpfs",
    "-o", `size=${limits.sizeMib}m,nr_inodes=${limits.inodes},mode=0755,nosuid,nodev`,
    boxFsSource(id), boxDir,
  ]);
  if (m.code !== 0) return m.err || `mount exited with ${m.code}`;
  const box = `${boxDir}/box`;
  try {
    await fsp.mkdir(box, { mode: 0o700 });
    await fsp.chmod(box, 0o700);
    await fsp.chown(box, process.getuid?.() ?? 0, process.getgid?.() ?? 0);
  } catch (err) {
    await unmountBoxFs(boxDir);
    return `cannot create ${box} on the box's tmpfs: ${(err as Error).message}`;
  }
  return null;
}

/**
 * Unmounts whatever is mounted at `boxDir` (lazily when still busy: a process
 * of a killed isolate may hold it), so `isolate --cleanup` removes a plain
 * directory. Never throws.
 */
export async function unmountBoxFs(boxDir: string): Promise<void> {
  for (let i = 0; i < 8 && mountsAt(boxDir) > 0; i++) {
    const u = await quiet(["/usr/bin/umount", boxDir]);
    if (u.code !== 0) await quiet(["/usr/bin/umount", "-l", boxDir]);
  }
}

/**
 * Unmounts the box file systems of `ids` that a killed server left behind
 * (found by their source name, `boxFsSource`, at a directory named after the
 * id), so that isolate can clean and re-create those boxes.
 * @returns the mount points cleared.
 */
export async function clearLeftoverBoxFs(ids: readonly number[]): Promise<string[]> {
  const wanted = new Set(ids.map((id) => boxFsSource(id)));
  const left = mounts().filter((m) => m.type === "tmpfs" && wanted.has(m.source) && boxFsSource(Number(basename(m.point))) === m.source);
  const points = [...new Set(left.map((m) => m.point))];
  for (const p of points) await unmountBoxFs(p);
  return points;
}

/**
 * Why the isolate backend refuses to start when a box's tmpfs cannot be
 * mounted, with how to fix it.
 */
export function boxFsRefusal(why: string, limits: BoxFsLimits): string {
  const uid = process.getuid?.();
  return (
    `isolate's boxes need a size-limited file system each (${limits.sizeMib} MiB, ${limits.inodes} files), or a program fills the host's disk ` +
    `(isolate's --quota needs user quotas this kernel may lack); the backend mounts a tmpfs over each box, and mounting failed: ${why.split("\n")[0]!.slice(0, 200).replace(/\.$/, "")}. ` +
    (uid !== 0
      ? `The server runs as uid ${uid}: run it as root (mounting needs CAP_SYS_ADMIN), or use SANDBOX=bwrap. `
      : "The server needs CAP_SYS_ADMIN to mount (a container: --cap-add SYS_ADMIN), or use SANDBOX=bwrap. ") +
    "See docs/sandbox.md (isolate: box quota)."
  );
}
