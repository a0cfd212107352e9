/**
 * Turning what a backend observed into a RunResult, the same way for every
 * backend. Status precedence (after CMS Sandbox.py and isolate's meta file):
 * XX > TLE > MLE > OLE > SG > RE > OK.
 */
import type { RunResult } from "./types.ts";

/** What a backend saw during one run, before classification. */
export interface Observation {
  /** The sandbox failed (set up, bookkeeping); the message says how. */
  sandboxError?: string;
  exitCode: number | null;
  signal: number | null;
  cpuTimeMs: number;
  wallTimeMs: number;
  memoryKib: number;
  cpuLimitHit: boolean;
  wallLimitHit: boolean;
  /** The kernel's OOM killer ended a process of the run (cgroup counter), or the memory cap was reached. */
  oomKilled: boolean;
  outputLimitHit: boolean;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  message?: string;
}

/** SIGXCPU: the CPU-time rlimit backstop fired. */
export const SIGXCPU = 24;
/** SIGXFSZ: a file grew past the file-size rlimit. */
export const SIGXFSZ = 25;

/** Classifies an observation; see the module comment for the precedence. */
export function classify(o: Observation): RunResult {
  const base = {
    exitCode: o.exitCode,
    signal: o.signal,
    cpuTimeMs: Math.round(o.cpuTimeMs),
    wallTimeMs: Math.round(o.wallTimeMs),
    memoryKib: Math.round(o.memoryKib),
    stdout: o.stdout,
    stderr: o.stderr,
    stdoutTruncated: o.stdoutTruncated,
  };
  if (o.sandboxError) return { ...base, status: "XX", message: o.sandboxError };
  if (o.cpuLimitHit || o.signal === SIGXCPU) return { ...base, status: "TLE", tleKind: "cpu", message: "CPU time limit exceeded" };
  if (o.wallLimitHit) return { ...base, status: "TLE", tleKind: "wall", message: "wall time limit exceeded" };
  if (o.oomKilled) return { ...base, status: "MLE", message: "memory limit exceeded" };
  if (o.outputLimitHit) return { ...base, status: "OLE", message: "output limit exceeded" };
  if (o.signal !== null) {
    const why = o.signal === SIGXFSZ ? "file size limit exceeded" : `killed by signal ${o.signal}`;
    return { ...base, status: "SG", message: o.message ?? why };
  }
  if (o.exitCode !== 0) return { ...base, status: "RE", message: o.message ?? `exited with code ${o.exitCode}` };
  return { ...base, status: "OK", ...(o.message ? { message: o.message } : {}) };
}

/**
 * The result of a run the sandbox itself could not carry out (status XX): an
 * infrastructure failure, never a user verdict. `seen` adds what was observed
 * before it failed (times, output); everything else reads zero or empty.
 * @example return sandboxFailure(`cannot create the run's cgroup: ${err.message}`)
 */
export function sandboxFailure(message: string, seen: Partial<Omit<Observation, "sandboxError">> = {}): RunResult {
  return classify({
    exitCode: null,
    signal: null,
    cpuTimeMs: 0,
    wallTimeMs: 0,
    memoryKib: 0,
    cpuLimitHit: false,
    wallLimitHit: false,
    oomKilled: false,
    outputLimitHit: false,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    ...seen,
    sandboxError: message,
  });
}
