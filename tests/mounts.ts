/**
 * Test support: servers started by the tests mount a tmpfs per box and bind
 * the precompiled header under their SANDBOX_ROOT, and unmount them when they
 * stop. A server the test kills (SIGKILL, a crash test) cannot; its mounts
 * would stay in the host's mount table, and every later sandbox start re-reads
 * that table for each bind mount (bwrap), so leftovers slow the rest of the
 * suite down. Tests that kill servers call this afterwards.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** Lazily unmounts every mount point at or below `dir` (deepest first). @returns the paths unmounted. */
export function unmountUnder(dir: string): string[] {
  const base = resolve(dir);
  const points = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((l) => l.split(" ")[4]?.replace(/\\040/g, " "))
    .filter((p): p is string => !!p && (p === base || p.startsWith(`${base}/`)))
    .sort((a, b) => b.length - a.length);
  for (const p of points) Bun.spawnSync(["/usr/bin/umount", "-l", p], { stderr: "ignore" });
  return points;
}
