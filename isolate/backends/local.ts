/**
 * `unsafe-local`: a plain subprocess in a scratch directory with rlimits
 * (prlimit, where present) and a wall-clock kill of its process group. It is
 * NOT a sandbox: the program can read the user's files and use the network.
 * Only for a developer's own code on a machine without bwrap or isolate
 * (macOS); createSandbox refuses it when NODE_ENV=production.
 */
import { closeSync, constants, existsSync, openSync, promises as fsp } from "node:fs";
import { join, resolve } from "node:path";
import { constants as osConstants } from "node:os";
import { BoxIdPool, pooledBoxes } from "../pool.ts";
import { DirectoryBox, emptyDir } from "../boxfs.ts";
import { classify } from "../result.ts";
import { BASE_ENV } from "../request.ts";
import { collectOutput } from "./common.ts";
import type { RunRequest, RunResult, SandboxBackend } from "../types.ts";

export async function createLocalBackend(opts: { root: string; poolSize: number }): Promise<SandboxBackend> {
  const root = resolve(opts.root, "unsafe-local");
  await fsp.mkdir(root, { recursive: true, mode: 0o700 });
  const pool = new BoxIdPool(0, opts.poolSize, opts.poolSize);
  const prlimit = existsSync("/usr/bin/prlimit") ? "/usr/bin/prlimit" : null;
  const setsid = existsSync("/usr/bin/setsid") ? "/usr/bin/setsid" : null;

  class LocalBox extends DirectoryBox {
    seq = 0;
    protected async execute(req: RunRequest): Promise<RunResult> {
      const stdinPath = join(root, `stdin-${this.id}-${++this.seq}`);
      await fsp.writeFile(stdinPath, req.stdin ?? "", { mode: 0o600 });
      const stdinFd = openSync(stdinPath, constants.O_RDONLY);
      // Piped (RunRequest.pipes): the caller's descriptors, left open for the caller to close.
      const stdio: [number, number | "pipe", "pipe"] = req.pipes ? [req.pipes.stdinFd, req.pipes.stdoutFd, "pipe"] : [stdinFd, "pipe", "pipe"];
      const argv = [...req.argv];
      if (prlimit) {
        const cpuS = Math.ceil(req.cpuTimeLimitMs / 1000);
        argv.unshift(
          prlimit,
          `--cpu=${cpuS}:${cpuS + 1}`,
          `--fsize=${req.fileSizeLimitKib * 1024}`,
          `--stack=${(req.stackLimitKib ?? Math.min(req.memoryLimitKib, 65536)) * 1024}`,
          "--core=0",
          ...(req.addressSpaceLimit !== false ? [`--as=${(req.addressSpaceLimitKib ?? req.memoryLimitKib) * 1024}`] : []),
          "--",
        );
      }
      if (setsid) argv.unshift(setsid);
      const started = performance.now();
      const proc = Bun.spawn(argv, {
        cwd: this.dir,
        env: { ...BASE_ENV, HOME: this.dir, ...(req.env ?? {}) },
        stdio,
      });
      closeSync(stdinFd);
      const killGroup = () => {
        try {
          process.kill(setsid ? -proc.pid : proc.pid, "SIGKILL");
        } catch {
          // gone
        }
      };
      let outputLimitHit = false;
      const output = collectOutput(req.pipes ? null : (proc.stdout as ReadableStream<Uint8Array>), proc.stderr as ReadableStream<Uint8Array>, req, () => {
        outputLimitHit = true;
        killGroup();
      });
      let wallLimitHit = false;
      const timer = setTimeout(() => {
        wallLimitHit = true;
        killGroup();
      }, req.wallTimeLimitMs);
      await proc.exited;
      clearTimeout(timer);
      killGroup();
      const out = await output;
      await fsp.rm(stdinPath, { force: true });
      const usage = proc.resourceUsage();
      const cpuTimeMs = Number(usage?.cpuTime.total ?? 0n) / 1000;
      const memoryKib = (usage?.maxRSS ?? 0) / 1024;
      const sig = proc.signalCode ? ((osConstants.signals as Record<string, number>)[String(proc.signalCode)] ?? 9) : null;
      return classify({
        exitCode: sig === null ? proc.exitCode : null,
        signal: sig,
        cpuTimeMs,
        wallTimeMs: performance.now() - started,
        memoryKib,
        cpuLimitHit: cpuTimeMs > req.cpuTimeLimitMs,
        wallLimitHit,
        // ru_maxrss survives execve, so a child forked from a large Bun process
        // starts with the parent's high-water mark: maxRSS is only an upper bound
        // here and cannot decide MLE. The address-space rlimit makes allocations
        // fail instead; the language layer maps MemoryError/OutOfMemoryError to MLE.
        oomKilled: false,
        outputLimitHit,
        ...out,
      });
    }
  }

  const boxes = pooledBoxes(pool, {
    async open(id) {
      const dir = join(root, `box-${id}`);
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      await emptyDir(dir);
      return new LocalBox(id, dir);
    },
    reset: (b: LocalBox) => emptyDir(b.dir),
  });
  return {
    name: "unsafe-local",
    description: `unsafe-local (NOT a sandbox; ${prlimit ? "rlimits via prlimit" : "no rlimits: prlimit missing"})`,
    acquire: boxes.acquire,
    acquireMany: boxes.acquireMany,
    release: boxes.release,
    close: boxes.closeBoxes,
  } satisfies SandboxBackend;
}
