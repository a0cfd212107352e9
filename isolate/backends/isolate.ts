/**
 * The ioi/isolate backend: drives the isolate(1) CLI (`--init`, `--run` with
 * `--meta`, `--cleanup`), one box id per pooled box from the configured range.
 * Control-group mode (`--cg`, `--cg-mem`, cgroup timing) where the host
 * supports it, rlimits (`--mem`, per-process `--time`) otherwise. isolate has
 * no MLE status: it is derived from `cg-oom-killed` (or peak memory at the
 * limit). Exit code ≥ 2 or a missing meta file is XX (isolate(1), RETURN VALUE).
 *
 * Files: stdin comes from a file outside the box and stdout is a pipe to the
 * runner (isolate(1): without --stdin/--stdout the program inherits them), so
 * the output limit is enforced while the program runs, exactly as in the bwrap
 * backend: past the limit the runner sends isolate SIGTERM, isolate kills the
 * box and reports "SG: Interrupted", and the run is OLE with the output
 * capped. The program's stderr goes to a file in the box (isolate's own fatal
 * messages stay on isolate's stderr), read back with O_NOFOLLOW and a size cap,
 * so a symlink or FIFO left there cannot redirect the runner. isolate chowns
 * the box to the sandbox uid for the run and back afterwards.
 *
 * /dev/shm: isolate's default rules bind the host's /dev recursively, so the
 * host's world-writable /dev/shm tmpfs would be shared by every box (found by
 * CMS, cms-dev/cms#1484, July 2025; no isolate release note up to 2.2.1
 * changes that rule). Every run therefore binds a fresh temporary directory
 * there (`--dir=/dev/shm:tmp`, the `tmp` directory option of isolate(1): a
 * per-box directory owned by the box uid, mounted after the default /dev rule,
 * as CMS does), whatever the version.
 *
 * Sources: isolate(1) (OPTIONS, DIRECTORY RULES, CONTROL GROUPS, META-FILES,
 * RETURN VALUE), isolate's NEWS, and isolate.c's option table for 2.x.
 */
import { closeSync, constants, openSync, promises as fsp, existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { BoxIdPool, pooledBoxes } from "../pool.ts";
import { DirectoryBox, readBoxFile } from "../boxfs.ts";
import { classify, sandboxFailure } from "../result.ts";
import { collectOutput } from "./common.ts";
import { BASE_ENV } from "../request.ts";
import { PCH_MOUNT, type RunRequest, type RunResult, type SandboxBackend } from "../types.ts";

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
  /** How long past the wall limit a hung isolate is waited for before it is killed, ms (default ISOLATE_GUARD_MS; tests shorten it). */
  guardMs?: number;
}

/**
 * Oldest isolate we drive. 2.0 moved to cgroup v2 and box locking; 2.1 made
 * "cgroup-based timing work when --run is used multiple times on the same
 * sandbox" (isolate NEWS, 2.1), which the judge relies on: one box runs every
 * test of a submission. 2.1 is also the first release with official Debian and
 * Ubuntu packages.
 */
export const ISOLATE_MIN_VERSION: readonly [number, number] = [2, 1];

/**
 * Extra seconds the runner waits beyond the wall limit before it kills a hung
 * isolate itself (isolate enforces the wall limit; this only catches isolate
 * failing to return).
 */
export const ISOLATE_GUARD_MS = 10_000;

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

