/**
 * Judge hosts under faults, with real network separation on one machine
 * (issue 11, item 6): a bridge and three network namespaces made with `ip`,
 * one judge host process in each (entered with nsenter, which keeps the
 * host's mounts and cgroups), the web server on the bridge with a 3 s lease.
 * 500 submissions from 50 users; one host's process group is killed with
 * SIGKILL while it holds jobs; another's link is cut for longer than the
 * lease and restored (its late calls get 409). Every submission must be
 * judged exactly once to its expected verdict, with one accepted finish each,
 * only the faulted hosts' jobs retried and none left claimed. The hosts judge
 * with a deterministic stand-in sandbox (tests/judge-hosts/standin.ts); then
 * a real worker in a namespace judges real C++, Java and Python through the
 * real sandbox. Needs root and `ip`; says why it skipped otherwise.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, count, eq, inArray, ne, sql } from "drizzle-orm";
import { judgeFinishes, submissions } from "../../db/schema.ts";
import { createUser } from "../../src/accounts/user.ts";
import { createApp } from "../../src/app.ts";
import { createSession } from "../../src/auth/session.ts";
import { addHost } from "../../src/judge-hosts/hosts.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { problemBody, request, signUp } from "../api.ts";
import { eventually, JUDGE_TEST_BOX_ID_START, preparePch, SHARED_DATA_DIR, silentLog } from "../judge/fixtures.ts";
import { unmountUnder } from "../mounts.ts";
import { createTestServices, type TestServices } from "../services.ts";

const ROOT = join(import.meta.dir, "..", "..");
const BRIDGE = "ojbr77";
const SUBNET = "10.213.77";
const HOSTS = ["h1", "h2", "h3"] as const;
const LEASE_SECONDS = 3;

function sh(cmd: string[], allowFail = false): boolean {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0 && !allowFail) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString()}`);
  return r.exitCode === 0;
}

function teardownNetwork(): void {
  HOSTS.forEach((h, i) => {
    sh(["ip", "netns", "del", `oj${h}`], true);
    sh(["ip", "link", "del", `ojv${i + 1}a`], true);
  });
  sh(["ip", "link", "del", BRIDGE], true);
}

/** Why this machine cannot run the test, or null. */
function cannotRun(): string | null {
  if (process.getuid?.() !== 0) return "needs root (network namespaces)";
  if (!Bun.which("ip") || !Bun.which("nsenter")) return "needs ip (iproute2) and nsenter (util-linux)";
  teardownNetwork();
  if (!sh(["ip", "netns", "add", "ojprobe"], true)) return "this kernel or container refuses new network namespaces";
  sh(["ip", "netns", "del", "ojprobe"], true);
  return null;
}

function setupNetwork(): void {
  sh(["ip", "link", "add", BRIDGE, "type", "bridge"]);
  sh(["ip", "addr", "add", `${SUBNET}.1/24`, "dev", BRIDGE]);
  sh(["ip", "link", "set", BRIDGE, "up"]);
  HOSTS.forEach((h, i) => {
    const ns = `oj${h}`;
    sh(["ip", "netns", "add", ns]);
    sh(["ip", "link", "add", `ojv${i + 1}a`, "type", "veth", "peer", "name", `ojv${i + 1}b`]);
    sh(["ip", "link", "set", `ojv${i + 1}b`, "netns", ns]);
    sh(["ip", "link", "set", `ojv${i + 1}a`, "master", BRIDGE]);
    sh(["ip", "link", "set", `ojv${i + 1}a`, "up"]);
    sh(["ip", "-n", ns, "addr", "add", `${SUBNET}.1${i + 1}/24`, "dev", `ojv${i + 1}b`]);
    sh(["ip", "-n", ns, "link", "set", `ojv${i + 1}b`, "up"]);
    sh(["ip", "-n", ns, "link", "set", "lo", "up"]);
  });
}

const skipReason = cannotRun();
if (skipReason) console.warn(`judge hosts fault test SKIPPED: ${skipReason}`);

const work = mkdtempSync(join(tmpdir(), "oj-netns-"));
chmodSync(work, 0o755);
let t: TestServices;
let server: ReturnType<typeof Bun.serve>;
let base: string;
const procs = new Map<string, ChildProcess>();
const output = new Map<string, string[]>();
/** Judge API answers 409 (the claim lost its lease): the paths asked. */
const conflicts: string[] = [];

