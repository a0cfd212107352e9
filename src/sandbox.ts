/** The server's side of the sandbox runner: its options, read from the config once at start. */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SandboxOptions } from "../isolate/index.ts";
import type { Config } from "./config.ts";
import { backendMountsUnder, staleBackendFiles, unmountBackendMounts } from "../isolate/backends/bwrap-root.ts";
import { lockHolder, takeLock } from "./ops/lock.ts";

/**
 * The sandbox runner's options from the parsed config: SANDBOX, SANDBOX_POOL_SIZE,
 * ISOLATE_BOX_ID_START, ISOLATE_BOX_ID_COUNT, ISOLATE_BIN, SANDBOX_ROOT, DATA_DIR, NODE_ENV.
 * @example const selection = await createSandbox(sandboxOptions(config), (m) => log.info(m));
 */
export function sandboxOptions(config: Config): SandboxOptions {
  return {
    mode: config.SANDBOX,
    poolSize: boxesInPool(config),
    boxIdStart: config.ISOLATE_BOX_ID_START,
    boxIdCount: config.ISOLATE_BOX_ID_COUNT,
    isolateBin: config.ISOLATE_BIN,
    root: config.SANDBOX_ROOT,
    dataDir: config.DATA_DIR,
    production: config.NODE_ENV === "production",
  };
}

/**
 * Boxes this process's pool holds: SANDBOX_POOL_SIZE (the judging
 * concurrency), but at least 2, since a submission to a problem with its own
 * validator takes two boxes at once (src/judge/validator.ts); never more than
 * ISOLATE_BOX_ID_COUNT.
 */
export function boxesInPool(config: Config): number {
  return Math.min(config.ISOLATE_BOX_ID_COUNT, Math.max(2, config.SANDBOX_POOL_SIZE));
}

/**
 * Where box locks live: host-wide, because box ids are (isolate's boxes, the
 * bwrap backend's box uids 60000 + id and its cgroup names), whatever
 * SANDBOX_ROOT each process has. /run/lock on Debian (a tmpfs, emptied at boot).
 */
export function boxLockDir(): string {
  return existsSync("/run/lock") ? "/run/lock" : tmpdir();
}

/**
 * Claims this process's sandbox for its whole life: its SANDBOX_ROOT (a pid
 * lock `.judge.lock` in it: the bwrap backend mounts the precompiled header and
 * the boxes' tmpfs there, and a second process would unmount the first's) and
 * its box ids (ISOLATE_BOX_ID_START and the next min(ISOLATE_BOX_ID_COUNT,
 * SANDBOX_POOL_SIZE) - 1: one pid lock per id in boxLockDir()). Locks are
 * src/ops/lock.ts's: a dead holder's lock is taken over. Two judging
 * processes on one host (the server and `bun run worker` with default
 * settings) would otherwise use the same boxes, clean each other's runs away
 * and turn students' submissions into IE; the second now refuses to start.
 * @returns a release function.
 * @throws Error naming the setting to change and the process holding it.
 */
export function lockSandbox(config: Config, dir = boxLockDir()): () => void {
  const releases: (() => void)[] = [];
  const releaseAll = () => {
    for (const r of releases.splice(0).reverse()) r();
  };
  const root = resolve(config.SANDBOX_ROOT);
  mkdirSync(root, { recursive: true, mode: 0o755 });
  const rootLock = join(root, ".judge.lock");
  try {
    releases.push(takeLock(rootLock, "SANDBOX_ROOT"));
  } catch (err) {
    const holder = lockHolder(rootLock);
    throw new Error(
      `SANDBOX_ROOT ${root} is in use by another judging process on this host${holder ? ` (pid ${holder})` : ""}: ` +
        `give each judging process on one host its own SANDBOX_ROOT (and its own ISOLATE_BOX_ID_START range); ${(err as Error).message}`,
    );
  }
  const count = boxesInPool(config);
  for (let id = config.ISOLATE_BOX_ID_START; id < config.ISOLATE_BOX_ID_START + count; id++) {
    const path = join(dir, `online-judge-box-${id}.lock`);
    try {
      releases.push(takeLock(path, `box ${id}`));
    } catch (err) {
      releaseAll();
      const holder = lockHolder(path);
      throw new Error(
        `box ${id} is in use by another judging process on this host${holder ? ` (pid ${holder})` : ""}: ` +
          `ISOLATE_BOX_ID_START=${config.ISOLATE_BOX_ID_START} with SANDBOX_POOL_SIZE=${count} overlaps its boxes. ` +
          `Give each judging process on one host its own range (e.g. ISOLATE_BOX_ID_START=${config.ISOLATE_BOX_ID_START + 100} for a second one); ` +
          `${(err as Error).message}`,
      );
    }
  }
  return releaseAll;
}

/** What claimSandbox found left behind in SANDBOX_ROOT and cleared (paths). */
export interface SandboxLeftovers {
  /** Box tmpfs and /pch mounts a killed predecessor left. */
  unmounted: string[];
  /** Its box directories, launch files and half-swapped directories. */
  removed: string[];
  /** Mounts that would not come off (umount refused: not root); their directories are left alone. */
  left: string[];
}

/** This process's sandbox, held from start to exit (claimSandbox). */
export interface SandboxClaim {
  /** What start-up cleared. */
  leftovers: SandboxLeftovers;
  /**
   * Unmounts whatever box tmpfs and /pch mount is still under SANDBOX_ROOT
   * (the backend's close() unmounts what it mounted; this catches the rest,
   * and is all there is when close() hung), then releases the locks.
   * Synchronous, so that a shutdown past its deadline can call it on the way
   * out; safe to call twice.
   */
  release(): void;
}

/**
 * Claims this process's sandbox (lockSandbox: its SANDBOX_ROOT and box ids),
 * then clears what a predecessor killed with SIGKILL (or by a crash, or by a
 * process manager out of patience) left in that SANDBOX_ROOT: its box tmpfs
 * and /pch mounts (each costs memory, and bwrap re-reads the whole mount
 * table at every launch, so every run would get slower), its box directories
 * and its launch files. Only under this process's own root and only once the
 * lock is held: a live server's mounts are never touched (it holds the lock,
 * so claiming fails first).
 * @param log one line naming what was cleared, when anything was.
 * @throws Error from lockSandbox, naming the setting to change and the process holding it.
 */
export function claimSandbox(config: Config, log: (message: string) => void, dir = boxLockDir()): SandboxClaim {
  const unlock = lockSandbox(config, dir);
  const root = resolve(config.SANDBOX_ROOT);
  try {
    const { unmounted, left } = unmountBackendMounts(root);
    const removed: string[] = [];
    for (const path of staleBackendFiles(root)) {
      // Never recurse into something still mounted (a box whose tmpfs would not come off).
      if (backendMountsUnder(root).some((m) => m === path || m.startsWith(`${path}/`))) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    }
    if (unmounted.length || removed.length) {
      log(`sandbox: cleared what a stopped process left in ${root}: ${unmounted.length} mount(s), ${removed.length} file(s) or folder(s)`);
    }
    if (left.length) log(`sandbox: could not unmount ${left.join(", ")} (not root?)`);
    let released = false;
    return {
      leftovers: { unmounted, removed, left },
      release() {
        if (released) return;
        released = true;
        try {
          unmountBackendMounts(root);
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
