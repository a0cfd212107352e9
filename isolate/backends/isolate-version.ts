/**
 * Which isolate releases the runner drives, and whether a release can use
 * this host's control groups (isolate NEWS). Pure; ./isolate.ts refuses or
 * falls back to rlimit mode by these.
 */
import { versionAtLeast } from "./isolate-args.ts";

/**
 * Oldest isolate we drive: 1.10, the last release line for cgroup v1 hosts
 * (its --cg uses the v1 memory, cpuacct and cpuset hierarchies; cgroup timing
 * is on by default and asked for explicitly with --cg-timing). 1.10.1 is the
 * release the test suite builds and runs on cgroup v1; older ones are refused
 * with the reason rather than driven untested.
 */
export const ISOLATE_MIN_VERSION: readonly [number, number] = [1, 10];

/**
 * The 2.x line starts at 2.1: 2.0 moved to cgroup v2 and box locking, and 2.1
 * made "cgroup-based timing work when --run is used multiple times on the same
 * sandbox" (isolate NEWS, 2.1), which the judge relies on (one box runs every
 * test of a submission). 2.0.x is refused.
 */
export const ISOLATE_MIN_VERSION_2: readonly [number, number] = [2, 1];

/**
 * Whether an isolate version can use the host's control groups: 1.x needs
 * cgroup v1 hierarchies, 2.x the unified v2 hierarchy (isolate NEWS, 2.0).
 * @returns null when it can, or why not (then the backend runs in rlimit mode).
 */
export function cgroupMismatch(version: readonly number[], hostCgroups: 1 | 2 | null): string | null {
  const major = version[0] ?? 0;
  if (hostCgroups === null) return "no control groups on this host";
  if (major < 2 && hostCgroups === 2) return `isolate ${version.join(".")} needs cgroup v1 for --cg and this host has cgroup v2 (use isolate 2.1 or newer)`;
  if (major >= 2 && hostCgroups === 1) return `isolate ${version.join(".")} needs cgroup v2 for --cg and this host has cgroup v1 (use isolate 1.10.x for control groups)`;
  return null;
}

/**
 * Refuses an isolate version the runner cannot drive.
 * @returns null, or the reason (older than 1.10, or 2.0.x).
 */
export function unsupportedVersion(version: readonly number[]): string | null {
  if (!versionAtLeast(version, ISOLATE_MIN_VERSION)) {
    return `isolate ${version.join(".")} is too old: the runner needs 1.10 or newer (1.10.x on cgroup v1 hosts, 2.1 or newer on cgroup v2)`;
  }
  if ((version[0] ?? 0) === 2 && !versionAtLeast(version, ISOLATE_MIN_VERSION_2)) {
    return `isolate ${version.join(".")} cannot time repeated runs of one box with control groups (fixed in 2.1); use 2.1 or newer`;
  }
  return null;
}
