/**
 * The bubblewrap backend: each run is a fresh set of namespaces (user, mount,
 * pid, net, ipc, uts, cgroup) with read-only system directories, a private
 * writable box at /box, a tmpfs /tmp, a fixed minimal environment and no
 * network. When the server runs as root, each box has its own unprivileged
 * uid (60000 + box id, as isolate does) and its own size-limited tmpfs; limits
 * come from a fresh cgroup per run (v2 or v1; memory without swap, tasks, CPU
 * summed over threads) plus rlimits (file size, stack, CPU backstop), or from
 * rlimits alone where cgroups are not writable.
 *
 * Launch chain, all argument arrays and all `exec` (one pid):
 *   oj-launch (joins the run's cgroups, sets rlimits and no_new_privs, drops to
 *   the box uid; a fixed static C helper, see launcher.ts) → bwrap → program
 * or, where the launcher cannot be built or run (no C compiler, a noexec
 * SANDBOX_ROOT), the same steps as
 *   sh (a fixed join script) → setpriv (box uid) → prlimit → bwrap → program
 * /etc and /dev are prepared directories under SANDBOX_ROOT, one mount each
 * (prepareSandboxEtc, prepareSandboxDev): bwrap re-reads the host's mount
 * table after every bind mount, so the number of mounts is most of a run's
 * set-up cost beyond the namespaces (docs/decisions/003, addendum).
 * bwrap's --json-status-fd tells a sandbox set-up failure (XX) from the
 * program's own exit; its pid-1 reaper and --die-with-parent make the whole
 * process tree die with the run, and the cgroup kill loop removes stragglers.
 */
