/**
 * Test support: servers started by the tests mount a tmpfs per box and bind
 * the precompiled header under their SANDBOX_ROOT. A server stopped with
 * SIGTERM unmounts them itself (src/server.ts); one the test kills (SIGKILL,
 * a crash test) cannot, and its successor on the same root clears them at
 * start (src/sandbox.ts claimSandbox). A root nobody starts again would keep
 * them in the host's mount table, and every later sandbox start re-reads that
 * table for each bind mount (bwrap), so tests that kill servers call
 * unmountUnder afterwards.
 */
import { resolve } from "node:path";
import { mountPoints, unmountSync } from "../isolate/backends/bwrap-root.ts";

/**
 * Every mount point at or below `dir` in this process's mount table, once per
 * mount (a path mounted twice over is listed twice), in table order.
 */
export function mountPointsUnder(dir: string): string[] {
  const base = resolve(dir);
  return mountPoints().filter((p) => p === base || p.startsWith(`${base}/`));
}

/** Lazily unmounts every mount at or below `dir` (deepest first, stacked ones too). @returns the paths unmounted. */
export function unmountUnder(dir: string): string[] {
  return unmountSync(() => mountPointsUnder(dir)).unmounted;
}
