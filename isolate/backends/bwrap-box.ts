/**
 * A bwrap box and its run: take the box's launch made in advance (or launch
 * now), write stdin, open the gate, enforce the CPU and wall limits while the
 * program runs (polling the run's cgroup, or rlimits alone), then read what
 * the run used (cgroup totals or rusage), bwrap's JSON status and the output,
 * and classify the result (result.ts). Removing the run's cgroup and files and
 * making the box's next launch happen after the result is handed back.
 */
import { closeSync, promises as fsp, readFileSync, writeFileSync, writeSync } from "node:fs";
import { DirectoryBox } from "../boxfs.ts";
import { classify, sandboxFailure, type Observation } from "../result.ts";
import type { RunRequest, RunResult } from "../types.ts";
import { collectOutput, killTree, parseJsonStatus } from "./common.ts";
import { LAUNCH_FAILED, LAUNCH_JOIN_FAILED } from "./launcher.ts";
import type { BwrapHost, BwrapRunTimings } from "./bwrap-host.ts";
import { removeLaunchFiles, type Launch, type Launches } from "./bwrap-launch.ts";

/** How often the runner samples CPU time and memory, ms. */
export const POLL_MS = 10;

/** Stdin up to this many characters is written synchronously (a few microseconds), bigger through the I/O pool. */
const SYNC_WRITE_MAX = 64 * 1024;

export class BwrapBox extends DirectoryBox {
  /** The last run's clean-up (never rejects); awaited before the next run, release and close. */
  cleanup: Promise<void> = Promise.resolve();

  constructor(
    id: number,
    dir: string,
    private readonly host: BwrapHost,
    private readonly launches: Launches,
    private readonly onRunTimings?: (timings: BwrapRunTimings) => void,
  ) {
    super(id, dir, host.isRoot ? { uid: host.uidOf(id), gid: host.uidOf(id) } : undefined);
  }

  protected async execute(req: RunRequest): Promise<RunResult> {
    // The previous run's clean-up (cgroup removal, its files, the next launch) finishes first.
    await this.cleanup;
    const runStarted = performance.now();
    const timings: BwrapRunTimings = { prepare: 0, spawn: 0, exit: 0, output: 0, collect: 0, total: 0, cleanup: 0, warm: false };
    // A piped run (RunRequest.pipes) is launched with its own descriptors, never from a launch made in advance.
    let l = req.pipes ? null : this.launches.take(this.id, req);
    timings.warm = l !== null;
    let started = runStarted;
    const fail = (message: string, seen: Partial<Observation> = {}): RunResult =>
      sandboxFailure(message, { wallTimeMs: performance.now() - started, ...seen });
    if (!l) {
      try {
        l = await this.launches.launch(this.id, this.dir, req);
      } catch (err) {
        return fail((err as Error).message);
      }
      timings.spawn = l.spawnMs;
    }
    const { proc, cgroup } = l;
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

      const limits = { cpu: false, wall: false, output: false };
      const output = collectOutput(req.pipes ? null : (proc.stdout as unknown as ReadableStream<Uint8Array>), proc.stderr as unknown as ReadableStream<Uint8Array>, req, () => {
        limits.output = true;
        killTree(proc);
      });
      await enforceLimits(l, req, () => started, limits);
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
        statusText = readFileSync(l.statusPath, "utf8");
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
      if (cpuTimeMs > req.cpuTimeLimitMs) limits.cpu = true;
      if (!cgroup && req.addressSpaceLimit !== false && memoryKib > req.memoryLimitKib) oomKilled = true;

      const status = parseJsonStatus(statusText);
      mark("collect");
      const killedByUs = limits.cpu || limits.wall || limits.output;
      const common = { cpuTimeMs, wallTimeMs, memoryKib, stdout, stderr, stdoutTruncated };
      if (status.childPid === null && !killedByUs) {
        const why =
          proc.exitCode === LAUNCH_JOIN_FAILED
            ? "could not join the run's cgroup"
            : this.host.launcher && proc.exitCode === LAUNCH_FAILED && stderr.startsWith("oj-launch:")
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
        if (execFailure) return (result = fail(`cannot execute ${JSON.stringify(req.argv[0] ?? "")} in the box (${execFailure})`, common));
        return (result = fail(`the sandbox ended without reporting the program's exit (${proc.exitCode ?? proc.signalCode})`, common));
      } else {
        signal = 9;
      }
      return (result = classify({
        exitCode, signal, cpuLimitHit: limits.cpu, wallLimitHit: limits.wall, oomKilled, outputLimitHit: limits.output, ...common,
      }));
    } catch (err) {
      killTree(proc);
      return (result = fail(`bwrap backend error: ${(err as Error).message}`));
    } finally {
      timings.total = performance.now() - runStarted;
      // Removing an emptied cgroup and the run's files, then making the box's
      // next launch, happen after the result is handed back (the next run of
      // this box, release() and close() wait for it); a cgroup not seen empty
      // (a run that failed half-way) is emptied and removed before the result.
      const cleanup = this.cleanUp(l, req, timings, result !== null && result.status !== "XX");
      if (cgroup && !emptied) await cleanup;
      else this.cleanup = cleanup;
    }
  }

  /** Closes the gate, removes the run's files and cgroup, reports timings, then (after a good run) makes the next launch. */
  private async cleanUp(done: Launch, req: RunRequest, timings: BwrapRunTimings, ok: boolean): Promise<void> {
    const cleanupStarted = performance.now();
    try {
      closeSync(done.gateFd);
    } catch {
      // already closed
    }
    await removeLaunchFiles(done);
    timings.cleanup = performance.now() - cleanupStarted;
    try {
      this.onRunTimings?.(timings);
    } catch {
      // a measuring hook must not break the box
    }
    // A run whose sandbox failed is not repeated in advance.
    if (ok && !req.pipes) await this.launches.prestart(this.id, this.dir, req);
  }
}

/**
 * Waits for the launch's process to exit, killing it (and its cgroup) when the
 * CPU or wall limit is passed; sets `hit.cpu` / `hit.wall` then. The result
 * waits for the process's exit, never for a poll: polling only enforces the
 * limits while the program runs.
 */
async function enforceLimits(l: Launch, req: RunRequest, started: () => number, hit: { cpu: boolean; wall: boolean }): Promise<void> {
  const { proc, cgroup } = l;
  let exited = false;
  const exitedP = proc.exited.then(() => {
    exited = true;
  });
  let lastCpuMs = 0;
  while (!exited) {
    await Promise.race([exitedP, Bun.sleep(POLL_MS)]);
    if (exited) break;
    const wall = performance.now() - started();
    if (cgroup) {
      lastCpuMs = (await cgroup.cpuTimeMs()) ?? lastCpuMs;
      await cgroup.sample();
    }
    if (lastCpuMs > req.cpuTimeLimitMs || wall > req.wallTimeLimitMs) {
      if (lastCpuMs > req.cpuTimeLimitMs) hit.cpu = true;
      else hit.wall = true;
      killTree(proc);
      void cgroup?.killAll();
      break;
    }
  }
  await exitedP;
}
