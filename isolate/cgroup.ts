/**
 * Control groups for the bwrap backend: one fresh cgroup per run that limits
 * memory (no swap) and tasks, accounts CPU time summed over every thread and
 * process, records peak memory and OOM kills, and kills whatever is left.
 * Works on cgroup v2 (unified; needs the memory and pids controllers
 * delegable at the hierarchy root) and on cgroup v1 (memory, pids, cpuacct
 * hierarchies mounted separately, as on our build machines). Detection reads
 * /proc/self/mountinfo; nothing is assumed about where hierarchies live.
 * Files: Documentation/admin-guide/cgroup-v2.rst and cgroup-v1/memory.rst.
 */
import { mkdirSync, promises as fsp, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type CgroupSupport =
  | { version: 2; parent: string; hasPeak: boolean; hasKill: boolean }
  | { version: 1; memory: string; pids: string | null; cpuacct: string | null; hasMemsw: boolean };

/** Name of the directory we create under each hierarchy for our runs. */
const PARENT = "oj-sandbox";

interface Mount {
  fsType: string;
  mountPoint: string;
  superOptions: string[];
}

function readMounts(): Mount[] {
  const text = readFileSync("/proc/self/mountinfo", "utf8");
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const l = left.split(" ");
    const r = right.split(" ");
    mounts.push({ mountPoint: l[4]!.replace(/\\040/g, " "), fsType: r[0]!, superOptions: (r[2] ?? "").split(",") });
  }
  return mounts;
}

/**
 * The host's control-group mode, as isolate sees it: 2 when the unified
 * hierarchy is mounted at /sys/fs/cgroup (isolate 2.x can use --cg), 1 when
 * the controllers are v1 hierarchies (a "hybrid" host with a v2 mount at
 * /sys/fs/cgroup/unified too; isolate 1.10 can use --cg), null when neither
 * (or /proc/self/mountinfo cannot be read).
 */
export function hostCgroupVersion(): 1 | 2 | null {
  let mounts: Mount[];
  try {
    mounts = readMounts();
  } catch {
    return null;
  }
  if (mounts.some((m) => m.fsType === "cgroup2" && m.mountPoint === "/sys/fs/cgroup")) return 2;
  if (mounts.some((m) => m.fsType === "cgroup" && m.superOptions.includes("memory"))) return 1;
  return null;
}

