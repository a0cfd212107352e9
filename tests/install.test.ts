/**
 * scripts/install.sh's Bun step on a machine without Bun (what CI may be):
 * npm installs it, a second run installs nothing, a bun that does not run
 * stops the script with a clear message, and sourcing the script (as
 * start.sh and test.sh do) leaves the new bun on PATH.
 *
 * The script runs for real, in a scratch project, with a PATH that holds no
 * bun. npm, dpkg-query and apt-get are small stand-ins (the real ones would
 * reach the network and change the system): the fake npm "installs" Bun by
 * linking the real bun binary into its global prefix, as `npm install -g bun`
 * does, and logs every call.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bash = Bun.which("bash")!;
const realBun = process.execPath;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Tools install.sh and the stand-ins use, linked from the real system. */
const TOOLS = ["dirname", "grep", "head", "sort", "readlink", "id", "mkdir", "ln", "cat", "printf", "env", "mount", "umount", "rmdir"];

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

interface Sandbox {
  dir: string;
  project: string;
  prefix: string;
  npmLog: string;
  env: Record<string, string>;
}

/** A scratch project with scripts/install.sh, and a PATH of real tools plus the stand-ins (no bun). */
function sandbox(opts: { npm?: boolean; bunBinary?: string } = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "oj-install-"));
  dirs.push(dir);
  const project = join(dir, "project");
  mkdirSync(join(project, "scripts"), { recursive: true });
  copyFileSync(join(root, "scripts", "install.sh"), join(project, "scripts", "install.sh"));
  // The language registry, which names each language's packages (scripts/language-packages.ts reads it).
  copyFileSync(join(root, "scripts", "language-packages.ts"), join(project, "scripts", "language-packages.ts"));
  mkdirSync(join(project, "isolate", "languages"), { recursive: true });
  copyFileSync(join(root, "isolate", "types.ts"), join(project, "isolate", "types.ts"));
  for (const f of readdirSync(join(root, "isolate", "languages")).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    copyFileSync(join(root, "isolate", "languages", f), join(project, "isolate", "languages", f));
  }
  // No dependencies: `bun install --frozen-lockfile` succeeds offline.
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true }));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  for (const tool of TOOLS) {
    const real = Bun.which(tool);
    if (real) symlinkSync(real, join(bin, tool));
  }
  const prefix = join(dir, "npm-global");
  const npmLog = join(dir, "npm.log");
  script(join(bin, "dpkg-query"), `echo "$*" >> "${join(dir, "dpkg.log")}"; printf 'install ok installed'`);
  script(join(bin, "apt-get"), 'echo "apt-get must not run: every package is installed" >&2; exit 1');
  if (opts.npm !== false) {
    script(
      join(bin, "npm"),
      `echo "$*" >> "${npmLog}"
case "$1 $2" in
  "prefix -g") echo "${prefix}" ;;
  "root -g") echo "${prefix}/lib/node_modules" ;;
  "install -g") mkdir -p "${prefix}/bin" && ln -sf "${opts.bunBinary ?? realBun}" "${prefix}/bin/bun" && echo "added 1 package" ;;
  *) echo "fake npm: unexpected arguments: $*" >&2; exit 1 ;;
esac`,
    );
  }
  return { dir, project, prefix, npmLog, env: { PATH: bin, HOME: join(dir, "home") } };
}

async function run(sb: Sandbox, command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([bash, "-c", command], { cwd: sb.project, env: sb.env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const npmCalls = (sb: Sandbox) => (existsSync(sb.npmLog) ? readFileSync(sb.npmLog, "utf8").trim().split("\n") : []);

describe("scripts/install.sh without Bun", () => {
  test("the PATH used here really holds no bun", async () => {
    const sb = sandbox();
    const res = await run(sb, "command -v bun || echo none");
    expect(res.stdout.trim()).toBe("none");
  });

  test("installs Bun with npm, says so, checks that it runs; a second run installs nothing", async () => {
    const sb = sandbox();
    const first = await run(sb, `${bash} scripts/install.sh`);
    expect([first.code, first.stderr]).toEqual([0, ""]);
    expect(first.stdout).toContain("install: Debian packages present:");
    expect(first.stdout).toContain("install: Bun (npm install -g bun)");
    expect(first.stdout).toContain(`install: using ${sb.prefix}/bin/bun ${Bun.version}`);
    expect(first.stdout).toContain("install: dependencies (bun install --frozen-lockfile)");
    expect(npmCalls(sb).filter((c) => c.startsWith("install"))).toEqual(["install -g bun"]);

    const second = await run(sb, `${bash} scripts/install.sh`);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain("npm install -g bun");
    expect(second.stdout).toContain(`install: using ${sb.prefix}/bin/bun ${Bun.version}`);
    expect(npmCalls(sb).filter((c) => c.startsWith("install"))).toEqual(["install -g bun"]);
  });

  test("sourced, as start.sh and test.sh do, it leaves the installed bun on the caller's PATH", async () => {
    const sb = sandbox();
    const res = await run(sb, "set -euo pipefail; source scripts/install.sh >/dev/null; command -v bun; bun --version");
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split("\n")).toEqual([`${sb.prefix}/bin/bun`, Bun.version]);
  });

  test("a bun that does not run (npm skipped its postinstall) stops the script with a clear message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "oj-install-broken-"));
    dirs.push(dir);
    const broken = join(dir, "bun.exe");
    script(broken, 'echo "placeholder: the postinstall step did not run" >&2; exit 1');
    const sb = sandbox({ bunBinary: broken });
    const res = await run(sb, `${bash} scripts/install.sh`);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`install: ERROR: '${sb.prefix}/bin/bun --version' does not print a version`);
    expect(res.stdout).not.toContain("install: dependencies");
  });

  test("without Bun and without npm it stops and says what to install", async () => {
    const sb = sandbox({ npm: false });
    const res = await run(sb, `${bash} scripts/install.sh`);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("Bun is not installed and npm is missing");
  });
});

