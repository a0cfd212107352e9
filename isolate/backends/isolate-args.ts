/**
 * isolate's side of a run, apart from the backend: the `--run` argument list
 * (limits, directory rules, environment), reading its meta file into a
 * RunResult, its version string, and the check that a program exists before
 * isolate is asked to run it. Pure but for that check: unit-tested in
 * isolate/units.test.ts.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { classify } from "../result.ts";
import { BASE_ENV } from "../request.ts";
import type { RunRequest, RunResult } from "../types.ts";

/**
 * The program a run would execute, when it certainly does not exist: `./x` or
 * `/box/x` missing from the box directory, or an absolute path under the
 * system directories isolate binds by default (/usr, /bin, /lib, /lib64) missing
 * on the host. isolate would report that as the program's own exit 127, which a
 * program can imitate; the runner checks beforehand and answers XX (a missing
 * compiler or runtime is the host's fault, as in the bwrap backend).
 * @returns the missing path, or null (present, or not checkable from outside).
 */
export function missingProgram(argv0: string, boxDir: string): string | null {
  let path: string | null = null;
  if (argv0.startsWith("/box/")) path = join(boxDir, argv0.slice("/box/".length));
  else if (/^\/(usr|bin|lib|lib64)\//.test(argv0)) path = argv0;
  else if (!argv0.startsWith("/") && argv0.includes("/")) path = join(boxDir, argv0);
  if (path === null || argv0.split("/").includes("..")) return null;
  return existsSync(path) ? null : argv0;
}

/** Everything `buildIsolateRunArgs` needs; pure data. */
export interface IsolateRunSpec {
  boxId: number;
  cg: boolean;
  /** isolate 1.x in cgroup mode: pass --cg-timing (2.x has no such option). */
  cgTiming?: boolean;
  metaFile: string;
  req: RunRequest;
  /** Host directories to bind read-only: [inside, outside]. */
  binds: [string, string][];
}

/** Formats milliseconds as isolate's fractional seconds ("1.5"). */
export function msToSeconds(ms: number): string {
  return (ms / 1000).toFixed(3).replace(/\.?0+$/, "");
}

/**
 * Builds `isolate --run` arguments (pure; unit-tested). Conversions: ms → s
 * with fractions for -t/-w/-x, KiB stay KiB (isolate's unit for --cg-mem,
 * --mem, --stack, --fsize). Stdout is not redirected (the runner's pipe), so
 * --fsize is exactly the file-size limit. `--cg-mem` only with `--cg` (isolate refuses control-group options
 * without it). No `--share-net`, `--full-env` or `--inherit-fds`: the defaults
 * (own network namespace with only loopback, environment from the rules only,
 * descriptors closed) are the walls.
 */
export function buildIsolateRunArgs(bin: string, s: IsolateRunSpec): string[] {
  const r = s.req;
  const stackKib = r.stackLimitKib ?? Math.min(r.memoryLimitKib, 64 * 1024);
  const args = [bin, ...(s.cg ? ["--cg"] : []), `--box-id=${s.boxId}`, `--meta=${s.metaFile}`];
  args.push(`--time=${msToSeconds(r.cpuTimeLimitMs)}`, `--wall-time=${msToSeconds(r.wallTimeLimitMs)}`, "--extra-time=0");
  if (s.cg) args.push(`--cg-mem=${r.memoryLimitKib}`, ...(s.cgTiming ? ["--cg-timing"] : []));
  else if (r.addressSpaceLimit !== false) args.push(`--mem=${r.addressSpaceLimitKib ?? r.memoryLimitKib}`);
  args.push(`--stack=${stackKib}`, `--fsize=${r.fileSizeLimitKib}`, `--processes=${r.processLimit}`, "--open-files=512");
  for (const [k, v] of Object.entries({ ...BASE_ENV, ...(r.env ?? {}) })) args.push(`--env=${k}=${v}`);
  // A private /dev/shm per box instead of the host's (see the module comment).
  args.push("--dir=/dev/shm:tmp");
  for (const [inside, outside] of s.binds) args.push(`--dir=${inside}=${outside}:maybe`);
  args.push("--silent", "--run", "--", ...r.argv);
  return args;
}

/** The meta file as a typed record (isolate(1), META-FILES). Unknown keys are kept in `raw`. */
export interface IsolateMeta {
  status?: "RE" | "SG" | "TO" | "XX";
  message?: string;
  exitcode?: number;
  exitsig?: number;
  killed: boolean;
  /** Seconds. */
  time?: number;
  /** Seconds. */
  timeWall?: number;
  /** KiB. */
  maxRss?: number;
  /** KiB. */
  cgMem?: number;
  cgOomKilled: boolean;
  raw: Record<string, string>;
}

/** Parses `key:value` lines. Missing or garbled numbers stay undefined. */
export function parseIsolateMeta(text: string): IsolateMeta {
  const raw: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf(":");
    if (i > 0) raw[line.slice(0, i)] = line.slice(i + 1);
  }
  const num = (k: string) => {
    const v = raw[k];
    if (v === undefined || v.trim() === "") return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  };
  const status = raw.status;
  return {
    ...(status === "RE" || status === "SG" || status === "TO" || status === "XX" ? { status } : {}),
    ...(raw.message !== undefined ? { message: raw.message } : {}),
    exitcode: num("exitcode"),
    exitsig: num("exitsig"),
    killed: raw.killed !== undefined && raw.killed !== "0",
    time: num("time"),
    timeWall: num("time-wall"),
    maxRss: num("max-rss"),
    cgMem: num("cg-mem"),
    cgOomKilled: raw["cg-oom-killed"] !== undefined && raw["cg-oom-killed"] !== "0",
    raw,
  };
}

