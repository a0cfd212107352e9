/**
 * The bwrap backend's host: everything set up once when the backend starts and
 * shared by its boxes — the bwrap binary and its features, root or not, the
 * host's cgroups, SANDBOX_ROOT and its run directory, the launcher (oj-launch)
 * or the reason it is missing, the per-box uids and the box's /etc and /dev,
 * the read-only /pch, and each box's directory (a size-limited tmpfs as root).
 * bwrap.ts assembles the backend from this, bwrap-launch.ts (a run's sandbox,
 * up to its gate) and bwrap-box.ts (a run).
 */
import { existsSync, promises as fsp, lstatSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { detectCgroups, RunCgroup, type CgroupSupport } from "../cgroup.ts";
import { BoxIdPool } from "../pool.ts";
import { emptyDir } from "../boxfs.ts";
import { ensureLauncher } from "./launcher.ts";
import { detectBwrap, type BwrapFeatures } from "./bwrap-argv.ts";
import { boxDirName, isMountPoint, prepareSandboxDev, prepareSandboxEtc, runQuiet } from "./bwrap-root.ts";

export interface BwrapOptions {
  /** SANDBOX_ROOT: where box directories live (created 0755, must not be a symlink). */
  root: string;
  boxIdStart: number;
  boxIdCount: number;
  poolSize: number;
  /** Host directory mounted read-only at /pch (the precompiled header); skipped while absent. */
  pchDir?: string;
  /** Default: `bwrap` on PATH. */
  bwrapBin?: string;
  /** Size of each box's tmpfs, MiB (root only; default 256). */
  boxSizeMib?: number;
  /** Files (inodes) per box (root only; default 4096). */
  boxInodes?: number;
  /** Size of the run's private /tmp, MiB (default 64). */
  tmpSizeMib?: number;
  /**
   * Called after each run (once its clean-up is done) with where its time
   * went; scripts/bench-sandbox.ts prints the medians.
   */
  onRunTimings?: (timings: BwrapRunTimings) => void;
  /**
   * Turns start-up savings off (default: all on), so that
   * scripts/bench-sandbox.ts can show what each saves in the same run, and as
   * an escape hatch should one misbehave on some host. `launcher: false`: the
   * sh → setpriv → prlimit chain instead of oj-launch. `preparedEtcDev: false`:
   * /etc files bound one by one and bwrap's own `--dev`. `warm: false`: no
   * launch is made in advance; every run sets its sandbox up on its own path
   * (gate.ts). The walls are the same either way.
   */
  tuning?: { launcher?: boolean; preparedEtcDev?: boolean; warm?: boolean };
}

/**
 * Where one run's time went, ms, in order: `prepare` (stdin, status and gate
 * files, the run's cgroup, the argv, writing stdin and opening the gate),
 * `spawn` (Bun.spawn returning), `exit` (until the launch chain's process
 * exited: for a cold run the launcher and bwrap's set-up too, then the program
 * and bwrap's teardown), `output` (draining stdout/stderr after the exit),
 * `collect` (checking the cgroup is empty, reading CPU, memory, OOM and bwrap's
 * status), `total` (start of run() to its result). `cleanup` (removing the
 * cgroup and the run's files, then the next launch) happens after the result is
 * handed back, off the run's path. `warm`: the run used a launch made in
 * advance (then `prepare` is writing stdin and opening the gate, `spawn` is 0).
 */
export interface BwrapRunTimings {
  prepare: number;
  spawn: number;
  exit: number;
  output: number;
  collect: number;
  total: number;
  cleanup: number;
  warm: boolean;
}

/** First uid of the per-box users (isolate's default first_uid is 60000 as well). */
export const BOX_UID_BASE = 60000;

/** What the backend's boxes and launches share; made once by setUpBwrapHost. */
export interface BwrapHost {
  /** Absolute path of bwrap (the launcher execs it without a PATH search). */
  bwrapBin: string;
  version: string;
  features: BwrapFeatures;
  isRoot: boolean;
  /** The host's writable cgroups, or why there are none (runs then rely on rlimits). */
  cg: { support: CgroupSupport | null; why: string };
  root: string;
  /** SANDBOX_ROOT/run (0700): each launch's stdin, status and gate files. */
  runDir: string;
  /** oj-launch's path, or null with `noLauncher` saying why (the sh/setpriv/prlimit chain is used). */
  launcher: string | null;
  noLauncher: string | null;
  pool: BoxIdPool;
  /** The box's uid: BOX_UID_BASE + id as root, the server's own uid otherwise. */
  uidOf(id: number): number;
  passwdFile: string;
  groupFile: string;
  /** The prepared /etc directory, or null when /etc files are bound one by one. */
  etcDir: string | null;
  /** The prepared /dev directory, or null for bwrap's own --dev. */
  devDir: string | null;
  /** What is bound read-only at /pch, or null. */
  pchSource: string | null;
  pchWanted: boolean;
  tmpSizeMib: number;
  /** Whether boxes are tmpfs mounts (root, and mount worked for every box so far). */
  readonly tmpfsBoxes: boolean;
  /** Creates (or empties) box `id`'s directory, owned by its uid, mode 0700. */
  prepareBoxDir(id: number): Promise<string>;
  /** Unmounts what the host mounted (box tmpfs, /pch). */
  unmountAll(): Promise<void>;
}

/**
 * Checks the host and sets up what every box shares.
 * @throws Error naming what is missing (bwrap, a usable SANDBOX_ROOT, and
 *         prlimit/setpriv when the launcher cannot be built).
 */
export async function setUpBwrapHost(opts: BwrapOptions): Promise<BwrapHost> {
  const found = opts.bwrapBin ?? Bun.which("bwrap") ?? "";
  if (!found) throw new Error("bubblewrap (bwrap) is not installed: apt install bubblewrap");
  // The launcher execs bwrap by absolute path (no PATH search).
  const bwrapBin = found.startsWith("/") ? found : (Bun.which(found) ?? resolve(found));
  const { version, features } = await detectBwrap(bwrapBin);
  const isRoot = process.getuid?.() === 0;
  const cg = isRoot ? await detectCgroups() : { support: null, why: "not root: cgroups are not writable" };

  const root = resolve(opts.root);
  await fsp.mkdir(root, { recursive: true, mode: 0o755 });
  const st = lstatSync(root);
  if (!st.isDirectory() || st.isSymbolicLink() || st.uid !== (process.getuid?.() ?? st.uid)) {
    throw new Error(`SANDBOX_ROOT ${root} must be a directory owned by the server's user (not a symlink)`);
  }
  await fsp.chmod(root, 0o755);
  const built = opts.tuning?.launcher === false ? { why: "turned off (tuning.launcher)" } : await ensureLauncher(root);
  const launcher = "path" in built ? built.path : null;
  const noLauncher = "why" in built ? built.why : null;
  if (noLauncher) {
    if (!existsSync("/usr/bin/prlimit")) throw new Error(`/usr/bin/prlimit is missing (util-linux), and ${noLauncher}`);
    if (isRoot && !existsSync("/usr/bin/setpriv")) throw new Error(`/usr/bin/setpriv is missing (util-linux), and ${noLauncher}`);
  }
  if (isRoot) {
    // bwrap runs as the box uid and must reach the box directories through every ancestor.
    for (let dir = dirname(root); ; dir = dirname(dir)) {
      if (((await fsp.stat(dir)).mode & 0o001) === 0) {
        throw new Error(`SANDBOX_ROOT ${root}: ancestor ${dir} is not searchable by other users (chmod o+x ${dir}, or choose another SANDBOX_ROOT)`);
      }
      if (dir === "/") break;
    }
  }
  const runDir = join(root, "run");
  await fsp.mkdir(runDir, { recursive: true, mode: 0o700 });
  await fsp.chmod(runDir, 0o700);

  const pool = new BoxIdPool(opts.boxIdStart, opts.boxIdCount, opts.poolSize);
  // A crashed earlier server may have left run cgroups of our box ids behind.
  if (cg.support) await RunCgroup.removeStale(cg.support, pool.ids.map((id) => `box-${id}-`));
  const uidOf = (id: number) => (isRoot ? BOX_UID_BASE + id : process.getuid?.() ?? 1000);
  if (isRoot) {
    const taken = boxUidConflict(pool.ids.map(uidOf));
    if (taken) throw new Error(`${taken}; choose ISOLATE_BOX_ID_START so that ${BOX_UID_BASE} + box id is nobody's uid`);
  }
  const users = [...new Set(pool.ids.map((id) => uidOf(id)))];
  // The box's /etc, one directory per pool (two servers sharing SANDBOX_ROOT use disjoint box ids).
  const etcDir = join(root, `etc-${pool.ids[0]}`);
  await prepareSandboxEtc(
    etcDir,
    users.map((u) => `box:x:${u}:${u}:box:/box:/usr/sbin/nologin\n`).join(""),
    users.map((u) => `box:x:${u}:\n`).join(""),
    features.etcBinds,
  );
  const prepared = opts.tuning?.preparedEtcDev !== false;
  const devDir = prepared && (await prepareSandboxDev(join(root, "dev"))) ? join(root, "dev") : null;

  const boxSizeMib = opts.boxSizeMib ?? 256;
  const boxInodes = opts.boxInodes ?? 4096;
  const mounted = new Set<string>();
  let tmpfsBoxes = isRoot;

  async function prepareBoxDir(id: number): Promise<string> {
    const dir = join(root, boxDirName(id));
    const uid = uidOf(id);
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const dst = lstatSync(dir);
    if (!dst.isDirectory() || dst.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
    if (tmpfsBoxes && !mounted.has(dir)) {
      if (!isMountPoint(dir)) {
        const m = await runQuiet([
          "/usr/bin/mount", "-t", "tmpfs",
          "-o", `size=${boxSizeMib}m,nr_inodes=${boxInodes},mode=0700,uid=${uid},gid=${uid},nosuid,nodev`,
          `oj-box-${id}`, dir,
        ]);
        if (m.code !== 0) tmpfsBoxes = false;
      }
      if (tmpfsBoxes) mounted.add(dir);
    }
    await emptyDir(dir);
    if (isRoot) await fsp.chown(dir, uid, uid);
    await fsp.chmod(dir, 0o700);
    return dir;
  }

  const pchSource = opts.pchDir ? await mountPch(opts.pchDir, root, isRoot, mounted) : null;

  return {
    bwrapBin,
    version,
    features,
    isRoot,
    cg,
    root,
    runDir,
    launcher,
    noLauncher,
    pool,
    uidOf,
    passwdFile: join(etcDir, "passwd"),
    groupFile: join(etcDir, "group"),
    etcDir: prepared ? etcDir : null,
    devDir,
    pchSource,
    pchWanted: Boolean(opts.pchDir),
    tmpSizeMib: opts.tmpSizeMib ?? 64,
    get tmpfsBoxes() {
      return tmpfsBoxes;
    },
    prepareBoxDir,
    async unmountAll() {
      for (const dir of mounted) await runQuiet(["/usr/bin/umount", "-l", dir]);
      mounted.clear();
    },
  };
}

/**
 * /pch: as root, DATA_DIR/pch is bind-mounted read-only at SANDBOX_ROOT/pch
 * (DATA_DIR itself may not be traversable by the box uids, and the box must
 * see nothing else of it); without root, bwrap binds DATA_DIR/pch directly.
 * @returns what bwrap binds at /pch, or null when the bind mount failed.
 */
async function mountPch(pchDir: string, root: string, isRoot: boolean, mounted: Set<string>): Promise<string | null> {
  await fsp.mkdir(pchDir, { recursive: true, mode: 0o755 });
  if (!isRoot) return resolve(pchDir);
  const target = join(root, "pch");
  await fsp.mkdir(target, { recursive: true, mode: 0o755 });
  if (isMountPoint(target)) await runQuiet(["/usr/bin/umount", "-l", target]);
  const bind = await runQuiet(["/usr/bin/mount", "--bind", resolve(pchDir), target]);
  const ro = bind.code === 0 ? await runQuiet(["/usr/bin/mount", "-o", "remount,bind,ro,nosuid,nodev", target]) : bind;
  if (ro.code === 0) {
    mounted.add(target);
    return target;
  }
  if (bind.code === 0) await runQuiet(["/usr/bin/umount", "-l", target]);
  return null;
}

/**
 * The box uids must belong to nobody else: a box running as a real user's uid
 * (or as `nobody`, 65534, the kernel's overflow uid) would share that user's
 * RLIMIT_NPROC count and could touch files that user owns.
 * @param uids the box uids; @param passwd, group the account files' text (default: the host's).
 * @returns a description of the first conflict, or null.
 */
export function boxUidConflict(uids: readonly number[], passwd = readOptional("/etc/passwd"), group = readOptional("/etc/group")): string | null {
  const owners = new Map<number, string>();
  for (const [file, text] of [["/etc/passwd", passwd], ["/etc/group", group]] as const) {
    for (const line of text.split("\n")) {
      const [name, , id] = line.split(":");
      if (name && id && /^\d+$/.test(id) && !owners.has(Number(id))) owners.set(Number(id), `${name} in ${file}`);
    }
  }
  for (const uid of uids) {
    if (uid >= 65534) return `box uid ${uid} is the kernel's overflow uid or above`;
    const owner = owners.get(uid);
    if (owner) return `box uid ${uid} (${BOX_UID_BASE} + box id ${uid - BOX_UID_BASE}) is already taken by ${owner}`;
  }
  return null;
}

function readOptional(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
