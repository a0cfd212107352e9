/**
 * Test support (not a test file): the real backends present on this machine,
 * each created with its own box-id range and root so test files can run side
 * by side. A backend that is absent is reported with the reason, so suites can
 * say clearly why they skip it.
 */
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBwrapBackend } from "./backends/bwrap.ts";
import { createIsolateBackend } from "./backends/isolate.ts";
import type { SandboxBackend } from "./types.ts";

export interface BackendCandidate {
  name: "isolate" | "bwrap";
  /** What the suite's block is called: "bwrap", "isolate 1.10.1 (cg)", "isolate 2.6 (rlimit)", "isolate (installed)". */
  label: string;
  /** Null when the backend can be used here. */
  missing: string | null;
  /** Added to a suite's isolate box ids, so that two isolate builds never share one. */
  boxIdOffset: number;
  /**
   * How the memory limit is enforced: "cgroup" (peak memory of the whole box, MLE
   * on an OOM kill), or "address-space" (rlimit mode: RLIMIT_AS per process).
   */
  memory: "cgroup" | "address-space";
  /** isolate: the binary, and the first sandbox uid (box uid = firstUid + box id) where known. */
  bin?: string;
  firstUid?: number;
  create(opts: { boxIdStart: number; pchDir?: string }): Promise<SandboxBackend>;
}

/** One isolate built for the tests by scripts/build-isolate.ts --for-tests. */
export interface TestIsolateBuild {
  version: string;
  bin: string;
  /** "cg": it can use this host's control groups; "rlimit": it runs without --cg here. */
  mode: "cg" | "rlimit";
  firstUid: number;
}

/** Where scripts/build-isolate.ts puts the test builds (and builds.json). */
export const TEST_ISOLATE_ROOT = process.env.TEST_ISOLATE_ROOT ?? "/var/lib/oj-test-isolate";

/**
 * The isolate builds the test command made from the vendored sources, or why
 * there are none (builds.json, written by scripts/build-isolate.ts --for-tests).
 */
export function testIsolateBuilds(): { builds: TestIsolateBuild[]; why: string | null } {
  const manifest = join(TEST_ISOLATE_ROOT, "builds.json");
  if (!existsSync(manifest)) return { builds: [], why: `no isolate test builds (${manifest} is missing: run bash scripts/test.sh, which builds them)` };
  const body = JSON.parse(readFileSync(manifest, "utf8")) as { builds: TestIsolateBuild[]; skipped: string | null };
  const builds = body.builds.filter((b) => existsSync(b.bin));
  return { builds, why: builds.length ? null : (body.skipped ?? "no isolate test build is present") };
}

/**
 * Every isolate the suites run against: one installed on PATH (ISOLATE_BIN's
 * default), then each test build (1.10.1 with control groups on a cgroup v1
 * host, 2.6 in rlimit mode; 2.6 with control groups on a cgroup v2 host).
 */
export function isolateCandidates(): BackendCandidate[] {
  const installed = Bun.which("isolate");
  const { builds, why } = testIsolateBuilds();
  // The backend picks its mode from the version and the host (an "rlimit" build is one that cannot use
  // this host's cgroups): nothing is forced, so its description says the real reason.
  const make = (label: string, bin: string, boxIdOffset: number, rlimit: boolean, firstUid?: number): BackendCandidate => ({
    name: "isolate",
    label,
    missing: null,
    boxIdOffset,
    memory: rlimit ? "address-space" : "cgroup",
    bin,
    firstUid,
    create: (o) => createIsolateBackend({ isolateBin: bin, boxIdStart: o.boxIdStart, boxIdCount: 4, poolSize: 2, pchDir: o.pchDir }),
  });
  const found = [
    ...(installed ? [make("isolate (installed)", installed, 0, false)] : []),
    ...builds.map((b, i) => make(`isolate ${b.version} (${b.mode})`, b.bin, 20 * (i + 1), b.mode === "rlimit", b.firstUid)),
  ];
  if (found.length) return found;
  return [{ name: "isolate", label: "isolate", missing: `isolate is not on PATH and ${why}`, boxIdOffset: 0, memory: "cgroup", create: () => Promise.reject(new Error(why ?? "no isolate")) }];
}

/** The candidates, with `missing` set where the tool is not installed. */
export function backendCandidates(): BackendCandidate[] {
  const bwrapBin = Bun.which("bwrap");
  return [
    ...isolateCandidates(),
    {
      name: "bwrap",
      label: "bwrap",
      missing: bwrapBin ? null : "bwrap is not on PATH (apt install bubblewrap)",
      boxIdOffset: 0,
      memory: "cgroup",
      create: (o) =>
        createBwrapBackend({
          root: join(tmpdir(), `oj-test-boxes-${process.pid}-${o.boxIdStart}`),
          boxIdStart: o.boxIdStart,
          boxIdCount: 4,
          poolSize: 2,
          pchDir: o.pchDir,
        }),
    },
  ];
}

/** Host pids whose command line contains `marker` (to prove nothing survived a run). */
export async function processesWithMarker(marker: string): Promise<number[]> {
  const { readdirSync, readFileSync } = await import("node:fs");
  const found: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, "utf8").includes(marker)) found.push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}
