/** The server's side of the sandbox runner: its options, read from the config once at start. */
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SandboxOptions } from "../isolate/index.ts";
import type { Config } from "./config.ts";
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
