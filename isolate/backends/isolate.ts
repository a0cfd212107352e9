/**
 * The ioi/isolate backend: drives the isolate(1) CLI (`--init`, `--run` with
 * `--meta`, `--cleanup`), one box id per pooled box from the configured range.
 * Control-group mode (`--cg`, `--cg-mem`, cgroup timing) where the host
 * supports it, rlimits (`--mem`, per-process `--time`) otherwise. isolate has
 * no MLE status: it is derived from `cg-oom-killed` (or peak memory at the
 * limit). Exit code ≥ 2 or a missing meta file is XX (isolate(1), RETURN VALUE).
 *
 * Files: stdin comes from a file outside the box (isolate inherits fd 0),
 * stdout/stderr go to files in the box that are read back with O_NOFOLLOW
 * and size caps, so a symlink or FIFO left there cannot redirect the runner.
 * isolate chowns the box to the sandbox uid for the run and back afterwards.
 */
import { closeSync, constants, openSync, promises as fsp, existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { BoxIdPool } from "../pool.ts";
import { listBoxFiles, readBoxFile, writeBoxFile } from "../boxfs.ts";
import { classify } from "../result.ts";
import { PCH_MOUNT } from "../languages/cpp.ts";
import { BASE_ENV, validateRequest } from "./bwrap.ts";
import type { Box, RunRequest, RunResult, SandboxBackend } from "../types.ts";

export interface IsolateOptions {
  /** ISOLATE_BIN: path or name on PATH. */
  isolateBin: string;
  boxIdStart: number;
  boxIdCount: number;
  poolSize: number;
  /** Host directory mounted read-only at /pch; skipped while absent. */
  pchDir?: string;
  /** Force rlimit mode even where --cg works (tests). */
  noCgroups?: boolean;
}

/** Oldest isolate we drive: 2.0 introduced cgroup v2 and box locking. */
export const ISOLATE_MIN_VERSION: readonly [number, number] = [2, 0];
/** Recommended: per the project's issue 3, 2.6 stops sharing /dev/shm between boxes. */
export const ISOLATE_RECOMMENDED_VERSION: readonly [number, number] = [2, 6];

/** Names of the runner's own files inside the box; hidden from listFiles. */
export const STDOUT_FILE = ".oj-stdout";
export const STDERR_FILE = ".oj-stderr";

/** Everything `buildIsolateRunArgs` needs; pure data. */
export interface IsolateRunSpec {
  boxId: number;
  cg: boolean;
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
 * for -t/-w, KiB stay KiB (isolate's unit for --cg-mem, --mem, --stack, --fsize).
 * The output limit also bounds the stdout file: --fsize is at least
 * outputLimitBytes + 1 KiB so that an output flood is seen as OLE.
 */
export function buildIsolateRunArgs(bin: string, s: IsolateRunSpec): string[] {
  const r = s.req;
  const stackKib = r.stackLimitKib ?? Math.min(r.memoryLimitKib, 64 * 1024);
  const fsizeKib = Math.max(r.fileSizeLimitKib, Math.ceil(r.outputLimitBytes / 1024) + 1);
  const args = [bin, ...(s.cg ? ["--cg"] : []), `--box-id=${s.boxId}`, `--meta=${s.metaFile}`];
  args.push(`--time=${msToSeconds(r.cpuTimeLimitMs)}`, `--wall-time=${msToSeconds(r.wallTimeLimitMs)}`, "--extra-time=0");
  if (s.cg) args.push(`--cg-mem=${r.memoryLimitKib}`);
  else if (r.addressSpaceLimit !== false) args.push(`--mem=${r.memoryLimitKib}`);
  args.push(`--stack=${stackKib}`, `--fsize=${fsizeKib}`, `--processes=${r.processLimit}`, "--open-files=512");
  for (const [k, v] of Object.entries({ ...BASE_ENV, ...(r.env ?? {}) })) args.push(`--env=${k}=${v}`);
  for (const [inside, outside] of s.binds) args.push(`--dir=${inside}=${outside}:maybe`);
  args.push(`--stdout=${STDOUT_FILE}`, `--stderr=${STDERR_FILE}`, "--silent", "--run", "--", ...r.argv);
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
 * anything else, or no meta file, is XX. MLE = cg-oom-killed, or a kill with
 * peak memory at the limit (rlimit mode has no OOM report).
 */
export function resultFromMeta(
  isolateExit: number | null,
  metaText: string | null,
  req: Pick<RunRequest, "memoryLimitKib" | "cpuTimeLimitMs">,
  out: { stdout: string; stderr: string; stdoutTruncated: boolean; isolateStderr: string },
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
  return classify({
    sandboxError: m.status === "XX" ? `isolate: ${m.message ?? "internal error"}` : undefined,
    exitCode: m.exitcode ?? (signal === null && m.status !== "TO" ? 0 : null),
    signal,
    cpuTimeMs,
    wallTimeMs: (m.timeWall ?? 0) * 1000,
    memoryKib,
    cpuLimitHit: (m.status === "TO" && !tleWall) || cpuTimeMs > req.cpuTimeLimitMs,
    wallLimitHit: tleWall,
    oomKilled: m.cgOomKilled || (signal === 9 && !m.status?.startsWith("TO") && memoryKib >= req.memoryLimitKib * 0.95),
    outputLimitHit: out.stdoutTruncated,
    ...io,
    message: m.message,
  });
}

/** Parses "The process isolator 2.1" (any `N.M[.P]` in `--version` output). */
export function parseIsolateVersion(text: string): [number, number, number] | null {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

function versionAtLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) > min[i]!;
  }
  return true;
}

async function run(argv: string[], stdin?: number): Promise<{ code: number | null; out: string; err: string }> {
  const p = Bun.spawn(argv, {
    stdin: stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" },
  });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  const code = await p.exited;
  return { code: p.signalCode ? null : code, out, err };
}

/**
 * Starts the isolate backend: checks the version, then whether `--cg --init`
 * works on the first box (cgroup mode) or only plain `--init` (rlimit mode).
 * @throws Error when isolate is missing, too old, or cannot initialise a box.
 */
export async function createIsolateBackend(opts: IsolateOptions): Promise<SandboxBackend> {
  const bin = opts.isolateBin.includes("/") ? opts.isolateBin : Bun.which(opts.isolateBin);
  if (!bin || !existsSync(bin)) throw new Error(`isolate not found (ISOLATE_BIN=${opts.isolateBin})`);
  const ver = await run([bin, "--version"]);
  const version = parseIsolateVersion(ver.out + ver.err);
  if (!version) throw new Error(`cannot read isolate's version from ${JSON.stringify((ver.out + ver.err).slice(0, 200))}`);
  if (!versionAtLeast(version, ISOLATE_MIN_VERSION)) {
    throw new Error(`isolate ${version.join(".")} is too old; need ${ISOLATE_MIN_VERSION.join(".")} or newer`);
  }
  const pool = new BoxIdPool(opts.boxIdStart, opts.boxIdCount, opts.poolSize);
  const probeId = pool.ids[0]!;
  let cg = false;
  if (!opts.noCgroups) {
    const r = await run([bin, "--cg", `--box-id=${probeId}`, "--init"]);
    cg = r.code === 0;
    await run([bin, ...(cg ? ["--cg"] : []), `--box-id=${probeId}`, "--cleanup"]);
  }
  const cgArgs = cg ? ["--cg"] : [];
  const runDir = await fsp.mkdtemp(join(tmpdir(), "oj-isolate-"));

  class IsolateBox implements Box {
    busy = false;
    seq = 0;
    constructor(
      readonly id: number,
      readonly dir: string,
    ) {}
    writeFile(name: string, content: string | Uint8Array, mode = 0o644) {
      return writeBoxFile(this.dir, name, content, mode);
    }
    readFile(name: string, maxBytes?: number) {
      return readBoxFile(this.dir, name, maxBytes);
    }
    async listFiles() {
      return (await listBoxFiles(this.dir)).filter((f) => f !== STDOUT_FILE && f !== STDERR_FILE);
    }
    async run(req: RunRequest): Promise<RunResult> {
      validateRequest(req);
      if (this.busy) throw new Error(`box ${this.id} is already running a command`);
      this.busy = true;
      const tag = `${this.id}-${++this.seq}`;
      const metaFile = join(runDir, `${tag}.meta`);
      const stdinFile = join(runDir, `${tag}.stdin`);
      let stdinFd: number | null = null;
      try {
        await fsp.writeFile(stdinFile, req.stdin ?? "", { mode: 0o600 });
        stdinFd = openSync(stdinFile, constants.O_RDONLY);
        for (const f of [STDOUT_FILE, STDERR_FILE]) await fsp.rm(join(this.dir, f), { force: true, recursive: true });
        // isolate binds /bin, /dev, /lib, /lib64, /usr by default; Java's launcher also needs these.
        const binds: [string, string][] = [["/etc/alternatives", "/etc/alternatives"]];
        for (const e of await fsp.readdir("/etc")) if (/^java-\d+-openjdk$/.test(e)) binds.push([`/etc/${e}`, `/etc/${e}`]);
        if (opts.pchDir && existsSync(opts.pchDir)) binds.push([PCH_MOUNT, opts.pchDir]);
        const argv = buildIsolateRunArgs(bin!, { boxId: this.id, cg, metaFile, req, binds });
        // A guard above isolate's own wall limit: isolate hanging is an infrastructure failure.
        const p = Bun.spawn(argv, { stdin: stdinFd, stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
        closeSync(stdinFd);
        stdinFd = null;
        const guard = setTimeout(() => p.kill("SIGKILL"), req.wallTimeLimitMs + 10_000);
        const isolateStderr = await new Response(p.stderr).text();
        const code = await p.exited;
        clearTimeout(guard);
        const metaText = await fsp.readFile(metaFile, "utf8").catch(() => null);
        const outBytes = await readBoxFile(this.dir, STDOUT_FILE, req.outputLimitBytes + 1);
        const errBytes = await readBoxFile(this.dir, STDERR_FILE, req.stderrLimitBytes ?? 64 * 1024);
        const truncated = (outBytes?.length ?? 0) > req.outputLimitBytes;
        const dec = new TextDecoder();
        return resultFromMeta(p.signalCode ? null : code, metaText, req, {
          stdout: dec.decode(outBytes ? outBytes.subarray(0, req.outputLimitBytes) : new Uint8Array()),
          stderr: dec.decode(errBytes ?? new Uint8Array()),
          stdoutTruncated: truncated,
          isolateStderr,
        });
      } finally {
        if (stdinFd !== null) closeSync(stdinFd);
        await fsp.rm(metaFile, { force: true });
        await fsp.rm(stdinFile, { force: true });
        for (const f of [STDOUT_FILE, STDERR_FILE]) await fsp.rm(join(this.dir, f), { force: true, recursive: true }).catch(() => {});
        this.busy = false;
      }
    }
  }

  const active = new Set<IsolateBox>();
  const old = !versionAtLeast(version, ISOLATE_RECOMMENDED_VERSION);
  const description = `isolate ${version.join(".")}${cg ? ", cgroup mode" : ", rlimit mode (no --cg)"}${
    old ? `; older than ${ISOLATE_RECOMMENDED_VERSION.join(".")} (shared /dev/shm between boxes)` : ""
  }`;
  return {
    name: "isolate",
    description,
    async acquire() {
      const id = await pool.take();
      try {
        const r = await run([bin!, ...cgArgs, `--box-id=${id}`, "--init"]);
        if (r.code !== 0) throw new Error(`isolate --init of box ${id} failed: ${r.err.trim().slice(0, 300)}`);
        const box = new IsolateBox(id, join(r.out.trim(), "box"));
        active.add(box);
        return box;
      } catch (err) {
        pool.give(id);
        throw err;
      }
    },
    async release(box: Box) {
      const b = box as IsolateBox;
      if (!active.delete(b)) return;
      try {
        await run([bin!, ...cgArgs, `--box-id=${b.id}`, "--cleanup"]);
      } finally {
        pool.give(b.id);
      }
    },
    async close() {
      pool.close();
      for (const b of active) await run([bin!, ...cgArgs, `--box-id=${b.id}`, "--cleanup"]);
      active.clear();
      await fsp.rm(runDir, { recursive: true, force: true });
    },
  } satisfies SandboxBackend;
}
