/**
 * The bwrap backend's launches: a run's sandbox set up as far as its gate
 * (gate.ts) — the stdin file (empty until the run writes it), the status file
 * bwrap writes with --json-status-fd, the gate FIFO, the run's cgroup, and the
 * launch chain (oj-launch or sh/setpriv/prlimit → bwrap), spawned and blocked
 * on its --block-fd. `Launches` also keeps the launches made in advance (one
 * per box at most, for the box's last request) and clears away unused ones.
 */
import type { Subprocess } from "bun";
import { closeSync, constants, openSync, promises as fsp, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunCgroup } from "../cgroup.ts";
import type { RunRequest } from "../types.ts";
import { killTree } from "./common.ts";
import { launchKey, makeFifo } from "./gate.ts";
import { BWRAP_OVERHEAD_TASKS, buildBwrapArgv } from "./bwrap-argv.ts";
import type { BwrapHost } from "./bwrap-host.ts";

/** A run's sandbox: launched, set up (or setting up), waiting at its gate. */
export interface Launch {
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
/** Where bwrap writes its JSON status: --json-status-fd. */
const STATUS_FD = 3;

export class Launches {
  private seq = 0;
  /** Launches made in advance, one per box id at most. */
  private readonly warm = new Map<number, Launch>();
  /** Unused launches still being cleared away. */
  private readonly discarding = new Set<Promise<void>>();
  private closing = false;

  /** @param warmOn whether a box's next launch is made after each run (tuning.warm). */
  constructor(
    private readonly host: BwrapHost,
    private readonly warmOn: boolean,
  ) {}

  /**
   * Sets a run's sandbox up as far as the gate.
   * @throws Error with the message a failed run reports (the run is then XX).
   */
  async launch(boxId: number, boxDir: string, req: RunRequest): Promise<Launch> {
    const h = this.host;
    const t0 = performance.now();
    const tag = `box-${boxId}-${process.pid}-${++this.seq}`;
    const stdinPath = join(h.runDir, `${tag}.stdin`);
    const statusPath = join(h.runDir, `${tag}.status`);
    const gatePath = join(h.runDir, `${tag}.gate`);
    const fds: number[] = [];
    let cgroup: RunCgroup | null = null;
    let gateFd = -1;
    try {
      writeFileSync(stdinPath, "", { mode: 0o600 });
      await makeFifo(gatePath);
      if (h.cg.support) {
        try {
          cgroup = await RunCgroup.create(h.cg.support, tag, req.memoryLimitKib, req.processLimit + BWRAP_OVERHEAD_TASKS);
        } catch (err) {
          throw new Error(`cannot create the run's cgroup: ${(err as Error).message}`);
        }
      }
      // Piped (RunRequest.pipes): the caller's descriptors, never closed here.
      const stdinFd = req.pipes ? req.pipes.stdinFd : openSync(stdinPath, constants.O_RDONLY);
      if (!req.pipes) fds.push(stdinFd);
      const statusFd = openSync(statusPath, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
      fds.push(statusFd);
      // Opening a FIFO read-write never blocks (Linux).
      gateFd = openSync(gatePath, constants.O_RDWR);
      const argv = buildBwrapArgv(h.bwrapBin, {
        boxDir,
        uid: h.uidOf(boxId),
        switchUser: h.isRoot,
        passwdFile: h.passwdFile,
        groupFile: h.groupFile,
        req,
        procsFiles: cgroup?.procsFiles ?? [],
        memoryByCgroup: cgroup !== null,
        tasksByCgroup: cgroup?.limitsTasks ?? false,
        pchSource: h.pchSource,
        statusFd: STATUS_FD,
        blockFd: GATE_FD,
        tmpSizeMib: h.tmpSizeMib,
        features: h.features,
        launcher: h.launcher,
        etcDir: h.etcDir,
        devDir: h.devDir,
      });
      const t1 = performance.now();
      const proc = Bun.spawn(argv, {
        // Nothing of the server's environment: bwrap's reaper keeps the environment it was started with in /proc/1/environ.
        env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
        cwd: h.runDir,
        stdio: [stdinFd, req.pipes ? req.pipes.stdoutFd : "pipe", "pipe", statusFd, gateFd] as never,
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

  /**
   * The launch made in advance for box `boxId`, if it was made for `req` and is
   * still waiting at its gate; otherwise null (an unusable one is killed now
   * and cleared away off the run's path; close() waits for it).
   */
  take(boxId: number, req: RunRequest): Launch | null {
    const l = this.warm.get(boxId) ?? null;
    this.warm.delete(boxId);
    if (l && (l.key !== launchKey(req) || l.proc.exitCode !== null || l.proc.signalCode !== null)) {
      // It never passed its gate, and its gate is its own.
      killTree(l.proc);
      const gone = discard(l).catch(() => {});
      this.discarding.add(gone);
      void gone.then(() => this.discarding.delete(gone));
      return null;
    }
    return l;
  }

  /** After a run: the box's next launch, for the same request, made now (off the next run's path). */
  async prestart(boxId: number, boxDir: string, req: RunRequest): Promise<void> {
    if (!this.warmOn || this.closing) return;
    try {
      const l = await this.launch(boxId, boxDir, req);
      if (this.closing || this.warm.has(boxId)) await discard(l);
      else this.warm.set(boxId, l);
    } catch {
      // the next run launches on its own path and reports what fails
    }
  }

  /** Makes no more launches in advance (the first step of closing the backend). */
  stop(): void {
    this.closing = true;
  }

  /** Makes no more launches and clears away every unused one. */
  async close(): Promise<void> {
    this.closing = true;
    for (const l of [...this.warm.values()]) await discard(l).catch(() => {});
    this.warm.clear();
    await Promise.all(this.discarding);
  }
}

/** Removes a launch's cgroup and files (never rejects). */
export async function removeLaunchFiles(l: Pick<Launch, "cgroup" | "stdinPath" | "statusPath" | "gatePath">): Promise<void> {
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
