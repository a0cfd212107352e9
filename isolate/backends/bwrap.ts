/**
 * The bubblewrap backend: each run is a fresh set of namespaces (user, mount,
 * pid, net, ipc, uts, cgroup) with read-only system directories, a private
 * writable box at /box, a tmpfs /tmp, a fixed minimal environment and no
 * network. When the server runs as root, each box has its own unprivileged
 * uid (60000 + box id, as isolate does) and its own size-limited tmpfs; limits
 * come from a fresh cgroup per run (v2 or v1; memory without swap, tasks, CPU
 * summed over threads) plus rlimits (file size, stack, CPU backstop), or from
 * rlimits alone where cgroups are not writable.
 *
 * Launch chain, all argument arrays and all `exec` (one pid):
 *   oj-launch (joins the run's cgroups, sets rlimits and no_new_privs, drops to
 *   the box uid; a fixed static C helper, see launcher.ts) → bwrap → program
 * or, where the launcher cannot be built or run (no C compiler, a noexec
 * SANDBOX_ROOT), the same steps as
 *   sh (a fixed join script) → setpriv (box uid) → prlimit → bwrap → program
 * /etc and /dev are prepared directories under SANDBOX_ROOT, one mount each
 * (prepareSandboxEtc, prepareSandboxDev): bwrap re-reads the host's mount
 * table after every bind mount, so the number of mounts is most of a run's
 * set-up cost beyond the namespaces (docs/decisions/003, addendum).
 * bwrap's --json-status-fd tells a sandbox set-up failure (XX) from the
 * program's own exit; its pid-1 reaper and --die-with-parent make the whole
 * process tree die with the run, and the cgroup kill loop removes stragglers.
 */
import { pooledBoxes } from "../pool.ts";
import { emptyDir } from "../boxfs.ts";
import type { SandboxBackend } from "../types.ts";
import { BOX_UID_BASE, boxUidConflict, setUpBwrapHost, type BwrapOptions, type BwrapRunTimings } from "./bwrap-host.ts";
import { BwrapBox, POLL_MS } from "./bwrap-box.ts";
import { Launches } from "./bwrap-launch.ts";
import { BWRAP_OVERHEAD_TASKS, buildBwrapArgv, detectBwrap, type BwrapFeatures, type BwrapRunSpec } from "./bwrap-argv.ts";
import { prepareSandboxDev, prepareSandboxEtc } from "./bwrap-root.ts";

export { BOX_UID_BASE, BWRAP_OVERHEAD_TASKS, boxUidConflict, buildBwrapArgv, detectBwrap, POLL_MS, prepareSandboxDev, prepareSandboxEtc };
export type { BwrapFeatures, BwrapOptions, BwrapRunSpec, BwrapRunTimings };

/**
 * Starts the bwrap backend: the host's set-up (bwrap-host.ts), the launches
 * (bwrap-launch.ts) and a pool of boxes (bwrap-box.ts).
 * @throws Error naming what is missing (bwrap, a usable SANDBOX_ROOT, and
 *         prlimit/setpriv when the launcher cannot be built).
 */
export async function createBwrapBackend(opts: BwrapOptions): Promise<SandboxBackend> {
  const host = await setUpBwrapHost(opts);
  const launches = new Launches(host, opts.tuning?.warm !== false);
  const boxes = pooledBoxes(host.pool, {
    open: async (id) => new BwrapBox(id, await host.prepareBoxDir(id), host, launches, opts.onRunTimings),
    async reset(b: BwrapBox) {
      await b.cleanup;
      await emptyDir(b.dir);
    },
  });
  const { cg, isRoot, noLauncher } = host;
  const description = `bwrap (${host.version}), ${cg.support ? `cgroup v${cg.support.version}` : `rlimits only (${cg.why})`}, ${
    isRoot ? `per-box uid ${BOX_UID_BASE}+id${host.tmpfsBoxes ? ", tmpfs boxes" : ""}` : "unprivileged"
  }${noLauncher ? `, sh/setpriv/prlimit launch chain (slower: ${noLauncher})` : ""}${
    !host.etcDir ? ", /etc and /dev mounted file by file" : host.devDir ? "" : ", bwrap's --dev (device nodes cannot be prepared here)"
  }${host.pchWanted && !host.pchSource ? ", no /pch (bind mount failed)" : ""}`;
  return {
    name: "bwrap",
    get description() {
      return description;
    },
    acquire: boxes.acquire,
    acquireMany: boxes.acquireMany,
    release: boxes.release,
    async close() {
      launches.stop();
      await boxes.closeBoxes();
      await launches.close();
      await host.unmountAll();
    },
  } satisfies SandboxBackend;
}