/** Starts a process in the host's network namespace, as the leader of its own process group. */
function startIn(host: string, argv: string[], env: Record<string, string> = {}): ChildProcess {
  const p = spawn("nsenter", [`--net=/run/netns/oj${host}`, ...argv], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", NODE_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  output.set(host, lines);
  p.stdout!.on("data", (d) => lines.push(String(d)));
  p.stderr!.on("data", (d) => lines.push(String(d)));
  procs.set(host, p);
  return p;
}

async function tokenFile(host: string): Promise<string> {
  const { token } = await addHost(t.services.db, host);
  const file = join(work, `${host}.token`);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return file;
}

beforeAll(async () => {
  if (skipReason) return;
  setupNetwork();
  t = await createTestServices({ env: { JUDGE_IN_PROCESS: "false", JUDGE_LEASE_SECONDS: String(LEASE_SECONDS), SUBMIT_RATE_PER_MINUTE: "1000" } });
  t.services.judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox: t.services.sandbox, cacheDir: join(t.dir, "cache") });
  const app = createApp(t.services);
  server = Bun.serve({
    port: 0,
    hostname: `${SUBNET}.1`,
    idleTimeout: 60,
    async fetch(req, s) {
      const res = await app.fetch(req, s);
      if (res.status === 409) conflicts.push(new URL(req.url).pathname);
      return res;
    },
  });
  base = `http://${SUBNET}.1:${server.port}`;
}, 60_000);

afterAll(async () => {
  for (const p of procs.values()) {
    if (p.exitCode === null && p.pid) {
      try {
        process.kill(-p.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
  }
  server?.stop(true);
  t?.cleanup();
  if (!skipReason) teardownNetwork();
  unmountUnder(work);
  rmSync(work, { recursive: true, force: true });
});

const heldBy = async (host: string) =>
  (
    await t.services.db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.leaseOwner, `judge-host/${host}`), ne(submissions.status, "done")))
  ).map((r) => r.id);

const doneCount = async () => (await t.services.db.select({ n: count() }).from(submissions).where(eq(submissions.status, "done")))[0]!.n;

