/**
 * `bun run doctor`: checks this machine for running submitted code and says
 * what to fix. Checks: the configuration, the sandbox backend SANDBOX selects
 * (and why others were not taken), control groups, isolate's own environment
 * check when isolate is installed, isolate's per-box disk quota (a tmpfs the
 * backend mounts over each box; it refuses to start without one), how memory
 * is bounded in rlimit mode, the compilers, the precompiled header, and
 * every language's self-test run through the real sandbox.
 * Exit status 0 when code can be judged here, 1 otherwise.
 * Uses the last box ids of the configured range and its own SANDBOX_ROOT
 * (suffix -doctor), so it does not disturb a running server.
 */
import { loadConfig } from "../src/config.ts";
import { createSandbox } from "../isolate/index.ts";
import { detectCgroups } from "../isolate/cgroup.ts";
import { configureImportMemory } from "../src/packages/import-memory.ts";
import { pchIsCurrent, pchDir } from "../isolate/pch.ts";
import { compileSource, runProgram } from "../isolate/exec.ts";
import { LANGUAGE_IDS, getLanguage } from "../isolate/languages/index.ts";
import { sandboxOptions } from "../src/sandbox.ts";
import { offeredLanguages } from "../src/judge/languages.ts";

let failed = false;
const ok = (what: string, detail: string) => console.log(`  ok    ${what}: ${detail}`);
const warn = (what: string, detail: string, fix: string) => console.log(`  warn  ${what}: ${detail}\n        fix: ${fix}`);
const fail = (what: string, detail: string, fix: string) => {
  failed = true;
  console.log(`  FAIL  ${what}: ${detail}\n        fix: ${fix}`);
};

async function output(argv: string[]): Promise<{ code: number; text: string }> {
  try {
    const p = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe" });
    const [o, e] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    return { code: await p.exited, text: (o + e).trim() };
  } catch (err) {
    return { code: -1, text: (err as Error).message };
  }
}

console.log("doctor: checking this machine for running submitted code\n");

let config;
try {
  config = loadConfig(process.env);
  ok("configuration", `SANDBOX=${config.SANDBOX}, pool ${config.SANDBOX_POOL_SIZE}, box ids ${config.ISOLATE_BOX_ID_START}..${config.ISOLATE_BOX_ID_START + config.ISOLATE_BOX_ID_COUNT - 1}`);
} catch (err) {
  fail("configuration", (err as Error).message, "fix the variable named above (see .env.example)");
  process.exit(1);
}

// Compilers and runtimes, at the absolute paths the languages use inside the box.
/** Debian packages to install per language whose tools are missing (named again at its self-test). */
const missingPackages = new Map<string, string[]>();
const checkedTools = new Set<string>();
// LANGUAGES names what the server offers (and what scripts/install.sh installed): a named language
// whose tools are missing fails; any other missing language is simply not offered (a warning).
const named = config.LANGUAGES === undefined ? null : new Set(config.LANGUAGES.split(",").map((l) => l.trim()));
const enabled = named ?? new Set<string>();
for (const id of LANGUAGE_IDS) {
  for (const tool of getLanguage(id).requires) {
    if (checkedTools.has(tool.path)) continue;
    checkedTools.add(tool.path);
    const r = await output([tool.path, ...tool.versionArgs]);
    if (r.code === 0) ok(tool.path, r.text.split("\n")[0]!);
    else if (!enabled.has(id)) {
      warn(tool.path, `missing: ${getLanguage(id).name} is not offered here`, `LANGUAGES=...,${id} bash scripts/install.sh (or apt install ${tool.debianPackage})`);
      missingPackages.set(id, [...new Set([...(missingPackages.get(id) ?? []), tool.debianPackage])]);
    } else {
      fail(tool.path, `not usable (${r.text.slice(0, 120)}): LANGUAGES names ${getLanguage(id).name}, which is not offered until it is`, `apt install ${tool.debianPackage}`);
      missingPackages.set(id, [...new Set([...(missingPackages.get(id) ?? []), tool.debianPackage])]);
    }
  }
}

const offered = offeredLanguages(config);
ok("languages offered", offered.ids.map((id) => getLanguage(id).name).join(", ") || "none");

