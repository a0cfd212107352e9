/**
 * The ioi/isolate backend: drives the isolate(1) CLI (`--init`, `--run` with
 * `--meta`, `--cleanup`), one box id per pooled box from the configured range.
 * Control-group mode (`--cg`, `--cg-mem`, cgroup timing) where the host
 * supports it, rlimits (`--mem`, per-process `--time`) otherwise. isolate has
 * no MLE status: it is derived from `cg-oom-killed` (or peak memory at the
 * limit). Exit code ≥ 2 or a missing meta file is XX (isolate(1), RETURN VALUE).
 *
 * Files: stdin comes from a file outside the box, and stdout and stderr are
 * pipes to the runner (isolate(1): without --stdin/--stdout/--stderr the
 * program inherits them), so the output limit is enforced while the program
 * runs, exactly as in the bwrap backend: past the limit the runner sends
 * isolate SIGTERM, isolate kills the box and reports "SG: Interrupted", and
 * the run is OLE with the output capped. Nothing of the runner's is written
 * into the box, so a program's listing of /box shows only its own files. With
 * --silent isolate writes to stderr only its own fatal errors (exit 2: the run
 * is XX, and that stderr is the failure's message); the verdict comes from the
 * meta file alone, so a program's stderr cannot change it. isolate chowns the
 * box to the sandbox uid for the run and back afterwards.
 *
 * /dev/shm: isolate's default rules bind the host's /dev recursively, so the
 * host's world-writable /dev/shm tmpfs would be shared by every box (found by
 * CMS, cms-dev/cms#1484, July 2025; no isolate release note up to 2.2.1
 * changes that rule). Every run therefore binds a fresh temporary directory
 * there (`--dir=/dev/shm:tmp`, the `tmp` directory option of isolate(1): a
 * per-box directory owned by the box uid, mounted after the default /dev rule,
 * as CMS does), whatever the version.
 *
 * Disk: every box is a tmpfs of its own, `size=` and `nr_inodes=` bounded,
 * mounted over the box directory after `--init` and unmounted before
 * `--cleanup` (isolate-boxfs.ts, review N3): a program cannot fill the host's
 * disk, and what a submission leaves in /box from test to test counts against
 * the same bound. Without it the backend refuses to start.
 *
 * Sources: isolate(1) (OPTIONS, DIRECTORY RULES, CONTROL GROUPS, META-FILES,
 * RETURN VALUE), isolate's NEWS, and isolate.c's option table for 2.x.
 */
import { closeSync, constants, openSync, promises as fsp, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { BoxIdPool, pooledBoxes } from "../pool.ts";
import { hostCgroupVersion } from "../cgroup.ts";
import { DirectoryBox, emptyDir } from "../boxfs.ts";
import { sandboxFailure } from "../result.ts";
import { collectOutput } from "./common.ts";
import { PCH_MOUNT, type RunRequest, type RunResult, type SandboxBackend } from "../types.ts";
import { boxFilesOverMemoryLimit, buildIsolateRunArgs, missingProgram, parseIsolateVersion, resultFromMeta } from "./isolate-args.ts";
import { cgroupMismatch, unsupportedVersion } from "./isolate-version.ts";
import { boxFsRefusal, clearLeftoverBoxFs, ISOLATE_BOX_INODES, ISOLATE_BOX_SIZE_MIB, mountBoxFs, unmountBoxFs, type BoxFsLimits } from "./isolate-boxfs.ts";

export { buildIsolateRunArgs, missingProgram, msToSeconds, parseIsolateMeta, parseIsolateVersion, resultFromMeta } from "./isolate-args.ts";
export type { IsolateMeta, IsolateRunSpec } from "./isolate-args.ts";
export { cgroupMismatch, ISOLATE_MIN_VERSION, ISOLATE_MIN_VERSION_2, unsupportedVersion } from "./isolate-version.ts";

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
  /** The host's cgroup mode; default: read from the mounts (hostCgroupVersion). Tests pretend. */
  hostCgroups?: 1 | 2 | null;
  /** How long past the wall limit a hung isolate is waited for before it is killed, ms (default ISOLATE_GUARD_MS; tests shorten it). */
  guardMs?: number;
  /** Each box's file system (/box, /tmp and /dev/shm together); default ISOLATE_BOX_SIZE_MIB, ISOLATE_BOX_INODES. */
  boxFs?: Partial<BoxFsLimits>;
}

/**
 * Extra seconds the runner waits beyond the wall limit before it kills a hung
 * isolate itself (isolate enforces the wall limit; this only catches isolate
 * failing to return).
 */
export const ISOLATE_GUARD_MS = 10_000;

