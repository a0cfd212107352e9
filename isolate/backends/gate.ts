/**
 * The bwrap backend's gate: a run's sandbox is set up (launcher, cgroup join,
 * namespaces, mounts) and then waits, blocked on bwrap's `--block-fd`, until
 * the runner writes one byte; only then does bwrap exec the program. Every run
 * goes through the gate. A cold run opens it right after the launch; a warm
 * run uses a launch made in advance, after the box's previous run, for the
 * same request (`launchKey`), so the set-up is off the run's path
 * (docs/decisions/034).
 *
 * Why a named pipe (FIFO) per launch and not a socket or an anonymous pipe:
 * the sandbox holds the FIFO open for reading *and writing*, so its read can
 * never see end-of-file — the gate opens only on the runner's byte, never
 * because the server died or closed its end (bwrap ignores what its read
 * returns). One FIFO per launch: a byte meant for one launch can never reach
 * another.
 */
import { spawnSync } from "bun";
import type { RunRequest } from "../types.ts";

let mkfifoFn: ((path: string, mode: number) => number) | null | undefined;

/** libc's mkfifo through bun:ffi (0.1 ms); null where it cannot be loaded. */
async function libcMkfifo(): Promise<((path: string, mode: number) => number) | null> {
  if (mkfifoFn !== undefined) return mkfifoFn;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const lib = dlopen("libc.so.6", { mkfifo: { args: [FFIType.cstring, FFIType.u32], returns: FFIType.i32 } });
    mkfifoFn = (path, mode) => lib.symbols.mkfifo(Buffer.from(`${path}\0`), mode);
  } catch {
    mkfifoFn = null;
  }
  return mkfifoFn;
}

/**
 * Creates the FIFO `path` with mode 0600 (libc's mkfifo, or mkfifo(1) where
 * bun:ffi cannot load libc).
 * @throws Error when neither can create it.
 */
export async function makeFifo(path: string): Promise<void> {
  const fn = await libcMkfifo();
  if (fn && fn(path, 0o600) === 0) return;
  const r = spawnSync(["/usr/bin/mkfifo", "-m", "600", path], { stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  if (r.exitCode !== 0) throw new Error(`cannot create the gate ${path}: ${r.stderr.toString().trim() || `exit ${r.exitCode}`}`);
}

/**
 * What a launch depends on: everything of the request that goes into the
 * launch argv or the run's cgroup (argv, environment, CPU/memory/task/file/stack
 * limits). stdin, the wall-time limit and the output limits are applied when the
 * run starts and are not part of it. Two requests with the same key can share a
 * launch made in advance.
 */
export function launchKey(req: RunRequest): string {
  const env = Object.entries(req.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    req.argv,
    env,
    req.cpuTimeLimitMs,
    req.memoryLimitKib,
    req.processLimit,
    req.fileSizeLimitKib,
    req.stackLimitKib ?? null,
    req.addressSpaceLimit ?? true,
    req.addressSpaceLimitKib ?? null,
  ]);
}