describe.skipIf(skipReason !== null)("judge hosts in network namespaces", () => {
  test("500 submissions from 50 users survive a host killed with SIGKILL and a host cut off past its lease: each judged once, to its verdict", async () => {
    const app = createApp(t.services);
    const owner = await signUp(app);
    const problem = await request(app, "POST", "/api/problems", {
      token: owner.token,
      body: problemBody({
        title: "Echo",
        description: "Print the input.",
        sampleInput: "1 2\n",
        sampleOutput: "1 2\n",
        hiddenTestCases: [
          { input: "3 4\n", expectedOutput: "3 4\n" },
          { input: "5 6\n", expectedOutput: "5 6\n" },
        ],
      }),
    });
    expect(problem.status).toBe(201);
    const expected = new Map<string, string>();
    const users = [];
    // Fifty accounts made directly (the API's sign-up is rate-limited per address), each with a session.
    for (let u = 0; u < 50; u++) {
      const user = await createUser(t.services.db, { firstName: `U${u}`, lastName: "Test", email: `u${u}@netns.example`, passwordHash: null });
      users.push({ token: (await createSession(t.services, user.id)).token });
    }
    await Promise.all(
      users.map(async (user, u) => {
        for (let k = 0; k < 10; k++) {
          const right = (u + k) % 3 !== 0;
          const code = `# standin: ${right ? "echo" : "wrong"}\n# standin-ms: 60\n# ${u}-${k}\nprint(input())\n`;
          const r = await request(app, "POST", "/api/submissions?wait=false", { token: user.token, body: { problemId: problem.body._id, code, language: "py" } });
          expect(r.status).toBe(202);
          expected.set(r.body.id, right ? "AC" : "WA");
        }
      }),
    );
    expect(expected.size).toBe(500);

    for (const h of HOSTS) startIn(h, ["bun", "tests/judge-hosts/standin-host.ts", "--server", base, "--token-file", await tokenFile(h), "--capacity", "2"]);

    // Fault 1: kill -9 host 1's process group while it holds jobs.
    await eventually(async () => (await doneCount()) >= 40 && (await heldBy("h1")).length > 0, 60_000, 20);
    process.kill(-procs.get("h1")!.pid!, "SIGKILL");
    await eventually(async () => procs.get("h1")!.exitCode !== null || procs.get("h1")!.signalCode !== null, 5000, 20);
    const h1Held = await heldBy("h1");
    expect(h1Held.length).toBeGreaterThan(0);

    // Fault 2: cut host 2's link for twice the lease, then restore it.
    await eventually(async () => (await heldBy("h2")).length > 0, 30_000, 20);
    sh(["ip", "link", "set", "ojv2a", "down"]);
    await Bun.sleep(500);
    const h2Held = await heldBy("h2");
    await Bun.sleep(LEASE_SECONDS * 2000);
    sh(["ip", "link", "set", "ojv2a", "up"]);

    await eventually(async () => (await doneCount()) === 500, 120_000, 200).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${await doneCount()} done; host output:\n${[...output].map(([h, l]) => `${h}: ${l.join("").slice(-2000)}`).join("\n")}`);
    });

    // Every submission: its expected verdict.
    const rows = await t.services.db.select({ id: submissions.id, verdict: submissions.verdict, attempts: submissions.attempts, leaseOwner: submissions.leaseOwner }).from(submissions);
    expect(rows).toHaveLength(500);
    expect(rows.filter((r) => r.verdict !== expected.get(r.id)).map((r) => [r.id, r.verdict, expected.get(r.id)])).toEqual([]);
    // None left claimed.
    expect(rows.filter((r) => r.leaseOwner !== null)).toEqual([]);
    // One accepted finish per submission.
    const finishes = await t.services.db.select().from(judgeFinishes);
    expect(finishes).toHaveLength(500);
    expect(new Set(finishes.map((f) => f.submissionId)).size).toBe(500);
    // Only the faulted hosts' jobs were tried again; the killed host's jobs were finished by others.
    const faulted = new Set([...h1Held, ...h2Held]);
    const retried = rows.filter((r) => r.attempts > 1).map((r) => r.id);
    expect(retried.filter((id) => !faulted.has(id))).toEqual([]);
    for (const id of h1Held) expect(rows.find((r) => r.id === id)!.attempts).toBeGreaterThan(1);
    const h1Finishes = await t.services.db.select().from(judgeFinishes).where(inArray(judgeFinishes.submissionId, h1Held));
    expect(h1Finishes.every((f) => f.host !== "h1")).toBe(true);
    console.info(`netns: killed h1 holding ${h1Held.length}, cut h2 holding ${h2Held.length}; ${retried.length} retried; ${conflicts.length} answers 409`);
    // Host 2's late calls about the jobs it lost were refused.
    expect(h2Held.length).toBeGreaterThan(0);
    expect(conflicts.some((p) => h2Held.some((id) => p.includes(id)))).toBe(true);
    // Each host judged something.
    const byHost = await t.services.db.select({ host: judgeFinishes.host, n: count() }).from(judgeFinishes).groupBy(judgeFinishes.host);
    expect(byHost.map((b) => b.host).sort()).toEqual(["h1", "h2", "h3"]);
    expect(await t.services.db.select({ n: count() }).from(submissions).where(sql`${submissions.status} != 'done'`)).toEqual([{ n: 0 }]);
  }, 240_000);

  test("smoke: a real worker in a namespace judges C++, Java and Python through the real sandbox", async () => {
    for (const h of ["h2", "h3"] as const) {
      const p = procs.get(h);
      if (p && p.exitCode === null && p.signalCode === null) {
        p.kill("SIGTERM");
        await new Promise((r) => p.once("exit", r));
      }
    }
    await preparePch();
    const app = createApp(t.services);
    const me = await signUp(app);
    const problem = await request(app, "POST", "/api/problems", {
      token: me.token,
      body: problemBody({ title: "Add", sampleInput: "1 2\n", sampleOutput: "3\n", hiddenTestCases: [{ input: "20 22\n", expectedOutput: "42\n" }] }),
    });
    const codes: [string, string][] = [
      ["cpp", "#include <iostream>\nint main(){ long long a, b; std::cin >> a >> b; std::cout << a + b << std::endl; }\n"],
      ["java", "import java.util.*;\npublic class Main { public static void main(String[] x) { Scanner s = new Scanner(System.in); System.out.println(s.nextLong() + s.nextLong()); } }\n"],
      ["py", "a, b = map(int, input().split())\nprint(a + b)\n"],
    ];
    const ids: string[] = [];
    for (const [language, code] of codes) ids.push((await request(app, "POST", "/api/submissions?wait=false", { token: me.token, body: { problemId: problem.body._id, code, language } })).body.id);
    const { token } = await addHost(t.services.db, "real-1");
    const file = join(work, "real-1.token");
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    startIn("h3", ["bun", "src/worker.ts", "--server", base, "--token-file", file, "--allow-http"], {
      LOG_LEVEL: "warn",
      DATA_DIR: SHARED_DATA_DIR,
      SANDBOX: "bwrap",
      SANDBOX_ROOT: join(work, "boxes-real"),
      ISOLATE_BOX_ID_START: String(JUDGE_TEST_BOX_ID_START + 96),
      ISOLATE_BOX_ID_COUNT: "2",
      SANDBOX_POOL_SIZE: "2",
    });
    const verdicts = async () => (await t.services.db.select({ id: submissions.id, status: submissions.status, verdict: submissions.verdict }).from(submissions).where(inArray(submissions.id, ids)));
    await eventually(async () => (await verdicts()).every((s) => s.status === "done"), 90_000, 200).catch((err: Error) => {
      throw new Error(`${err.message}; worker printed:\n${output.get("h3")?.join("")}`);
    });
    expect((await verdicts()).map((v) => v.verdict)).toEqual(["AC", "AC", "AC"]);
    const finishes = await t.services.db.select().from(judgeFinishes).where(inArray(judgeFinishes.submissionId, ids));
    expect(finishes.map((f) => f.host)).toEqual(["real-1", "real-1", "real-1"]);
  }, 120_000);
});