/**
 * Initialises box `id` with --cg (after cleaning up what a killed process left), then cleans up (the host's cgroup mode was
 * checked against the version before: cgroupMismatch).
 * @returns null when it works, or isolate's own reason.
 */
async function probeCgroupInit(bin: string, id: number, version: readonly number[]): Promise<string | null> {
  const base = [bin, "--cg", `--box-id=${id}`];
  // A box left by a process killed mid-run (kill -9, a crash) would fail --init: clean it first.
  await run([...base, "--cleanup"]);
  const init = await run([...base, "--init"]);
  await run([...base, "--cleanup"]);
  return init.code === 0 ? null : `isolate ${version.join(".")} --cg --init failed: ${(init.err || init.out).trim().slice(0, 200)}`;
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
 * Starts the isolate backend: checks the version (`unsupportedVersion`), then
 * the host's cgroup mode against it (`cgroupMismatch`: 1.10 uses cgroup v1,
 * 2.x cgroup v2), then whether a `--cg` box initialises (cgroup mode) or
 * only a plain one (rlimit mode, with the reason in the
 * description), then that the last box id of the pool initialises too (an id
 * beyond isolate's configured number of boxes fails here, with isolate's
 * message, not at the first busy moment).
 * @throws Error when isolate is missing, unsupported, or cannot initialise a box.
 */