// Kotlin (the ICPC set's fifth language) is offered only with kotlinc 1.7 or newer: Debian's package is 1.3.
const kotlinc = Bun.which("kotlinc");
if (kotlinc) {
  const v = await output([kotlinc, "-version"]);
  warn("kotlin", `${v.text.split("\n")[0] ?? "kotlinc"} found; Kotlin is not a language of this judge yet`, "see docs/authoring.md: a language is one file in isolate/languages");
} else {
  ok("kotlin", "not offered: no kotlinc here (Debian's kotlin 1.3 is too old; the judge would need kotlinc 1.7 or newer)");
}

// Control groups (bwrap uses them directly; isolate needs its own cgroup v2 delegation).
const cg = await detectCgroups();
if (cg.support) ok("control groups", `${cg.why}: memory, tasks and CPU time are limited per run`);
else warn("control groups", cg.why, "run the server as root on a host with cgroup v2 (or v1 memory/pids/cpuacct) so memory and process limits are exact; rlimits are used meanwhile");

// The package import's process: its own memory control group, else an rlimit (src/packages/import-memory.ts).
const importMemory = await configureImportMemory(config.IMPORT_MEMORY_MAX_MIB);
if (importMemory.kind === "cgroup") ok("import memory", `capped at ${config.IMPORT_MEMORY_MAX_MIB} MiB (IMPORT_MEMORY_MAX_MIB) by ${importMemory.why}`);
else warn("import memory", importMemory.why, `run the server as root on a host with cgroup v1 or v2 memory control so the import's ${config.IMPORT_MEMORY_MAX_MIB} MiB (IMPORT_MEMORY_MAX_MIB) is exact${importMemory.kind === "none" ? "; apt install util-linux for prlimit meanwhile" : ""}`);

// isolate's own environment check, when isolate is installed.
const isolateBin = config.ISOLATE_BIN.includes("/") ? config.ISOLATE_BIN : Bun.which(config.ISOLATE_BIN);
if (isolateBin) {
  const v = await output([isolateBin, "--version"]);
  ok("isolate", v.text.split("\n")[0] ?? "present");
  const check = Bun.which("isolate-check-environment");
  if (check) {
    const r = await output([check]);
    if (r.code === 0) ok("isolate-check-environment", "no problems reported");
    else warn("isolate-check-environment", r.text.split("\n").filter((l) => /FAIL|WARN/i.test(l)).slice(0, 5).join("; ") || `exit ${r.code}`, "see docs/sandbox.md (isolate-check-environment --execute applies the fixes)");
  }
} else {
  console.log("  info  isolate: not installed (optional; the production choice, see docs/sandbox.md)");
}

// Precompiled header.
if (await pchIsCurrent(config.DATA_DIR)) ok("precompiled bits/stdc++.h", pchDir(config.DATA_DIR));
else warn("precompiled bits/stdc++.h", `missing or stale in ${pchDir(config.DATA_DIR)}`, "bun scripts/prepare-sandbox.ts (C++ with bits/stdc++.h compiles ~5x slower meanwhile)");