/** Name of the runner's own file inside the box (the program's stderr); hidden from listFiles. */
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
  if (s.cg) args.push(`--cg-mem=${r.memoryLimitKib}`);
  else if (r.addressSpaceLimit !== false) args.push(`--mem=${r.memoryLimitKib}`);
  args.push(`--stack=${stackKib}`, `--fsize=${r.fileSizeLimitKib}`, `--processes=${r.processLimit}`, "--open-files=512");
  for (const [k, v] of Object.entries({ ...BASE_ENV, ...(r.env ?? {}) })) args.push(`--env=${k}=${v}`);
  // A private /dev/shm per box instead of the host's (see the module comment).
  args.push("--dir=/dev/shm:tmp");
  for (const [inside, outside] of s.binds) args.push(`--dir=${inside}=${outside}:maybe`);
  args.push(`--stderr=${STDERR_FILE}`, "--silent", "--run", "--", ...r.argv);
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
 * Starts the isolate backend: checks the version (ISOLATE_MIN_VERSION), then
 * whether `--cg --init` works on the first box (cgroup mode) or only plain
 * `--init` (rlimit mode), then that the last box id of the pool initialises
 * too (an id beyond isolate's configured number of boxes fails here, with
 * isolate's message, not at the first busy moment).
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
  for (const id of new Set([probeId, pool.ids[pool.ids.length - 1]!])) {
    const r = await run([bin, ...cgArgs, `--box-id=${id}`, "--init"]);
    await run([bin, ...cgArgs, `--box-id=${id}`, "--cleanup"]);
    if (r.code !== 0) throw new Error(`isolate ${[...cgArgs, `--box-id=${id}`].join(" ")} --init failed: ${(r.err || r.out).trim().slice(0, 300)}`);
  }
  const runDir = await fsp.mkdtemp(join(tmpdir(), "oj-isolate-"));
  const guardMs = opts.guardMs ?? ISOLATE_GUARD_MS;
  /** Re-creates a box after isolate itself had to be killed: `--cleanup` kills what is left in its control group. */
  const resetBox = async (id: number) => {
    await run([bin, ...cgArgs, `--box-id=${id}`, "--cleanup"]);
    const r = await run([bin, ...cgArgs, `--box-id=${id}`, "--init"]);
    if (r.code !== 0) throw new Error(`isolate --init of box ${id} failed after a hung run: ${r.err.trim().slice(0, 300)}`);
  };

  class IsolateBox extends DirectoryBox {
    seq = 0;
    override async listFiles() {
      return (await super.listFiles()).filter((f) => f !== STDERR_FILE);
    }
    protected async execute(req: RunRequest): Promise<RunResult> {
      const tag = `${this.id}-${++this.seq}`;
      const metaFile = join(runDir, `${tag}.meta`);
      const stdinFile = join(runDir, `${tag}.stdin`);
      let stdinFd: number | null = null;
      try {
        await fsp.writeFile(stdinFile, req.stdin ?? "", { mode: 0o600 });
        stdinFd = openSync(stdinFile, constants.O_RDONLY);
        await fsp.rm(join(this.dir, STDERR_FILE), { force: true, recursive: true });
        // isolate binds /bin, /dev, /lib, /lib64, /usr by default; Java's launcher also needs these.
        const binds: [string, string][] = [["/etc/alternatives", "/etc/alternatives"]];
        for (const e of await fsp.readdir("/etc")) if (/^java-\d+-openjdk$/.test(e)) binds.push([`/etc/${e}`, `/etc/${e}`]);
        if (opts.pchDir && existsSync(opts.pchDir)) binds.push([PCH_MOUNT, opts.pchDir]);
        const absent = missingProgram(req.argv[0]!, this.dir);
        if (absent !== null) {
          return sandboxFailure(
            `cannot execute ${JSON.stringify(absent)}: it does not exist ${absent.startsWith("/") && !absent.startsWith("/box/") ? "on this host" : "in the box"}`,
          );
        }
        const argv = buildIsolateRunArgs(bin!, { boxId: this.id, cg, metaFile, req, binds });
        const p = Bun.spawn(argv, { stdin: stdinFd, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
        closeSync(stdinFd);
        stdinFd = null;
        // Stdout past the limit: SIGTERM makes isolate kill the box and report "SG: Interrupted" (isolate.c, signal rules).
        let outputLimitHit = false;
        const output = collectOutput(p.stdout, p.stderr, { outputLimitBytes: req.outputLimitBytes, stderrLimitBytes: 64 * 1024 }, () => {
          outputLimitHit = true;
          p.kill("SIGTERM");
        });
        // A guard above isolate's own wall limit: isolate hanging is an infrastructure failure.
        let hung = false;
        const guard = setTimeout(() => {
          hung = true;
          p.kill("SIGKILL");
        }, req.wallTimeLimitMs + guardMs);
        // The result waits for isolate's exit, never for its pipes alone: a killed isolate's
        // helpers may still hold them open.
        const code = await p.exited;
        clearTimeout(guard);
        const collected = await Promise.race([output, Bun.sleep(2000).then(() => null)]);
        if (hung) {
          await resetBox(this.id);
          return sandboxFailure(
            `isolate did not return within the wall limit + ${guardMs / 1000} s and was killed; box ${this.id} was re-created`,
            { wallTimeMs: req.wallTimeLimitMs + guardMs },
          );
        }
        const metaText = await fsp.readFile(metaFile, "utf8").catch(() => null);
        const errBytes = await readBoxFile(this.dir, STDERR_FILE, req.stderrLimitBytes ?? 64 * 1024);
        return resultFromMeta(p.signalCode ? null : code, metaText, req, {
          stdout: collected?.stdout ?? "",
          stderr: new TextDecoder().decode(errBytes ?? new Uint8Array()),
          stdoutTruncated: (collected?.stdoutTruncated ?? false) || outputLimitHit,
          isolateStderr: collected?.stderr ?? "",
        });
      } finally {
        if (stdinFd !== null) closeSync(stdinFd);
        await fsp.rm(metaFile, { force: true });
        await fsp.rm(stdinFile, { force: true });
        await fsp.rm(join(this.dir, STDERR_FILE), { force: true, recursive: true }).catch(() => {});
      }
    }
  }

  const boxes = pooledBoxes(pool, {
    async open(id) {
      const r = await run([bin!, ...cgArgs, `--box-id=${id}`, "--init"]);
      if (r.code !== 0) throw new Error(`isolate --init of box ${id} failed: ${r.err.trim().slice(0, 300)}`);
      return new IsolateBox(id, join(r.out.trim(), "box"));
    },
    async reset(b: IsolateBox) {
      await run([bin!, ...cgArgs, `--box-id=${b.id}`, "--cleanup"]);
    },
  });
  const description = `isolate ${version.join(".")}${cg ? ", cgroup mode" : ", rlimit mode (no --cg: CPU time per process, memory as address space)"}, private /dev/shm per box`;
  return {
    name: "isolate",
    description,
    acquire: boxes.acquire,
    acquireMany: boxes.acquireMany,
    release: boxes.release,
    async close() {
      await boxes.closeBoxes();
      await fsp.rm(runDir, { recursive: true, force: true });
    },
  } satisfies SandboxBackend;
}
