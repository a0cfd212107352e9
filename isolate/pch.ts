/**
 * The precompiled `bits/stdc++.h`: built once with exactly the C++ language's
 * code-generation flags (PCH_FLAGS) into `<DATA_DIR>/pch`, which every backend
 * mounts read-only at `/pch` in the box (and nothing else of DATA_DIR). GCC
 * uses `/pch/bits/stdc++.h.gch` only when it was built with compatible flags
 * and falls back to the copied header beside it otherwise (GCC manual,
 * "Using Precompiled Headers"), so a stale file costs speed, never correctness.
 * A stamp records the flags and the g++ version; a change rebuilds.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, chmodSync, copyFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PCH_FLAGS } from "./languages/cpp.ts";

const GXX = "/usr/bin/g++";

/** Absolute directory of the precompiled header for a DATA_DIR. */
export function pchDir(dataDir: string): string {
  return resolve(dataDir, "pch");
}

interface Stamp {
  flags: readonly string[];
  gxxVersion: string;
  header: string;
}

async function gxxVersion(): Promise<string> {
  const p = Bun.spawn([GXX, "--version"], { stdout: "pipe", stderr: "ignore", env: { PATH: "/usr/bin:/bin" } });
  const out = await new Response(p.stdout).text();
  await p.exited;
  return out.split("\n")[0]?.trim() ?? "unknown";
}

/** Finds the system `bits/stdc++.h` the way g++ does (`-H` prints the included path). */
async function findHeader(): Promise<string> {
  const p = Bun.spawn([GXX, ...PCH_FLAGS, "-H", "-E", "-x", "c++", "-o", "/dev/null", "-"], {
    stdin: new TextEncoder().encode("#include <bits/stdc++.h>\n"),
    stdout: "ignore",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin" },
  });
  const err = await new Response(p.stderr).text();
  if ((await p.exited) !== 0) throw new Error(`g++ cannot find bits/stdc++.h: ${err.slice(0, 500)}`);
  const first = err.split("\n").find((l) => l.startsWith(". "));
  if (!first) throw new Error("g++ -H printed no header path");
  return first.slice(2).trim();
}

/** True when `dir` holds a header precompiled for the current flags and compiler. */
export async function pchIsCurrent(dataDir: string): Promise<boolean> {
  const dir = pchDir(dataDir);
  try {
    const stamp = JSON.parse(readFileSync(join(dir, "stamp.json"), "utf8")) as Stamp;
    return (
      JSON.stringify(stamp.flags) === JSON.stringify(PCH_FLAGS) &&
      stamp.gxxVersion === (await gxxVersion()) &&
      existsSync(join(dir, "bits", "stdc++.h.gch"))
    );
  } catch {
    return false;
  }
}

let inFlight: Promise<{ dir: string; built: boolean; buildMs: number }> | null = null;

/**
 * Builds `<DATA_DIR>/pch/bits/stdc++.h.gch` unless it is current. Idempotent and
 * safe to call concurrently (one build per process; each file is replaced by
 * rename, so a box never sees a half-written file).
 * Takes about 5–10 s of one core with GCC 12.
 * @returns the directory, whether a build happened, and its duration in ms.
 * @throws Error when g++ is missing or the build fails (C++ then compiles without it).
 */
export function ensurePch(dataDir: string): Promise<{ dir: string; built: boolean; buildMs: number }> {
  inFlight ??= build(dataDir).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function build(dataDir: string): Promise<{ dir: string; built: boolean; buildMs: number }> {
  const dir = pchDir(dataDir);
  // The mount source must exist even before the first build (an empty /pch is harmless).
  mkdirSync(join(dir, "bits"), { recursive: true, mode: 0o755 });
  if (await pchIsCurrent(dataDir)) return { dir, built: false, buildMs: 0 };
  const started = performance.now();
  const header = await findHeader();
  // Files are replaced one by one with rename(2), never the directory: the
  // bwrap backend bind-mounts this directory and must keep seeing it.
  const tag = `.tmp-${process.pid}-${Date.now()}`;
  const tmpHeader = join(dir, "bits", `stdc++.h${tag}`);
  const tmpGch = join(dir, "bits", `stdc++.h.gch${tag}`);
  const tmpStamp = join(dir, `stamp.json${tag}`);
  try {
    rmSync(join(dir, "stamp.json"), { force: true });
    copyFileSync(header, tmpHeader);
    chmodSync(tmpHeader, 0o644);
    renameSync(tmpHeader, join(dir, "bits", "stdc++.h"));
    const p = Bun.spawn([GXX, ...PCH_FLAGS, "-x", "c++-header", "-o", tmpGch, join(dir, "bits", "stdc++.h")], {
      stdout: "ignore",
      stderr: "pipe",
      env: { PATH: "/usr/bin:/bin" },
    });
    const err = await new Response(p.stderr).text();
    if ((await p.exited) !== 0) throw new Error(`building the precompiled header failed: ${err.slice(0, 1000)}`);
    chmodSync(tmpGch, 0o644);
    renameSync(tmpGch, join(dir, "bits", "stdc++.h.gch"));
    const stamp: Stamp = { flags: PCH_FLAGS, gxxVersion: await gxxVersion(), header };
    writeFileSync(tmpStamp, `${JSON.stringify(stamp, null, 2)}\n`, { mode: 0o644 });
    renameSync(tmpStamp, join(dir, "stamp.json"));
    return { dir, built: true, buildMs: Math.round(performance.now() - started) };
  } finally {
    for (const f of [tmpHeader, tmpGch, tmpStamp]) rmSync(f, { force: true });
  }
}
