/**
 * Test support (not a test file): the real backends present on this machine,
 * each created with its own box-id range and root so test files can run side
 * by side. A backend that is absent is reported with the reason, so suites can
 * say clearly why they skip it.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBwrapBackend } from "./backends/bwrap.ts";
import { createIsolateBackend } from "./backends/isolate.ts";
import type { SandboxBackend } from "./types.ts";

export interface BackendCandidate {
  name: "isolate" | "bwrap";
  /** Null when the backend can be used here. */
  missing: string | null;
  create(opts: { boxIdStart: number; pchDir?: string }): Promise<SandboxBackend>;
}

/** The candidates, with `missing` set where the tool is not installed. */
export function backendCandidates(): BackendCandidate[] {
  const isolateBin = Bun.which("isolate");
  const bwrapBin = Bun.which("bwrap");
  return [
    {
      name: "isolate",
      missing: isolateBin ? null : "isolate is not on PATH (install ioi/isolate to run these cases; see docs/sandbox.md)",
      create: (o) => createIsolateBackend({ isolateBin: isolateBin ?? "isolate", boxIdStart: o.boxIdStart, boxIdCount: 4, poolSize: 2, pchDir: o.pchDir }),
    },
    {
      name: "bwrap",
      missing: bwrapBin ? null : "bwrap is not on PATH (apt install bubblewrap)",
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
