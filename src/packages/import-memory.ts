/**
 * The import process's memory cap (IMPORT_MEMORY_MAX_MIB; review N2, decision
 * 048's second addendum). Each import child (./input.ts) joins a memory
 * control group of its own, made with the sandbox's code
 * (../../isolate/cgroup.ts: v2, or v1 as on our build machines), limited to
 * the setting with no swap: past it the kernel kills the child, and the import
 * fails with a 413 naming the setting. Without control groups (not root, or no
 * memory controller) the child starts under `prlimit --data` instead, as the
 * sandbox falls back to rlimits: the runtime refuses the allocation (the
 * child answers "out of memory") or aborts; the server says so once at start
 * and `bun run doctor` reports it.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { detectCgroups, RunCgroup, type CgroupSupport } from "../../isolate/cgroup.ts";
import { AppError } from "../errors.ts";

/** The setting's default, MiB: the largest upload (576 MiB unpacked, 512 MiB of tests) imports with room (its child peaks near 1.4 GiB). */
export const IMPORT_MEMORY_DEFAULT_MIB = 2048;
/** The setting's least value, MiB: below it the runtime alone does not start under an rlimit. */
export const IMPORT_MEMORY_MIN_MIB = 512;
/** The setting's name, as errors and logs name it. */
export const IMPORT_MEMORY_SETTING = "IMPORT_MEMORY_MAX_MIB";

/** Threads and processes the import child may have (the runtime's GC and I/O threads). */
const IMPORT_TASKS_MAX = 512;
/** Control-group names of import children: `oj-import-<server pid>-<n>`. */
const NAME_PREFIX = "oj-import-";

/** How the import child's memory is capped on this host. */
export type ImportMemoryMode = { kind: "cgroup"; support: CgroupSupport; why: string } | { kind: "rlimit"; prlimit: string; why: string } | { kind: "none"; why: string };

let maxMib = IMPORT_MEMORY_DEFAULT_MIB;
let detected: Promise<ImportMemoryMode> | null = null;
let seq = 0;

async function detect(useCgroups = true): Promise<ImportMemoryMode> {
  const { support, why } = useCgroups ? await detectCgroups() : { support: null, why: "control groups not used (configured so)" };
  if (support) {
    await removeDeadImportGroups(support);
    return { kind: "cgroup", support, why: `a memory control group per import (${why})` };
  }
  const prlimit = Bun.which("prlimit");
  if (prlimit) return { kind: "rlimit", prlimit, why: `no control groups (${why}): the import process runs under an rlimit on its data size instead (prlimit --data)` };
  return { kind: "none", why: `no control groups (${why}) and no prlimit (util-linux): the import process's memory is not capped` };
}

/** Removes import control groups that a killed server left (their server's pid is gone). */
async function removeDeadImportGroups(support: CgroupSupport): Promise<void> {
  const parent = support.version === 2 ? support.parent : support.memory;
  const dead = new Set<string>();
  let names: string[] = [];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^oj-import-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      dead.add(`${NAME_PREFIX}${pid}-`);
    }
  }
  if (dead.size) await RunCgroup.removeStale(support, [...dead]);
}

/**
 * Sets the cap (the server's IMPORT_MEMORY_MAX_MIB, at start) and finds how to enforce it.
 * @param opts.cgroups false: the rlimit as where control groups are unavailable (tests of that fallback).
 * @returns the mode, for the server to say once how imports are capped.
 */
export function configureImportMemory(memoryMaxMib: number, opts: { cgroups?: boolean } = {}): Promise<ImportMemoryMode> {
  maxMib = memoryMaxMib;
  detected = detect(opts.cgroups ?? true);
  return detected;
}

/** The mode in force (found on first use when the server did not configure it, as in tests). */
export function importMemoryMode(): Promise<ImportMemoryMode> {
  detected ??= detect();
  return detected;
}

/** The import child's memory, as far as it is confined. */
export interface ImportConfinement {
  /** The command to spawn: `command` itself, or under prlimit in rlimit mode. */
  command: string[];
  /** Moves the spawned child into its control group (before it is given the job). @throws Error when the group cannot be joined. */
  join(pid: number): void;
  /** Whether the child's end was the memory cap's doing (`signal` and the child's failure text tell it in rlimit mode). */
  killedForMemory(signal: string | null, exitCode: number | null, failureText: string): Promise<boolean>;
  /** The child's peak memory, MiB, where a control group measured it; null else. */
  peakMib(): Promise<number | null>;
  /** Kills what is left of the child and removes its group. */
  release(): Promise<void>;
}

/**
 * A confinement for one import child running `command`.
 * @throws Error when the control group cannot be made (the import then fails with a 500).
 */
export async function confineImport(command: string[]): Promise<ImportConfinement> {
  const mode = await importMemoryMode();
  const limitMib = maxMib;
  const outOfMemoryText = /out of memory|RangeError: Out of memory|JavaScript heap/i;
  if (mode.kind === "cgroup") {
    const group = await RunCgroup.create(mode.support, `${NAME_PREFIX}${process.pid}-${++seq}`, limitMib * 1024, IMPORT_TASKS_MAX);
    return {
      command,
      join(pid) {
        // Every hierarchy (v1: memory, pids, cpuacct) takes the pid; memory is what caps it.
        for (const file of group.procsFiles) writeFileSync(file, String(pid));
      },
      async killedForMemory(signal, _code, text) {
        if (await group.oomKilled()) return true;
        return signal === "SIGKILL" && ((await group.memoryPeakKib()) >= limitMib * 1024 * 0.95 || outOfMemoryText.test(text));
      },
      async peakMib() {
        return Math.round((await group.memoryPeakKib()) / 1024);
      },
      release: () => group.remove(),
    };
  }
  const bytes = limitMib * 1024 * 1024;
  return {
    command: mode.kind === "rlimit" ? [mode.prlimit, `--data=${bytes}:${bytes}`, "--", ...command] : command,
    join() {},
    async killedForMemory(signal, exitCode, text) {
      if (mode.kind === "none") return outOfMemoryText.test(text);
      return outOfMemoryText.test(text) || signal === "SIGABRT" || exitCode === 134;
    },
    async peakMib() {
      return null;
    },
    async release() {},
  };
}

/** The 413 an import stopped by its memory cap answers (field `package`). */
export function importOutOfMemory(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", {
    field: "package",
    message: `package: importing it needed more than the import's memory limit of ${maxMib} MiB (the setting ${IMPORT_MEMORY_SETTING}); nothing was stored`,
    details: { setting: IMPORT_MEMORY_SETTING, limitMib: maxMib },
  });
}