describe("scripts/install.sh roles", () => {
  const queried = (sb: Sandbox) => readFileSync(join(sb.dir, "dpkg.log"), "utf8");

  test("runtime (start.sh) asks for the sandbox and compilers only, and production dependencies", async () => {
    const sb = sandbox();
    const res = await run(sb, `INSTALL_ROLE=runtime ${bash} scripts/install.sh`);
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toContain("install: role: runtime");
    // The default languages (C++, C, Java, Python, PyPy), each its own packages.
    expect(res.stdout).toContain("install: languages: cpp,c,java,py,pypy\n");
    expect(res.stdout).toContain("install: Debian packages present: bubblewrap g++ gcc default-jdk-headless python3 pypy3\n");
    expect(res.stdout).toContain("install: dependencies (bun install --frozen-lockfile --production)");
    expect(queried(sb)).not.toContain("chromium");
  });

  test("test (test.sh, the default) adds Chromium, slapd, nginx, aiosmtpd and the development dependencies; an unknown role stops", async () => {
    const sb = sandbox();
    const res = await run(sb, `${bash} scripts/install.sh`);
    expect(res.stdout).toContain("install: role: test");
    expect(queried(sb)).toContain("chromium");
    expect(queried(sb)).toContain("slapd");
    expect(queried(sb)).toContain("nginx-light");
    expect(queried(sb)).toContain("python3-aiosmtpd");
    const bad = await run(sb, `${bash} scripts/install.sh --role web`);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("unknown role web");
  });

  test("judge (a judge host) installs what runtime does and writes the worker's systemd unit, restarting on failure", async () => {
    const sb = sandbox();
    const units = join(sb.dir, "units");
    mkdirSync(units);
    const res = await run(sb, `JUDGE_UNIT_DIR=${units} ${bash} scripts/install.sh --role judge`);
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toContain("install: role: judge");
    expect(res.stdout).toContain("install: dependencies (bun install --frozen-lockfile --production)");
    expect(queried(sb)).not.toContain("chromium");
    expect(res.stdout).toContain(`install: judge host service written: ${units}/oj-judge.service`);
    const unit = readFileSync(join(units, "oj-judge.service"), "utf8");
    expect(unit).toMatch(/^ExecStart=\S*bun src\/worker\.ts --server \$\{OJ_SERVER\} --token-file \/etc\/oj\/judge\.token$/m);
    expect(unit).toContain("Restart=on-failure");
    expect(unit).toContain("EnvironmentFile=/etc/oj-judge.env");
    expect(unit).not.toContain("DATABASE_URL");
  });

  test("isolate without ISOLATE_SOURCE installs the build tools and says to use the upstream packages; test asks for them too", async () => {
    const sb = sandbox();
    const res = await run(sb, `${bash} scripts/install.sh --role isolate`);
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toContain("install: role: isolate");
    expect(res.stdout).toContain("install: isolate: install the upstream packages");
    expect(res.stdout).toContain("ISOLATE_SOURCE=");
    // The box quota's tmpfs (review N3) is checked for real: it mounts as root, and is refused otherwise.
    expect(res.stdout).toContain(process.getuid?.() === 0 ? "mounting works here" : "a tmpfs cannot be mounted here");
    for (const pkg of ["libcap-dev", "libseccomp-dev", "make"]) expect(queried(sb)).toContain(pkg);
    expect(queried(sb)).not.toContain("chromium");
    const tests = sandbox();
    await run(tests, `${bash} scripts/install.sh`);
    expect(queried(tests)).toContain("libseccomp-dev");
  });

  test("LANGUAGES picks the packages: only those of the enabled languages, read from their records; an unknown id stops", async () => {
    const sb = sandbox();
    const res = await run(sb, `LANGUAGES=py,rust INSTALL_ROLE=runtime ${bash} scripts/install.sh`);
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toContain("install: Debian packages present: bubblewrap python3 rustc-web gcc\n");
    expect(queried(sb)).not.toContain("default-jdk-headless");
    const bad = await run(sb, `LANGUAGES=py,cobol INSTALL_ROLE=runtime ${bash} scripts/install.sh`);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("unknown language cobol");
    // The registry is the only place a language's packages are written: install.sh names none of them.
    // The tests' mail server (python3-aiosmtpd) is no language's package.
    const text = readFileSync(join(root, "scripts", "install.sh"), "utf8").replaceAll("python3-aiosmtpd", "");
    const { LANGUAGES } = await import("../isolate/languages/index.ts");
    for (const lang of Object.values(LANGUAGES)) {
      for (const r of lang.requires) if (r.debianPackage !== "gcc") expect(`${lang.id}: ${text.includes(r.debianPackage) ? r.debianPackage : "none"}`).toBe(`${lang.id}: none`);
    }
  });

  test("start.sh asks for the runtime role, test.sh for everything", () => {
    expect(readFileSync(join(root, "scripts", "start.sh"), "utf8")).toContain("INSTALL_ROLE=runtime source scripts/install.sh");
    expect(readFileSync(join(root, "scripts", "test.sh"), "utf8")).toContain("source scripts/install.sh");
    expect(readFileSync(join(root, "scripts", "test.sh"), "utf8")).toContain("bun scripts/build-isolate.ts --for-tests");
  });
});