async function writable(dir: string): Promise<boolean> {
  const probe = join(dir, `probe-${process.pid}-${Date.now()}`);
  try {
    await fsp.mkdir(probe);
    await fsp.rmdir(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds usable cgroups: v2 when its root offers memory and pids to a cgroup
 * we can create, else v1 when a writable memory hierarchy exists, else null
 * (rlimits only). `why` explains a null for `bun run doctor`.
 */
export async function detectCgroups(): Promise<{ support: CgroupSupport | null; why: string }> {
  let mounts: Mount[];
  try {
    mounts = readMounts();
  } catch (err) {
    return { support: null, why: `cannot read /proc/self/mountinfo: ${String(err)}` };
  }
  const reasons: string[] = [];
  const v2 = mounts.find((m) => m.fsType === "cgroup2");
  if (v2) {
    const controllers = readFileSync(join(v2.mountPoint, "cgroup.controllers"), "utf8").trim().split(/\s+/);
    if (controllers.includes("memory") && controllers.includes("pids")) {
      const parent = join(v2.mountPoint, PARENT);
      try {
        await fsp.mkdir(parent, { recursive: true });
        const want = ["memory", "pids", ...(controllers.includes("cpu") ? ["cpu"] : [])];
        await fsp.writeFile(join(v2.mountPoint, "cgroup.subtree_control"), want.map((c) => `+${c}`).join(" "));
        await fsp.writeFile(join(parent, "cgroup.subtree_control"), want.map((c) => `+${c}`).join(" "));
        if (await writable(parent)) {
          return {
            support: {
              version: 2,
              parent,
              hasKill: await exists(join(parent, "cgroup.kill")),
              hasPeak: await probeFile(parent, "memory.peak"),
            },
            why: `cgroup v2 at ${v2.mountPoint}`,
          };
        }
        reasons.push(`cgroup v2: cannot create cgroups under ${parent}`);
      } catch (err) {
        reasons.push(`cgroup v2: cannot delegate memory/pids under ${v2.mountPoint} (${(err as Error).message})`);
      }
    } else {
      reasons.push(`cgroup v2 at ${v2.mountPoint} offers [${controllers.join(" ")}], needs memory and pids`);
    }
  }
  const v1 = (ctrl: string) => mounts.find((m) => m.fsType === "cgroup" && m.superOptions.includes(ctrl))?.mountPoint ?? null;
  const memory = v1("memory");
  if (memory) {
    const prepare = async (root: string | null) => {
      if (!root) return null;
      const dir = join(root, PARENT);
      try {
        await fsp.mkdir(dir, { recursive: true });
        return (await writable(dir)) ? dir : null;
      } catch {
        return null;
      }
    };
    const mem = await prepare(memory);
    if (mem) {
      return {
        support: {
          version: 1,
          memory: mem,
          pids: await prepare(v1("pids")),
          cpuacct: await prepare(v1("cpuacct")),
          hasMemsw: await exists(join(mem, "memory.memsw.limit_in_bytes")),
        },
        why: `cgroup v1 at ${memory}`,
      };
    }
    reasons.push(`cgroup v1 memory hierarchy at ${memory} is not writable`);
  }
  if (!v2 && !memory) reasons.push("no cgroup hierarchy mounted");
  return { support: null, why: reasons.join("; ") };
}

async function exists(path: string): Promise<boolean> {
  return fsp.access(path).then(
    () => true,
    () => false,
  );
}

/** memory.peak exists only in the children (kernel 5.19+); probe with a throwaway child. */
async function probeFile(parent: string, file: string): Promise<boolean> {
  const dir = join(parent, `probe-${process.pid}`);
  try {
    await fsp.mkdir(dir);
    return await exists(join(dir, file));
  } catch {
    return false;
  } finally {
    await fsp.rmdir(dir).catch(() => {});
  }
}

/*
 * Per-run operations below use synchronous calls on purpose: cgroupfs files
 * live in kernel memory (no disk I/O), each call takes microseconds, and a
 * synchronous call saves the round trip through the I/O thread pool that an
 * asynchronous one costs on every step of every run (more on a loaded machine).
 */

function readNumber(path: string): number | null {
  try {
    const n = Number(readFileSync(path, "utf8").trim());
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

function readKey(path: string, key: string): number | null {
  try {
    const text = readFileSync(path, "utf8");
    const m = new RegExp(`^${key} (\\d+)$`, "m").exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** mkdir that tolerates an existing directory. @returns true when it existed. @throws Error for any other failure. */
function makeDir(dir: string): boolean {
  try {
    mkdirSync(dir);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return true;
  }
}

function tryWrite(path: string, value: string): boolean {
  try {
    writeFileSync(path, value);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One run's cgroup (one directory per hierarchy). Create, join, measure, kill, remove. */
export class RunCgroup {
  private peakKib = 0;
  private constructor(
    private readonly support: CgroupSupport,
    /** Directories of this cgroup: [v2 dir] or [memory, pids?, cpuacct?]. */
    private readonly dirs: string[],
  ) {}

  /**
   * Creates the cgroup `name` with a memory limit (RAM + swap) and a task limit.
   * @throws Error when a directory or limit cannot be written (the run is then XX).
   */
  static async create(support: CgroupSupport, name: string, memoryLimitKib: number, taskLimit: number): Promise<RunCgroup> {
    const bytes = String(memoryLimitKib * 1024);
    if (support.version === 2) {
      const dir = join(support.parent, name);
      try {
        rmdirSync(dir);
      } catch {
        // usually absent
      }
      mkdirSync(dir);
      const cg = new RunCgroup(support, [dir]);
      writeFileSync(join(dir, "memory.max"), bytes);
      tryWrite(join(dir, "memory.swap.max"), "0");
      writeFileSync(join(dir, "pids.max"), String(taskLimit));
      return cg;
    }
    const dirs = [support.memory, support.pids, support.cpuacct].filter((d): d is string => d !== null).map((d) => join(d, name));
    const made: string[] = [];
    try {
      const existed = dirs.map((d) => {
        const e = makeDir(d);
        made.push(d);
        return e;
      });
      const mem = dirs[0]!;
      // memsw must stay >= limit: lower it last when shrinking, raise it first when growing.
      if (!tryWrite(join(mem, "memory.limit_in_bytes"), bytes)) {
        if (support.hasMemsw) writeFileSync(join(mem, "memory.memsw.limit_in_bytes"), bytes);
        writeFileSync(join(mem, "memory.limit_in_bytes"), bytes);
      }
      if (support.hasMemsw) writeFileSync(join(mem, "memory.memsw.limit_in_bytes"), bytes);
      if (support.pids) writeFileSync(join(support.pids, name, "pids.max"), String(taskLimit));
      // A new cgroup starts from zero; only a leftover one (same name) needs its counters reset.
      if (existed[0]) tryWrite(join(mem, "memory.max_usage_in_bytes"), "0");
      if (support.cpuacct && existed[dirs.length - 1]) tryWrite(join(support.cpuacct, name, "cpuacct.usage"), "0");
      return new RunCgroup(support, dirs);
    } catch (err) {
      for (const d of made.reverse()) {
        try {
          rmdirSync(d);
        } catch {
          // not empty or gone: removeStale takes it at the next start
        }
      }
      throw err;
    }
  }

  /**
   * Kills and removes leftover run cgroups whose names start with one of
   * `prefixes` (runs of our box ids that a crashed server left behind).
   */
  static async removeStale(support: CgroupSupport, prefixes: string[]): Promise<void> {
    const parents = support.version === 2 ? [support.parent] : [support.memory, support.pids, support.cpuacct].filter((d): d is string => d !== null);
    const names = new Set<string>();
    for (const parent of parents) {
      for (const e of await fsp.readdir(parent).catch(() => [] as string[])) if (prefixes.some((p) => e.startsWith(p))) names.add(e);
    }
    for (const name of names) {
      const dirs = support.version === 2 ? [join(support.parent, name)] : parents.map((p) => join(p, name));
      await new RunCgroup(support, dirs).remove().catch(() => {});
    }
  }

  /** The `cgroup.procs` files a process writes its pid into to join this cgroup. */
  get procsFiles(): string[] {
    return this.dirs.map((d) => join(d, "cgroup.procs"));
  }

  /** True when task counting (pids controller) is active. */
  get limitsTasks(): boolean {
    return this.support.version === 2 || this.support.pids !== null;
  }

  /** CPU time of every task that ever ran in the cgroup, ms; null without CPU accounting (v1 without cpuacct). */
  async cpuTimeMs(): Promise<number | null> {
    if (this.support.version === 2) {
      const usec = readKey(join(this.dirs[0]!, "cpu.stat"), "usage_usec");
      return usec === null ? null : usec / 1000;
    }
    if (!this.support.cpuacct) return null;
    const ns = readNumber(join(this.support.cpuacct, this.name, "cpuacct.usage"));
    return ns === null ? null : ns / 1e6;
  }

  private get name(): string {
    return this.dirs[0]!.split("/").pop()!;
  }

  /** Samples current usage so that peak memory is known on v2 kernels without memory.peak. */
  async sample(): Promise<void> {
    if (this.support.version === 2 && !this.support.hasPeak) {
      const cur = readNumber(join(this.dirs[0]!, "memory.current"));
      if (cur !== null) this.peakKib = Math.max(this.peakKib, cur / 1024);
    }
  }

  /** Peak memory of the cgroup, KiB. */
  async memoryPeakKib(): Promise<number> {
    const dir = this.dirs[0]!;
    if (this.support.version === 2) {
      if (this.support.hasPeak) return (readNumber(join(dir, "memory.peak")) ?? 0) / 1024;
      await this.sample();
      return this.peakKib;
    }
    return (readNumber(join(dir, "memory.max_usage_in_bytes")) ?? 0) / 1024;
  }

  /** True when the OOM killer acted in this cgroup, or the limit was hit (v1 failcnt) — callers combine it with a SIGKILL. */
  async oomKilled(): Promise<boolean> {
    const dir = this.dirs[0]!;
    if (this.support.version === 2) return (readKey(join(dir, "memory.events"), "oom_kill") ?? 0) > 0;
    return (readKey(join(dir, "memory.oom_control"), "oom_kill") ?? 0) > 0;
  }

  /** Host pids still in the cgroup. */
  async pids(): Promise<number[]> {
    const out = new Set<number>();
    for (const f of this.procsFiles) {
      let text = "";
      try {
        text = readFileSync(f, "utf8");
      } catch {
        // removed meanwhile
      }
      for (const l of text.split("\n")) if (l.trim()) out.add(Number(l));
    }
    return [...out];
  }

  /** SIGKILLs every task until the cgroup is empty (cgroup.kill on v2 5.14+, else a kill loop). @returns pids that survived ~2 s. */
  async killAll(): Promise<number[]> {
    if (this.support.version === 2 && this.support.hasKill) tryWrite(join(this.dirs[0]!, "cgroup.kill"), "1");
    for (let i = 0; i < 200; i++) {
      const left = await this.pids();
      if (left.length === 0) return [];
      for (const pid of left) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      await sleep(i < 20 ? 1 : 10);
    }
    return this.pids();
  }

  /** Kills what is left and removes the directories (retrying while the kernel finishes tearing tasks down). */
  async remove(): Promise<void> {
    await this.killAll();
    for (const d of [...this.dirs].reverse()) {
      for (let i = 0; i < 100; i++) {
        try {
          rmdirSync(d);
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "ENOENT") break;
          await sleep(5);
        }
      }
    }
  }
}