export async function createIsolateBackend(opts: IsolateOptions): Promise<SandboxBackend> {
  const bin = opts.isolateBin.includes("/") ? opts.isolateBin : Bun.which(opts.isolateBin);
  if (!bin || !existsSync(bin)) throw new Error(`isolate not found (ISOLATE_BIN=${opts.isolateBin})`);
  const ver = await run([bin, "--version"]);
  const version = parseIsolateVersion(ver.out + ver.err);
  if (!version) throw new Error(`cannot read isolate's version from ${JSON.stringify((ver.out + ver.err).slice(0, 200))}`);
  const refused = unsupportedVersion(version);
  if (refused) throw new Error(refused);
  const pool = new BoxIdPool(opts.boxIdStart, opts.boxIdCount, opts.poolSize);
  const probeId = pool.ids[0]!;
  const boxFs: BoxFsLimits = { sizeMib: opts.boxFs?.sizeMib ?? ISOLATE_BOX_SIZE_MIB, inodes: opts.boxFs?.inodes ?? ISOLATE_BOX_INODES };
  // A killed server's box mounts would make isolate fail to clean or re-create those boxes.
  await clearLeftoverBoxFs(pool.ids);
  const hostCgroups = opts.hostCgroups === undefined ? hostCgroupVersion() : opts.hostCgroups;
  let noCgWhy: string | null = opts.noCgroups ? "control groups turned off" : cgroupMismatch(version, hostCgroups);
  if (noCgWhy === null) noCgWhy = await probeCgroupInit(bin, probeId, version);
  const cg = noCgWhy === null;
  const cgArgs = cg ? ["--cg"] : [];
  /** 1.x: cgroup timing asked for explicitly (its default, isolate(1) 1.10); 2.x has no such option (always on with --cg). */
  const cgTiming = cg && (version[0] ?? 0) < 2;
  /** 1.x in cgroup mode: its OOM flag is sticky across runs of one box (resultFromMeta). */
  const cgroupsV1 = cgTiming;
  /**
   * `--init`, then the box's own tmpfs over the box directory.
   * @returns the box directory (`<box_root>/<id>`).
   * @throws Error with isolate's message, or boxFsRefusal's when the tmpfs cannot be mounted.
   */
  const initBox = async (id: number): Promise<string> => {
    const r = await run([bin!, ...cgArgs, `--box-id=${id}`, "--init"]);
    if (r.code !== 0) throw new Error(`isolate ${[...cgArgs, `--box-id=${id}`].join(" ")} --init failed: ${(r.err || r.out).trim().slice(0, 300)}`);
    const boxDir = r.out.trim();
    const why = await mountBoxFs(boxDir, id, boxFs);
    if (why !== null) {
      await run([bin!, ...cgArgs, `--box-id=${id}`, "--cleanup"]);
      throw new Error(boxFsRefusal(why, boxFs));
    }
    return boxDir;
  };
  /** The box's tmpfs off (its files go with it), then `--cleanup` (kills what is left in its control group). */
  const cleanBox = async (id: number, boxDir: string) => {
    await unmountBoxFs(boxDir);
    await run([bin!, ...cgArgs, `--box-id=${id}`, "--cleanup"]);
  };
  for (const id of new Set([probeId, pool.ids[pool.ids.length - 1]!])) {
    await cleanBox(id, await initBox(id));
  }
  const runDir = await fsp.mkdtemp(join(tmpdir(), "oj-isolate-"));
  const guardMs = opts.guardMs ?? ISOLATE_GUARD_MS;
  /** Re-creates a box after isolate itself had to be killed: `--cleanup` kills what is left in its control group. */
  const resetBox = async (id: number, boxDir: string) => {
    await cleanBox(id, boxDir);
    await initBox(id).catch((err: Error) => {
      throw new Error(`isolate --init of box ${id} failed after a hung run: ${err.message}`);
    });
  };

  class IsolateBox extends DirectoryBox {
    seq = 0;
    protected async execute(req: RunRequest): Promise<RunResult> {
      const tag = `${this.id}-${++this.seq}`;
      const metaFile = join(runDir, `${tag}.meta`);
      const stdinFile = join(runDir, `${tag}.stdin`);
      let stdinFd: number | null = null;
      try {
        if (!req.pipes) {
          await fsp.writeFile(stdinFile, req.stdin ?? "", { mode: 0o600 });
          stdinFd = openSync(stdinFile, constants.O_RDONLY);
        }
        // isolate's /tmp (and our /dev/shm) live in the box's tmp folder beside box/, which
        // --run keeps between runs: emptied here, so each run's /tmp is its own (as in bwrap).
        await emptyDir(join(dirname(this.dir), "tmp"));
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
        const argv = buildIsolateRunArgs(bin!, { boxId: this.id, cg, cgTiming, metaFile, req, binds });
        // Piped (RunRequest.pipes): isolate passes its stdin and stdout on to the program; the caller's descriptors stay the caller's.
        const p = Bun.spawn(argv, {
          stdin: req.pipes ? req.pipes.stdinFd : stdinFd!,
          stdout: req.pipes ? req.pipes.stdoutFd : "pipe",
          stderr: "pipe",
          env: { PATH: "/usr/bin:/bin" },
        });
        if (stdinFd !== null) closeSync(stdinFd);
        stdinFd = null;
        // Stdout past the limit: SIGTERM makes isolate kill the box and report "SG: Interrupted" (isolate.c, signal rules).
        let outputLimitHit = false;
        const output = collectOutput(req.pipes ? null : (p.stdout as ReadableStream<Uint8Array>), p.stderr, { outputLimitBytes: req.outputLimitBytes, stderrLimitBytes: req.stderrLimitBytes ?? 64 * 1024 }, () => {
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
          await resetBox(this.id, dirname(this.dir));
          return sandboxFailure(
            `isolate did not return within the wall limit + ${guardMs / 1000} s and was killed; box ${this.id} was re-created`,
            { wallTimeMs: req.wallTimeLimitMs + guardMs },
          );
        }
        if (code === 2 && cg && boxFilesOverMemoryLimit(collected?.stderr ?? "")) {
          return {
            status: "MLE",
            exitCode: null,
            signal: null,
            cpuTimeMs: 0,
            wallTimeMs: 0,
            memoryKib: req.memoryLimitKib,
            stdout: "",
            stderr: "",
            stdoutTruncated: false,
            message: "the files kept in the box already take the memory limit (a box's files are memory of its control group)",
          };
        }
        const metaText = await fsp.readFile(metaFile, "utf8").catch(() => null);
        return resultFromMeta(p.signalCode ? null : code, metaText, req, {
          stdout: collected?.stdout ?? "",
          stderr: collected?.stderr ?? "",
          stdoutTruncated: (collected?.stdoutTruncated ?? false) || outputLimitHit,
          isolateStderr: collected?.stderr ?? "",
        }, { stickyOomFlag: cgroupsV1, rssOverLimitIsMle: !cg && req.addressSpaceLimit !== false });
      } finally {
        if (stdinFd !== null) closeSync(stdinFd);
        await fsp.rm(metaFile, { force: true });
        await fsp.rm(stdinFile, { force: true });
      }
    }
  }

  const boxes = pooledBoxes(pool, {
    async open(id) {
      return new IsolateBox(id, join(await initBox(id), "box"));
    },
    async reset(b: IsolateBox) {
      await cleanBox(b.id, dirname(b.dir));
    },
  });
  const description = `isolate ${version.join(".")}, ${
    cg
      ? `cgroup mode (cgroup v${hostCgroups}: ${cgTiming ? "--cg --cg-timing" : "--cg"}, --cg-mem; CPU time of every process, memory of the whole box)`
      : `rlimit mode (${noCgWhy}: CPU time per process, memory as address space)`
  }, private /dev/shm per box, a ${boxFs.sizeMib} MiB / ${boxFs.inodes}-file tmpfs per box (/box, /tmp and /dev/shm)`;
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
