/**
 * Builds ioi/isolate from its source (a release tarball or a checkout) with a
 * configuration compiled in, so it never shares a box root, a lock root or
 * sandbox uids with anything else on the machine (isolate reads its
 * configuration from the path given to `make isolate CONFIG=...`, in 1.10 and
 * 2.x alike; vendored sources: ../shared/vendor/README.md).
 *
 *   bun scripts/build-isolate.ts --source FILE|DIR --prefix DIR [--first-uid N] [--num-boxes N]
 *     one build: PREFIX/bin/isolate, PREFIX/isolate.cf, boxes in PREFIX/boxes
 *   bun scripts/build-isolate.ts --for-tests
 *     the builds the tests use (TEST_ISOLATE_ROOT, default /var/lib/oj-test-isolate),
 *     from the vendored sources: the version that can use this host's control
 *     groups (1.10.1 on cgroup v1, 2.6 on cgroup v2), plus 2.6 in rlimit mode on
 *     a cgroup v1 host. Writes TEST_ISOLATE_ROOT/builds.json for
 *     isolate/test-isolates.ts; without the sources (a user's clone) or without
 *     root, writes why instead, and the isolate suites skip saying so.
 *
 * The box root needs nothing more: the backend mounts a size-limited tmpfs over
 * each box it uses (isolate/backends/isolate-boxfs.ts), test builds included.
 *
 * Needs gcc, make, libcap-dev and, for 2.x, libseccomp-dev (scripts/install.sh
 * installs them for the test and isolate roles). Idempotent: a build whose
 * source and configuration are unchanged is kept.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync, chmodSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { hostCgroupVersion } from "../isolate/cgroup.ts";
import { TEST_ISOLATE_ROOT, type TestIsolateBuild } from "../isolate/test-backends.ts";

/** One build, as isolate/test-backends.ts reads it from builds.json. */
export interface IsolateBuild extends TestIsolateBuild {
  numBoxes: number;
}

/**
 * Sandbox uids of the test builds: below the bubblewrap backend's 60000 + box
 * id (isolate/backends/bwrap-host.ts BOX_UID_BASE), and apart from each other.
 */
const TEST_UIDS = { "1": 50000, "2": 44000 } as const;
const TEST_NUM_BOXES = 4000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function run(argv: string[], cwd?: string): void {
  const r = Bun.spawnSync(argv, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) {
    throw new Error(`${argv.join(" ")} failed (exit ${r.exitCode}): ${(r.stderr.toString() || r.stdout.toString()).trim().slice(-800)}`);
  }
}

/** Names of /etc/passwd or /etc/group entries whose id falls in [first, first + count). */
function idsTaken(first: number, count: number): string[] {
  const taken: string[] = [];
  for (const file of ["/etc/passwd", "/etc/group"]) {
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    for (const line of text.split("\n")) {
      const [name, , id] = line.split(":");
      if (name && id && /^\d+$/.test(id) && Number(id) >= first && Number(id) < first + count) taken.push(`${name} (${id}) in ${file}`);
    }
  }
  return taken;
}

/**
 * Builds one isolate into `prefix`.
 * @throws Error naming what failed (unpacking, a taken uid range, make's last lines).
 */
export function buildIsolate(opts: { source: string; prefix: string; firstUid: number; numBoxes: number; mode?: "cg" | "rlimit" }): IsolateBuild {
  const prefix = resolve(opts.prefix);
  const source = resolve(opts.source);
  if (!existsSync(source)) throw new Error(`isolate source ${source} does not exist`);
  const taken = idsTaken(opts.firstUid, opts.numBoxes);
  if (taken.length) throw new Error(`sandbox uids ${opts.firstUid}..${opts.firstUid + opts.numBoxes - 1} are taken: ${taken.slice(0, 3).join(", ")}`);
  mkdirSync(prefix, { recursive: true, mode: 0o755 });
  const srcDir = join(prefix, "src");
  let sourceId: string;
  if (statSync(source).isDirectory()) {
    sourceId = `dir:${source}:${statSync(join(source, "isolate.c")).mtimeMs}`;
  } else {
    sourceId = createHash("sha256").update(readFileSync(source)).digest("hex");
  }
  const version = (dir: string) => /^VERSION\s*=\s*(\S+)/m.exec(readFileSync(join(dir, "Makefile"), "utf8"))?.[1] ?? "unknown";
  const configFile = join(prefix, "isolate.cf");
  const bin = join(prefix, "bin", "isolate");
  const stamp = join(prefix, "build.json");

  // Unpack (or copy) the source into PREFIX/src.
  rmSync(srcDir, { recursive: true, force: true });
  mkdirSync(srcDir, { recursive: true });
  if (statSync(source).isDirectory()) run(["cp", "-a", `${source}/.`, srcDir]);
  else run(["tar", "-xzf", source, "-C", srcDir, "--strip-components=1"]);
  const ver = version(srcDir);
  const major = Number(ver.split(".")[0]);
  const config = [
    "# Written by scripts/build-isolate.ts: this build's own box root, lock root and uids.",
    `box_root = ${join(prefix, "boxes")}`,
    ...(major >= 2 ? [`lock_root = ${join(prefix, "locks")}`] : []),
    // 1.x on cgroup v1: the root of the controller hierarchies. 2.x on cgroup v2: a subtree of its own.
    `cg_root = ${major >= 2 ? "/sys/fs/cgroup/oj-isolate" : "/sys/fs/cgroup"}`,
    `first_uid = ${opts.firstUid}`,
    `first_gid = ${opts.firstUid}`,
    `num_boxes = ${opts.numBoxes}`,
    "",
  ].join("\n");
  const wanted = JSON.stringify({ sourceId, config });
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) {
    rmSync(srcDir, { recursive: true, force: true });
    return { version: ver, bin, mode: opts.mode ?? "cg", firstUid: opts.firstUid, numBoxes: opts.numBoxes };
  }
  writeFileSync(configFile, config, { mode: 0o644 });
  // Only the `isolate` target: the man pages need asciidoc, 2.x's cg keeper libsystemd.
  run(["make", "-s", "isolate", `CONFIG=${configFile}`], srcDir);
  mkdirSync(dirname(bin), { recursive: true, mode: 0o755 });
  copyFileSync(join(srcDir, "isolate"), bin);
  chmodSync(bin, 0o755);
  for (const d of ["boxes", ...(major >= 2 ? ["locks"] : [])]) mkdirSync(join(prefix, d), { recursive: true, mode: 0o755 });
  writeFileSync(stamp, wanted);
  rmSync(srcDir, { recursive: true, force: true });
  return { version: ver, bin, mode: opts.mode ?? "cg", firstUid: opts.firstUid, numBoxes: opts.numBoxes };
}