/**
 * Maps isolate's exit code and meta file to a RunResult (pure; unit-tested).
 * isolate exit 0/1 = the program ran (its status is in the meta file);
 * anything else, or no meta file, is XX (isolate(1), RETURN VALUE). MLE =
 * cg-oom-killed, or a kill with peak memory at the limit (rlimit mode has no
 * OOM report). (A program missing from the box is found before the run, see
 * `missingProgram`: isolate's own exit 127 with an `execve(...)` message could
 * be imitated by the program, so it stays RE.)
 *
 * `stickyOomFlag` (isolate 1.x in cgroup mode): 1.x reports `cg-oom-killed`
 * whenever the box's memory cgroup has *ever* OOM-killed since `--init`
 * (cg.c `cg_stats` reads v1's cumulative `oom_kill` counter, which `--run`
 * never resets, while it does reset `memory.max_usage_in_bytes`), so every
 * later run of the box would read as MLE. There the flag counts only for a run
 * that was itself killed by SIGKILL with its own peak memory near the limit.
 *
 * `rssOverLimitIsMle` (rlimit mode, for a request with an address-space bound):
 * a peak resident size above `memoryLimitKib` is MLE even when the program
 * ended by itself. A runtime given the limit plus a reserve of address space
 * (Go, Node, PyPy: review N7) can stay under its bound yet use more memory than
 * the limit; as the bwrap backend does without a cgroup (bwrap-box.ts).
 */
export function resultFromMeta(
  isolateExit: number | null,
  metaText: string | null,
  req: Pick<RunRequest, "memoryLimitKib" | "cpuTimeLimitMs">,
  out: { stdout: string; stderr: string; stdoutTruncated: boolean; isolateStderr: string },
  opts: { stickyOomFlag?: boolean; rssOverLimitIsMle?: boolean } = {},
): RunResult {
  const io = { stdout: out.stdout, stderr: out.stderr, stdoutTruncated: out.stdoutTruncated };
  const none = { exitCode: null, signal: null, cpuTimeMs: 0, wallTimeMs: 0, memoryKib: 0 };
  if (isolateExit === null || isolateExit > 1 || metaText === null) {
    const why = metaText === null ? "isolate wrote no meta file" : `isolate exited with ${isolateExit}`;
    return { ...none, ...io, status: "XX", message: `${why}${out.isolateStderr ? `: ${out.isolateStderr.trim().slice(0, 500)}` : ""}` };
  }
  const m = parseIsolateMeta(metaText);
  const cpuTimeMs = (m.time ?? 0) * 1000;
  const memoryKib = m.cgMem ?? m.maxRss ?? 0;
  const signal = m.exitsig ?? null;
  const tleWall = m.status === "TO" && /wall/i.test(m.message ?? "");
  const nearLimit = memoryKib >= req.memoryLimitKib * 0.95;
  const oomFlag = m.cgOomKilled && (!opts.stickyOomFlag || (signal === 9 && nearLimit));
  return classify({
    sandboxError: m.status === "XX" ? `isolate: ${m.message ?? "internal error"}` : undefined,
    exitCode: m.exitcode ?? (signal === null && m.status !== "TO" ? 0 : null),
    signal,
    cpuTimeMs,
    wallTimeMs: (m.timeWall ?? 0) * 1000,
    memoryKib,
    cpuLimitHit: (m.status === "TO" && !tleWall) || cpuTimeMs > req.cpuTimeLimitMs,
    wallLimitHit: tleWall,
    oomKilled: oomFlag || (signal === 9 && !m.status?.startsWith("TO") && nearLimit) || (opts.rssOverLimitIsMle === true && memoryKib > req.memoryLimitKib),
    outputLimitHit: out.stdoutTruncated,
    ...io,
    message: m.message,
  });
}

/**
 * Whether isolate refused a run because the box's memory control group already
 * holds more than the run's memory limit (cgroup v1: "Cannot set
 * .../memory.limit_in_bytes ...: Device or resource busy"). The box is a tmpfs
 * (isolate-boxfs.ts), and a tmpfs page is charged to the cgroup of the process
 * that wrote it, which for isolate 1.x is the box's for as long as the box
 * lives: files a submission keeps in its box are memory of the box. So this
 * is the program's MLE (its files and its memory exceed the limit), never XX.
 * (cgroup v2 accepts a lower memory.max and the run is then OOM-killed: MLE too.)
 */
export function boxFilesOverMemoryLimit(isolateStderr: string): boolean {
  return /memory\.limit_in_bytes.*\n?.*Device or resource busy/.test(isolateStderr);
}

/** Parses "The process isolator 2.1" (any `N.M[.P]` in `--version` output). */
export function parseIsolateVersion(text: string): [number, number, number] | null {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

export function versionAtLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) > min[i]!;
  }
  return true;
}

