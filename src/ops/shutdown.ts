/**
 * Stopping a process cleanly on SIGTERM (how systemd, Docker and every
 * process manager stop it) and SIGINT (Ctrl-C), within a deadline: the
 * steps run in order; a step that hangs must not keep the process alive
 * until the manager's SIGKILL, which would leave the sandbox's mounts and
 * the running jobs' leases behind. Past the deadline (or at a second
 * signal) the last resort runs — synchronous, what must happen on the way
 * out whatever hung: unmount, release the locks — and the process exits 1.
 */
import type { Logger } from "../log.ts";

/** One step of a shutdown, named for the log line when it hangs or fails. */
export interface ShutdownStep {
  name: string;
  run(): unknown;
}

/** What a shutdown did: `failed` names the steps that threw (the later steps ran anyway). */
export interface ShutdownOutcome {
  failed: string[];
}

/**
 * Runs `steps` in order; a step that throws is logged and the next one runs
 * (a database already gone must not keep the sandbox mounted).
 * @param onStep called with each step's name as it starts (for the deadline's log line).
 */
export async function runSteps(steps: readonly ShutdownStep[], log: Logger, onStep: (name: string) => void = () => {}): Promise<ShutdownOutcome> {
  const failed: string[] = [];
  for (const step of steps) {
    onStep(step.name);
    try {
      await step.run();
    } catch (err) {
      failed.push(step.name);
      log.error(`shutdown: ${step.name} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { failed };
}

export interface StopOnSignalsOptions {
  /** For the log lines, e.g. "server" or "worker". */
  what: string;
  log: Logger;
  /** The clean shutdown's steps, in order. */
  steps: readonly ShutdownStep[];
  /** Synchronous; runs after the steps, and instead of the rest of them past the deadline. Must not throw. */
  lastResort(): void;
  /** The whole shutdown's budget, ms (SHUTDOWN_TIMEOUT_SECONDS). */
  deadlineMs: number;
  /** Default process.exit; tests pass their own. */
  exit?: (code: number) => void;
  /** Default the process's own signals; tests pass an emitter. */
  signals?: Pick<NodeJS.Process, "on">;
}

/**
 * Installs the SIGTERM and SIGINT handlers: the first signal runs the steps,
 * then the last resort, and exits 0 (1 when a step failed); past `deadlineMs`
 * or at a second signal, the last resort runs at once and the process exits 1
 * naming the step it was in.
 * @returns `stop(signal)`, the same shutdown without a signal (tests, scripts); resolves with the exit code.
 */
export function stopOnSignals(opts: StopOnSignalsOptions): (signal: string) => Promise<number> {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let current = "";
  let started: Promise<number> | null = null;
  let finished = false;
  const finish = (code: number): number => {
    if (finished) return code;
    finished = true;
    try {
      opts.lastResort();
    } catch (err) {
      opts.log.error(`shutdown: last resort failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    exit(code);
    return code;
  };
  const force = (why: string) => {
    if (finished) return;
    opts.log.error(`${opts.what}: ${why} while ${current || "starting to stop"}; unmounting, releasing locks and exiting now`);
    finish(1);
  };
  const stop = (signal: string): Promise<number> => {
    if (started) {
      force(`${signal} again`);
      return started;
    }
    opts.log.info(`${signal}: stopping the ${opts.what} (at most ${Math.round(opts.deadlineMs / 1000)} s); submissions being judged go back to the queue and are judged at the next start`);
    // Not unref'd: this timer is what ends a shutdown that hangs.
    const timer = setTimeout(() => force(`not stopped within ${Math.round(opts.deadlineMs / 1000)} s (SHUTDOWN_TIMEOUT_SECONDS)`), opts.deadlineMs);
    started = runSteps(opts.steps, opts.log, (name) => (current = name)).then(({ failed }) => {
      clearTimeout(timer);
      if (finished) return 1;
      opts.log.info(failed.length ? `stopped (${failed.join(", ")} failed)` : "stopped");
      return finish(failed.length ? 1 : 0);
    });
    return started;
  };
  const signals = opts.signals ?? process;
  signals.on("SIGTERM", () => void stop("SIGTERM"));
  signals.on("SIGINT", () => void stop("SIGINT"));
  return stop;
}