// The backend, proven by the languages' self-tests.
const doctorConfig = loadConfig({
  ...process.env,
  SANDBOX_ROOT: `${config.SANDBOX_ROOT}-doctor`,
  SANDBOX_POOL_SIZE: "1",
  // The last two ids of the range (the configuration asks for two: a validator's box), one in use.
  ISOLATE_BOX_ID_START: String(config.ISOLATE_BOX_ID_START + config.ISOLATE_BOX_ID_COUNT - 2),
  ISOLATE_BOX_ID_COUNT: "2",
});
const notes: string[] = [];
const sel = await createSandbox(sandboxOptions(doctorConfig), (m) => notes.push(m), { buildPch: false });
// isolate refused because it cannot give each box its own size-limited file system (it would let a program fill the disk).
const quotaRefusal = /isolate: (isolate's boxes need a size-limited file system.*?box quota\)\.)/s.exec(sel.reason ?? "");
if (quotaRefusal) {
  (sel.backend ? warn : fail)("isolate box quota", `the isolate backend refused to start: ${quotaRefusal[1]!.slice(0, 600)}`, "run the server as root (mounting a tmpfs per box needs CAP_SYS_ADMIN), or use SANDBOX=bwrap; docs/sandbox.md");
}
if (!sel.backend) {
  fail("sandbox", sel.reason ?? "none", "install bubblewrap (apt install bubblewrap) or isolate (docs/sandbox.md), or check SANDBOX");
} else {
  if (sel.name === "unsafe-local") warn("sandbox", "SANDBOX=unsafe-local is NOT a sandbox", "install bubblewrap or isolate and set SANDBOX=auto");
  else ok("sandbox", sel.backend.description ?? sel.name);
  const description = sel.backend.description ?? "";
  if (sel.name === "bwrap" && description.includes("launch chain (slower")) {
    warn("sandbox launcher", "oj-launch could not be built or run, so every run pays for sh → setpriv → prlimit", "apt install gcc libc6-dev (and keep SANDBOX_ROOT on a file system that allows executables)");
  }
  if (sel.name === "isolate" && description.includes("rlimit mode")) {
    warn(
      "isolate control groups",
      "isolate --cg --init fails: CPU time is per process and memory an address-space limit (Go, JavaScript and PyPy: the limit plus their runtime's measured reserve, and a peak resident size above the limit is MLE; threads of C++ and PyPy may fail to start)",
      "systemctl enable --now isolate.service (it delegates the cgroup v2 subtree); see docs/sandbox.md",
    );
  }
  const boxQuota = / (\d+ MiB \/ \d+-file tmpfs per box)/.exec(description);
  if (sel.name === "isolate") {
    if (boxQuota) ok("isolate box quota", `${boxQuota[1]}: /box, /tmp and /dev/shm of a box together, for all of a submission's tests; the host's disk is never written`);
    else fail("isolate box quota", "the isolate backend reports no per-box file system", "see docs/sandbox.md (isolate: box quota)");
  }
  if (sel.reason) console.log(`        note: ${sel.reason}`);
  const box = await sel.backend.acquire();
  try {
    for (const id of LANGUAGE_IDS) {
      const lang = getLanguage(id);
      if (!enabled.has(id) && missingPackages.has(id)) {
        warn(`self-test ${id}`, `skipped: ${lang.displayName} is not installed, so not offered`, `LANGUAGES=...,${id} bash scripts/install.sh`);
        continue;
      }
      const started = performance.now();
      const c = await compileSource(box, id, lang.selfTest.code);
      if (!c.ok) {
        const missing = missingPackages.get(id);
        fail(
          `self-test ${id}`,
          `compile ${c.result.status}: ${c.diagnostics.slice(0, 300)}`,
          missing
            ? `apt install ${missing.join(" ")} (its compiler or runtime is missing, see above)`
            : c.result.status === "XX"
              ? "the sandbox failed: see the message; run the contract suite: bun test isolate/contract.test.ts"
              : `check ${lang.displayName}'s installation`,
        );
        continue;
      }
      const r = await runProgram(box, id, { entry: c.entry, artifacts: c.artifacts, stdin: lang.selfTest.stdin, timeLimitMs: 5000, memoryLimitKib: 256 * 1024 });
      const ms = Math.round(performance.now() - started);
      if (r.status === "OK" && r.stdout === lang.selfTest.expectedStdout) ok(`self-test ${id}`, `${lang.displayName}: compiled and ran in ${ms} ms (run ${r.cpuTimeMs} ms CPU, ${r.memoryKib} KiB)`);
      else {
        const missing = missingPackages.get(id);
        fail(
          `self-test ${id}`,
          `${r.status}${r.message ? ` (${r.message})` : ""}, output ${JSON.stringify(r.stdout.slice(0, 80))}, stderr ${JSON.stringify(r.stderr.slice(0, 200))}`,
          missing ? `apt install ${missing.join(" ")} (its runtime is missing, see above)` : "see the message; run the contract suite: bun test isolate/contract.test.ts",
        );
      }
    }
  } finally {
    await sel.backend.release(box);
    await sel.backend.close();
  }
}

console.log(failed ? "\ndoctor: problems found (see FAIL above)" : "\ndoctor: this machine can judge submissions");
process.exit(failed ? 1 : 0);
