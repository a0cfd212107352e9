/**
 * Entry point of the sandbox runner: picks a backend from `SANDBOX`
 * (auto | isolate | bwrap | unsafe-local), proves it works with a trivial run,
 * and hands it to the judge. With no usable backend the server still starts;
 * `backend` is null and `reason` says what to install.
 */
import { createBwrapBackend } from "./backends/bwrap.ts";
import { createIsolateBackend } from "./backends/isolate.ts";
import { createLocalBackend } from "./backends/local.ts";
import { ensurePch, pchDir } from "./pch.ts";
import type { SandboxBackend } from "./types.ts";

export type { Box, RunLimits, RunRequest, RunResult, RunStatus, SandboxBackend } from "./types.ts";
export { compileSource, runProgram, COMPILER_FLAGS, RUN_DEFAULTS, DIAGNOSTICS_LIMIT_BYTES } from "./exec.ts";
export type { Artifact, CompileOutcome, RunProgramOptions } from "./exec.ts";
export { LANGUAGES, LANGUAGE_IDS, getLanguage, isLanguageId } from "./languages/index.ts";
export type { Language, LanguageId } from "./languages/index.ts";

/**
 * What the sandbox runner needs to know to start, in its own terms (the server
 * builds it from its config: src/sandbox.ts).
 */
export interface SandboxOptions {
  /** `auto`: isolate if it works, else bwrap; `isolate`/`bwrap`: that one or none; `unsafe-local`: a plain subprocess. */
  mode: "auto" | "isolate" | "bwrap" | "unsafe-local";
  /** Boxes in the pool: how many runs at once. */
  poolSize: number;
  /** First box id and how many ids this process may use; two processes on one host need disjoint ranges. */
  boxIdStart: number;
  boxIdCount: number;
  /** The isolate binary: a path or a name on PATH. */
  isolateBin: string;
  /** Where bwrap and unsafe-local keep their box directories. */
  root: string;
  /** Where the precompiled header is kept (`<dataDir>/pch`). */
  dataDir: string;
  /** A production server: unsafe-local is refused. */
  production: boolean;
}

export interface SandboxSelection {
  /** The backend in use, or null when none works (every run request must then answer SANDBOX_UNAVAILABLE with `reason`). */
  backend: SandboxBackend | null;
  /** What `/api/health` reports. */
  name: "isolate" | "bwrap" | "unsafe-local" | "none";
  /** Why no backend (or why a fallback) was chosen, naming what to install; absent when the first choice works. */
  reason?: string;
}

/** What to tell an operator who has no sandbox. */
export const INSTALL_HINT =
  "install ioi/isolate (2.1 or newer on cgroup v2, 1.10.x on cgroup v1; production; see docs/sandbox.md) or bubblewrap (`apt install bubblewrap`), " +
  "or set SANDBOX=unsafe-local on a development machine";

/**
 * Chooses and starts the sandbox backend.
 *
 * - `SANDBOX=auto`: isolate if it works, else bwrap, else none.
 * - `SANDBOX=isolate` / `bwrap`: that backend or none (no silent fallback).
 * - `SANDBOX=unsafe-local`: a plain subprocess with rlimits, only when set
 *   explicitly; logs a loud warning; refused (none) when NODE_ENV=production.
 *
 * "Works" means the backend started and ran `/bin/true` in a box. Also starts
 * building the precompiled header in the background when it is missing (see
 * isolate/pch.ts; `scripts/prepare-sandbox.ts` builds it at install time).
 *
 * @param options what to start (SandboxOptions; the server's come from its config via src/sandbox.ts).
 * @param log    one line per decision (default: console.warn).
 * @returns never throws; a backend that fails to start yields `{ backend: null, name: "none", reason }`.
 * @example const sb = await createSandbox(sandboxOptions(config)); if (!sb.backend) throw new AppError("SANDBOX_UNAVAILABLE", { message: sb.reason })
 */
export async function createSandbox(
  options: SandboxOptions,
  log: (msg: string) => void = (m) => console.warn(m),
  opts: { buildPch?: boolean } = {},
): Promise<SandboxSelection> {
  const { mode } = options;
  const pch = pchDir(options.dataDir);
  const tried: string[] = [];

  const attempt = async (name: "isolate" | "bwrap"): Promise<SandboxBackend | null> => {
    try {
      const backend =
        name === "isolate"
          ? await createIsolateBackend({
              isolateBin: options.isolateBin,
              boxIdStart: options.boxIdStart,
              boxIdCount: options.boxIdCount,
              poolSize: options.poolSize,
              pchDir: pch,
            })
          : await createBwrapBackend({
              root: options.root,
              boxIdStart: options.boxIdStart,
              boxIdCount: options.boxIdCount,
              poolSize: options.poolSize,
              pchDir: pch,
            });
      const problem = await selfCheck(backend);
      if (problem) {
        await backend.close().catch(() => {});
        tried.push(`${name}: ${problem}`);
        return null;
      }
      return backend;
    } catch (err) {
      tried.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  };

  let backend: SandboxBackend | null = null;
  if (mode === "unsafe-local") {
    if (options.production) {
      const reason = `SANDBOX=unsafe-local is refused when NODE_ENV=production; ${INSTALL_HINT}`;
      log(`sandbox: ${reason}`);
      return { backend: null, name: "none", reason };
    }
    log(
      "sandbox: WARNING: SANDBOX=unsafe-local runs submitted code as a plain subprocess with rlimits only. " +
        "It can read your files and reach the network. Never use it with code from other people.",
    );
    backend = await createLocalBackend({ root: options.root, poolSize: options.poolSize });
  } else if (mode === "isolate" || mode === "bwrap") {
    backend = await attempt(mode);
  } else {
    backend = (await attempt("isolate")) ?? (await attempt("bwrap"));
  }

  if (!backend) {
    const reason = `no working sandbox (${tried.join("; ")}); ${INSTALL_HINT}`;
    log(`sandbox: ${reason}`);
    return { backend: null, name: "none", reason };
  }
  const fallbackReason = tried.length ? `fell back to ${backend.name}: ${tried.join("; ")}` : undefined;
  log(`sandbox: using ${backend.description ?? backend.name}${fallbackReason ? ` (${fallbackReason})` : ""}`);
  if (opts.buildPch !== false) {
    ensurePch(options.dataDir).then(
      (r) => r.built && log(`sandbox: built precompiled bits/stdc++.h in ${r.dir} (${r.buildMs} ms)`),
      (err) => log(`sandbox: could not build the precompiled header (C++ still works, slower): ${String(err)}`),
    );
  }
  return { backend, name: backend.name, ...(fallbackReason ? { reason: fallbackReason } : {}) };
}

/** Runs /bin/true in a box; returns a problem description or null when the backend works. */
export async function selfCheck(backend: SandboxBackend): Promise<string | null> {
  const box = await backend.acquire();
  try {
    const r = await box.run({
      argv: ["/bin/true"],
      cpuTimeLimitMs: 2000,
      wallTimeLimitMs: 5000,
      memoryLimitKib: 64 * 1024,
      processLimit: 4,
      outputLimitBytes: 1024,
      fileSizeLimitKib: 1024,
    });
    if (r.status !== "OK") return `self-check run of /bin/true ended ${r.status}${r.message ? `: ${r.message}` : ""}${r.stderr ? ` (${r.stderr.trim().slice(0, 300)})` : ""}`;
    return null;
  } finally {
    await backend.release(box);
  }
}