import type { Subprocess } from "bun";
import { closeSync, openSync, constants, existsSync, promises as fsp, lstatSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { detectCgroups, RunCgroup } from "../cgroup.ts";
import { BoxIdPool, pooledBoxes } from "../pool.ts";
import { DirectoryBox, emptyDir } from "../boxfs.ts";
import { classify, sandboxFailure, type Observation } from "../result.ts";
import { collectOutput, killTree, parseJsonStatus } from "./common.ts";
import { launchKey, makeFifo } from "./gate.ts";
import { ensureLauncher, LAUNCH_FAILED, LAUNCH_JOIN_FAILED } from "./launcher.ts";
import type { RunRequest, RunResult, SandboxBackend } from "../types.ts";
import { BWRAP_OVERHEAD_TASKS, buildBwrapArgv, detectBwrap, type BwrapFeatures, type BwrapRunSpec } from "./bwrap-argv.ts";
import { isMountPoint, prepareSandboxDev, prepareSandboxEtc, runQuiet } from "./bwrap-root.ts";

export { BWRAP_OVERHEAD_TASKS, buildBwrapArgv, detectBwrap, prepareSandboxDev, prepareSandboxEtc };
export type { BwrapFeatures, BwrapRunSpec };

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
/** How often the runner samples CPU time and memory, ms. */
export const POLL_MS = 10;

/** Stdin up to this many characters is written synchronously (a few microseconds), bigger through the I/O pool. */
const SYNC_WRITE_MAX = 64 * 1024;

/**
 * Starts the bwrap backend.
 * @throws Error naming what is missing (bwrap, a usable SANDBOX_ROOT, and
 *         prlimit/setpriv when the launcher cannot be built).
 */
export async function createBwrapBackend(opts: BwrapOptions): Promise<SandboxBackend> {
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
  const passwdFile = join(etcDir, "passwd");
  const groupFile = join(etcDir, "group");
  const prepared = opts.tuning?.preparedEtcDev !== false;
  const devDir = prepared && (await prepareSandboxDev(join(root, "dev"))) ? join(root, "dev") : null;

  const boxSizeMib = opts.boxSizeMib ?? 256;
  const boxInodes = opts.boxInodes ?? 4096;
  const tmpSizeMib = opts.tmpSizeMib ?? 64;
  const mounted = new Set<string>();
  let tmpfsBoxes = isRoot;

  async function prepareBoxDir(id: number): Promise<string> {
    const dir = join(root, `box-${id}`);
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

  // /pch: as root, DATA_DIR/pch is bind-mounted read-only at SANDBOX_ROOT/pch
  // (DATA_DIR itself may not be traversable by the box uids, and the box must
  // see nothing else of it); without root, bwrap binds DATA_DIR/pch directly.
  let pchSource: string | null = null;
  if (opts.pchDir) {
    await fsp.mkdir(opts.pchDir, { recursive: true, mode: 0o755 });
    if (isRoot) {
      const target = join(root, "pch");
      await fsp.mkdir(target, { recursive: true, mode: 0o755 });
      if (isMountPoint(target)) await runQuiet(["/usr/bin/umount", "-l", target]);
      const bind = await runQuiet(["/usr/bin/mount", "--bind", resolve(opts.pchDir), target]);
      const ro = bind.code === 0 ? await runQuiet(["/usr/bin/mount", "-o", "remount,bind,ro,nosuid,nodev", target]) : bind;
      if (ro.code === 0) {
        pchSource = target;
        mounted.add(target);
      } else if (bind.code === 0) {
        await runQuiet(["/usr/bin/umount", "-l", target]);
      }
    } else {
      pchSource = resolve(opts.pchDir);
    }
  }

  const owner = (id: number) => (isRoot ? { uid: uidOf(id), gid: uidOf(id) } : undefined);

  class BwrapBox extends DirectoryBox {
    /** The last run's clean-up (never rejects); awaited before the next run, release and close. */
    cleanup: Promise<void> = Promise.resolve();
    constructor(id: number, dir: string) {
      super(id, dir, owner(id));
    }
    protected execute(req: RunRequest): Promise<RunResult> {
      return runOnce(this, req);
    }
  }

  /** A run's sandbox: launched, set up (or setting up), waiting at its gate (gate.ts). */
  interface Launch {
    /** launchKey of the request it was made for. */
    key: string;
    proc: Subprocess;
    cgroup: RunCgroup | null;
    stdinPath: string;
    statusPath: string;
    gatePath: string;
    /** The runner's end of the gate FIFO (read-write, shared with the sandbox's fd GATE_FD). */
    gateFd: number;
    /** Time spent before and in Bun.spawn, ms. */
    prepareMs: number;
    spawnMs: number;
  }
  /** Where the sandbox reads its gate: bwrap's --block-fd. */
  const GATE_FD = 4;
  let launchSeq = 0;
  /** Launches made in advance, one per box id at most (tuning.warm). */
  const warm = new Map<number, Launch>();
  /** Unused launches still being cleared away. */
  const discarding = new Set<Promise<void>>();
  const warmOn = opts.tuning?.warm !== false;
  let closing = false;

  /**
   * Sets a run's sandbox up as far as the gate: the stdin file (empty until the
   * run writes it), the status file, the gate FIFO, the run's cgroup, and the
   * launch chain, spawned.
   * @throws Error with the message a failed run reports (the run is then XX).
   */
  async function launch(box: BwrapBox, req: RunRequest): Promise<Launch> {
    const t0 = performance.now();
    const tag = `box-${box.id}-${process.pid}-${++launchSeq}`;
    const stdinPath = join(runDir, `${tag}.stdin`);
    const statusPath = join(runDir, `${tag}.status`);
    const gatePath = join(runDir, `${tag}.gate`);
    const fds: number[] = [];
    let cgroup: RunCgroup | null = null;
    let gateFd = -1;
    try {
      writeFileSync(stdinPath, "", { mode: 0o600 });
      await makeFifo(gatePath);
      if (cg.support) {
        try {
          cgroup = await RunCgroup.create(cg.support, tag, req.memoryLimitKib, req.processLimit + BWRAP_OVERHEAD_TASKS);
        } catch (err) {
          throw new Error(`cannot create the run's cgroup: ${(err as Error).message}`);
        }
      }
      const stdinFd = openSync(stdinPath, constants.O_RDONLY);
      fds.push(stdinFd);
      const statusFd = openSync(statusPath, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
      fds.push(statusFd);
      // Opening a FIFO read-write never blocks (Linux).
      gateFd = openSync(gatePath, constants.O_RDWR);
      const argv = buildBwrapArgv(bwrapBin, {
        boxDir: box.dir,
        uid: uidOf(box.id),
        switchUser: isRoot,
        passwdFile,
        groupFile,
        req,
        procsFiles: cgroup?.procsFiles ?? [],
        memoryByCgroup: cgroup !== null,
        tasksByCgroup: cgroup?.limitsTasks ?? false,
        pchSource,
        statusFd: 3,
        blockFd: GATE_FD,
        tmpSizeMib,
        features,
        launcher,
        etcDir: prepared ? etcDir : null,
        devDir,
      });
      const t1 = performance.now();
      const proc = Bun.spawn(argv, {
        // Nothing of the server's environment: bwrap's reaper keeps the environment it was started with in /proc/1/environ.
        env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
        cwd: runDir,
        stdio: [stdinFd, "pipe", "pipe", statusFd, gateFd] as never,
      });
      for (const fd of fds.splice(0)) closeSync(fd);
      return { key: launchKey(req), proc, cgroup, stdinPath, statusPath, gatePath, gateFd, prepareMs: t1 - t0, spawnMs: performance.now() - t1 };
    } catch (err) {
      for (const fd of fds) closeSync(fd);
      if (gateFd >= 0) closeSync(gateFd);
      await removeLaunchFiles({ cgroup, stdinPath, statusPath, gatePath });
      const message = (err as Error).message;
      throw new Error(message.startsWith("cannot create the run's cgroup") ? message : `bwrap backend error: ${message}`);
    }
  }

  async function removeLaunchFiles(l: Pick<Launch, "cgroup" | "stdinPath" | "statusPath" | "gatePath">): Promise<void> {
    if (l.cgroup) await l.cgroup.remove().catch(() => {});
    await Promise.all([l.stdinPath, l.statusPath, l.gatePath].map((p) => fsp.rm(p, { force: true }).catch(() => {})));
  }

  /**
   * Ends a launch that will not run (made for another request, or at close):
   * kills it before its gate opens, waits until nothing of it is left, then
   * closes the gate and removes its files and cgroup.
   */
  async function discard(l: Launch): Promise<void> {
    killTree(l.proc);
    if (l.cgroup) await l.cgroup.killAll();
    await l.proc.exited;
    closeSync(l.gateFd);
    await removeLaunchFiles(l);
  }

  /** After a run: the box's next launch, for the same request, made now (off the next run's path). */
  async function prestart(box: BwrapBox, req: RunRequest): Promise<void> {
    if (!warmOn || closing) return;
    try {
      const l = await launch(box, req);
      if (closing || warm.has(box.id)) await discard(l);
      else warm.set(box.id, l);
    } catch {
      // the next run launches on its own path and reports what fails
    }
  }

  async function runOnce(box: BwrapBox, req: RunRequest): Promise<RunResult> {
    // The previous run's clean-up (cgroup removal, its files, the next launch) finishes first.
    await box.cleanup;
    const runStarted = performance.now();
    const timings: BwrapRunTimings = { prepare: 0, spawn: 0, exit: 0, output: 0, collect: 0, total: 0, cleanup: 0, warm: false };
    let l: Launch | null = warm.get(box.id) ?? null;
    warm.delete(box.id);
    if (l && (l.key !== launchKey(req) || l.proc.exitCode !== null || l.proc.signalCode !== null)) {
      // Made for another request, or its set-up failed: this run launches its own. The
      // unused launch is killed now (it never passed its gate, and its gate is its own)
      // and cleared away off this run's path; close() waits for it.
      const unused = l;
      killTree(unused.proc);
      const gone = discard(unused).catch(() => {});
      discarding.add(gone);
      void gone.then(() => discarding.delete(gone));
      l = null;
    }
    timings.warm = l !== null;
    let started = runStarted;
    const fail = (message: string, seen: Partial<Observation> = {}): RunResult =>
      sandboxFailure(message, { wallTimeMs: performance.now() - started, ...seen });
    if (!l) {
      try {
        l = await launch(box, req);
      } catch (err) {
        return fail((err as Error).message);
      }
      timings.spawn = l.spawnMs;
    }
    const { proc, cgroup, statusPath } = l;
    /** Set once the cgroup was seen empty after the run (then removing it can wait). */
    let emptied = false;
    let result: RunResult | null = null;
    try {
      // Small inputs (the usual case) are written directly; big ones through the I/O pool.
      // The sandbox holds the (still empty) file open at offset 0 and reads what is written here.
      const stdin = req.stdin ?? "";
      if (stdin.length > SYNC_WRITE_MAX) await fsp.writeFile(l.stdinPath, stdin);
      else if (stdin.length > 0) writeFileSync(l.stdinPath, stdin);
      // A warm run's clock starts at its gate; a cold run's at the start of run(), set-up included.
      if (timings.warm) started = performance.now();
      writeSync(l.gateFd, "g");
      timings.prepare = performance.now() - runStarted - timings.spawn;
      let last = performance.now();
      const mark = (phase: "exit" | "output" | "collect") => {
        const now = performance.now();
        timings[phase] = now - last;
        last = now;
      };

      let cpuLimitHit = false;
      let wallLimitHit = false;
      let outputLimitHit = false;
      let exited = false;
      const output = collectOutput(proc.stdout as unknown as ReadableStream<Uint8Array>, proc.stderr as unknown as ReadableStream<Uint8Array>, req, () => {
        outputLimitHit = true;
        killTree(proc);
      });
      const exitedP = proc.exited.then(() => {
        exited = true;
      });
      // The result waits for the process's exit, never for a poll: polling only
      // enforces the CPU and wall limits while the program runs.
      let lastCpuMs = 0;
      while (!exited) {
        await Promise.race([exitedP, Bun.sleep(POLL_MS)]);
        if (exited) break;
        const wall = performance.now() - started;
        if (cgroup) {
          lastCpuMs = (await cgroup.cpuTimeMs()) ?? lastCpuMs;
          await cgroup.sample();
        }
        if (lastCpuMs > req.cpuTimeLimitMs) {
          cpuLimitHit = true;
          killTree(proc);
          void cgroup?.killAll();
          break;
        }
        if (wall > req.wallTimeLimitMs) {
          wallLimitHit = true;
          killTree(proc);
          void cgroup?.killAll();
          break;
        }
      }
      await exitedP;
      const wallTimeMs = performance.now() - started;
      mark("exit");
      const { stdout, stderr, stdoutTruncated } = await output;
      mark("output");

      let cpuTimeMs: number;
      let memoryKib: number;
      let oomKilled = false;
      const usage = proc.resourceUsage();
      let statusText = "";
      try {
        statusText = readFileSync(statusPath, "utf8");
      } catch {
        // absent: reported below as a set-up failure
      }
      if (cgroup) {
        // Nothing of the run may outlive it: empty the cgroup before reading its totals.
        emptied = (await cgroup.killAll()).length === 0;
        const [cpu, peak, oom] = await Promise.all([cgroup.cpuTimeMs(), cgroup.memoryPeakKib(), cgroup.oomKilled()]);
        cpuTimeMs = cpu ?? Number(usage?.cpuTime.total ?? 0n) / 1000;
        memoryKib = peak;
        oomKilled = oom;
      } else {
        cpuTimeMs = Number(usage?.cpuTime.total ?? 0n) / 1000;
        memoryKib = (usage?.maxRSS ?? 0) / 1024;
      }
      if (cpuTimeMs > req.cpuTimeLimitMs) cpuLimitHit = true;
      if (!cgroup && req.addressSpaceLimit !== false && memoryKib > req.memoryLimitKib) oomKilled = true;

      const status = parseJsonStatus(statusText);
      mark("collect");
      const killedByUs = cpuLimitHit || wallLimitHit || outputLimitHit;
      const common = { cpuTimeMs, wallTimeMs, memoryKib, stdout, stderr, stdoutTruncated };
      if (status.childPid === null && !killedByUs) {
        const why =
          proc.exitCode === LAUNCH_JOIN_FAILED
            ? "could not join the run's cgroup"
            : launcher && proc.exitCode === LAUNCH_FAILED && stderr.startsWith("oj-launch:")
              ? "the launcher failed"
              : "bubblewrap failed to set up the sandbox";
        return (result = fail(`${why}: ${stderr.trim().slice(0, 500) || `exit ${proc.exitCode ?? proc.signalCode}`}`, common));
      }
      let exitCode: number | null = null;
      let signal: number | null = null;
      if (status.exitCode !== null) {
        // bwrap reports a signal death as 128 + signal (its reaper cannot tell more).
        if (status.exitCode > 128 && status.exitCode <= 128 + 64) signal = status.exitCode - 128;
        else exitCode = status.exitCode;
      } else if (!killedByUs && !oomKilled) {
        // bwrap prints "bwrap: execvp PROGRAM: REASON" when the program cannot be started in the box.
        const execFailure = /^bwrap: execvp .*$/m.exec(stderr)?.[0];
        if (execFailure) return (result = fail(`cannot execute ${r0(req.argv)} in the box (${execFailure})`, common));
        return (result = fail(`the sandbox ended without reporting the program's exit (${proc.exitCode ?? proc.signalCode})`, common));
      } else {
        signal = 9;
      }
      return (result = classify({ exitCode, signal, cpuLimitHit, wallLimitHit, oomKilled, outputLimitHit, ...common }));
    } catch (err) {
      killTree(proc);
      return (result = fail(`bwrap backend error: ${(err as Error).message}`));
    } finally {
      timings.total = performance.now() - runStarted;
      // Removing an emptied cgroup and the run's files, then making the box's
      // next launch, happen after the result is handed back (the next run of
      // this box, release() and close() wait for it); a cgroup not seen empty
      // (a run that failed half-way) is emptied and removed before the result.
      const cleanupStarted = performance.now();
      const done = l;
      const ok = result !== null && result.status !== "XX";
      const cleanup = async () => {
        try {
          closeSync(done.gateFd);
        } catch {
          // already closed
        }
        await removeLaunchFiles(done);
        timings.cleanup = performance.now() - cleanupStarted;
        try {
          opts.onRunTimings?.(timings);
        } catch {
          // a measuring hook must not break the box
        }
        // A run whose sandbox failed is not repeated in advance.
        if (ok) await prestart(box, req);
      };
      if (cgroup && !emptied) await cleanup();
      else box.cleanup = cleanup();
    }
  }

  const boxes = pooledBoxes(pool, {
    open: async (id) => new BwrapBox(id, await prepareBoxDir(id)),
    async reset(b: BwrapBox) {
      await b.cleanup;
      await emptyDir(b.dir);
    },
  });
  const description = `bwrap (${version}), ${cg.support ? `cgroup v${cg.support.version}` : `rlimits only (${cg.why})`}, ${
    isRoot ? `per-box uid ${BOX_UID_BASE}+id${tmpfsBoxes ? ", tmpfs boxes" : ""}` : "unprivileged"
  }${noLauncher ? `, sh/setpriv/prlimit launch chain (slower: ${noLauncher})` : ""}${
    !prepared ? ", /etc and /dev mounted file by file" : devDir ? "" : ", bwrap's --dev (device nodes cannot be prepared here)"
  }${opts.pchDir && !pchSource ? ", no /pch (bind mount failed)" : ""}`;
  return {
    name: "bwrap",
    get description() {
      return description;
    },
    acquire: boxes.acquire,
    acquireMany: boxes.acquireMany,
    release: boxes.release,
    async close() {
      closing = true;
      await boxes.closeBoxes();
      for (const l of [...warm.values()]) await discard(l).catch(() => {});
      warm.clear();
      await Promise.all(discarding);
      for (const dir of mounted) await runQuiet(["/usr/bin/umount", "-l", dir]);
      mounted.clear();
    },
  } satisfies SandboxBackend;
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

/** The program name of an argv, for messages. */
function r0(argv: readonly string[]): string {
  return JSON.stringify(argv[0] ?? "");
}