/**
 * Where the vendored isolate sources are: VENDOR_DIR, or `shared/vendor` next to
 * the repository or one of its ancestors (../shared/vendor in the workspace),
 * or the workspace's /work/shared/vendor.
 * @returns the folder, or null.
 */
export function findVendorDir(repo = resolve(import.meta.dir, "..")): string | null {
  const candidates = process.env.VENDOR_DIR ? [process.env.VENDOR_DIR] : [];
  for (let dir = dirname(repo); ; dir = dirname(dir)) {
    candidates.push(join(dir, "shared", "vendor"));
    if (dir === "/") break;
  }
  // The workspace's shared folder, for a clone made elsewhere (e.g. a CI checkout in /tmp).
  candidates.push("/work/shared/vendor");
  return candidates.find((d) => existsSync(d) && readdirSync(d).some((f) => /^isolate-.*\.tar\.gz$/.test(f))) ?? null;
}

function forTests(): void {
  const manifest = join(TEST_ISOLATE_ROOT, "builds.json");
  const write = (body: { builds: IsolateBuild[]; skipped: string | null }) => {
    mkdirSync(TEST_ISOLATE_ROOT, { recursive: true, mode: 0o755 });
    writeFileSync(manifest, `${JSON.stringify(body, null, 2)}\n`);
  };
  const vendor = findVendorDir();
  if (process.getuid?.() !== 0) {
    console.log("build-isolate: not root: isolate needs root; the isolate suites skip");
    if (existsSync(TEST_ISOLATE_ROOT)) write({ builds: [], skipped: "the tests do not run as root (isolate needs root)" });
    return;
  }
  if (!vendor) {
    console.log("build-isolate: no vendored isolate sources (../shared/vendor/isolate-*.tar.gz): the isolate suites skip");
    write({ builds: [], skipped: "the vendored isolate sources (../shared/vendor/isolate-*.tar.gz) are not here" });
    return;
  }
  const cgroups = hostCgroupVersion();
  const tarball = (v: string) => join(vendor, `isolate-${v}.tar.gz`);
  const plan: { version: string; mode: "cg" | "rlimit" }[] =
    cgroups === 2 ? [{ version: "2.6", mode: "cg" }] : cgroups === 1 ? [{ version: "1.10.1", mode: "cg" }, { version: "2.6", mode: "rlimit" }] : [{ version: "2.6", mode: "rlimit" }];
  const builds: IsolateBuild[] = [];
  for (const p of plan) {
    if (!existsSync(tarball(p.version))) {
      console.log(`build-isolate: ${tarball(p.version)} is missing; skipping isolate ${p.version}`);
      continue;
    }
    const major = p.version.split(".")[0] as "1" | "2";
    const t0 = performance.now();
    const b = buildIsolate({ source: tarball(p.version), prefix: join(TEST_ISOLATE_ROOT, `${p.version}-${p.mode}`), firstUid: TEST_UIDS[major], numBoxes: TEST_NUM_BOXES, mode: p.mode });
    console.log(`build-isolate: isolate ${b.version} (${p.mode === "cg" ? `cgroup v${cgroups}` : "rlimit mode"}) at ${b.bin} (${Math.round(performance.now() - t0)} ms)`);
    builds.push(b);
  }
  write({ builds, skipped: builds.length ? null : "no vendored isolate version could be built here" });
}

if (import.meta.main) {
  try {
    if (process.argv.includes("--for-tests")) {
      forTests();
    } else {
      const source = arg("--source") ?? process.env.ISOLATE_SOURCE;
      const prefix = arg("--prefix");
      if (!source || !prefix) {
        console.error("usage: bun scripts/build-isolate.ts --source FILE|DIR --prefix DIR [--first-uid N] [--num-boxes N]  |  --for-tests");
        process.exit(2);
      }
      const b = buildIsolate({ source, prefix, firstUid: Number(arg("--first-uid") ?? 50000), numBoxes: Number(arg("--num-boxes") ?? 1000) });
      console.log(`build-isolate: isolate ${b.version} at ${b.bin} (configuration ${join(resolve(prefix), "isolate.cf")}); set ISOLATE_BIN=${b.bin}`);
    }
  } catch (err) {
    console.error(`build-isolate: ERROR: ${(err as Error).message}`);
    process.exit(1);
  }
}
