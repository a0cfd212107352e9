/**
 * A real judge host: `bun src/worker.ts --server URL --token-file FILE` in its
 * own process, with its own sandbox and no database, judges submissions made
 * to a web server that does not judge in process; refused set-ups say why.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { judgeFinishes } from "../../db/schema.ts";
import { createApp } from "../../src/app.ts";
import { addHost, revokeHost } from "../../src/judge-hosts/hosts.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { problemBody, request, signUp } from "../api.ts";
import { eventually, JUDGE_TEST_BOX_ID_START, preparePch, SHARED_DATA_DIR, silentLog } from "../judge/fixtures.ts";
import { unmountUnder } from "../mounts.ts";
import { createTestServices, type TestServices } from "../services.ts";

setDefaultTimeout(90_000);
const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "oj-host-"));
chmodSync(work, 0o755);
let t: TestServices;
let server: ReturnType<typeof Bun.serve>;
let app: ReturnType<typeof createApp>;
const procs: Subprocess[] = [];
/** Everything each host printed, read as it comes (an unread pipe would block a chatty host). */
const output = new Map<Subprocess, { text: string[]; done: Promise<unknown> }>();

function drain(p: Subprocess<"ignore", "pipe", "pipe">): void {
  const text: string[] = [];
  const done = Promise.all(
    [p.stdout, p.stderr].map(async (stream) => {
      const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) text.push(r.value);
    }),
  );
  output.set(p, { text, done });
}

/** What `p` printed so far, or all of it once it has exited. */
async function printed(p: Subprocess): Promise<string> {
  const o = output.get(p);
  if (!o) return "";
  if (p.exitCode !== null) await o.done;
  return o.text.join("");
}

beforeAll(async () => {
  await preparePch();
  t = await createTestServices({ env: { JUDGE_IN_PROCESS: "false", JUDGE_LEASE_SECONDS: "5" } });
  t.services.judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox: t.services.sandbox, cacheDir: join(t.dir, "cache") });
  app = createApp(t.services);
  // The claim long-polls for 20 s: idle connections must outlive it, as in src/server.ts.
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, idleTimeout: 60 });
}, 60_000);
afterAll(async () => {
  for (const p of procs) {
    if (p.exitCode === null) p.kill("SIGKILL");
    await p.exited;
  }
  server?.stop(true);
  t?.cleanup();
  unmountUnder(work);
  rmSync(work, { recursive: true, force: true });
});

function startHost(name: string, tokenFile: string, extraEnv: Record<string, string> = {}, args: string[] = []) {
  const p = Bun.spawn(["bun", "src/worker.ts", "--server", `http://127.0.0.1:${server.port}`, "--token-file", tokenFile, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/root",
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      DATA_DIR: SHARED_DATA_DIR,
      SANDBOX: "bwrap",
      SANDBOX_ROOT: join(work, `boxes-${name}`),
      ISOLATE_BOX_ID_START: String(JUDGE_TEST_BOX_ID_START + 92),
      ISOLATE_BOX_ID_COUNT: "2",
      SANDBOX_POOL_SIZE: "2",
      ...extraEnv,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  procs.push(p);
  drain(p);
  return p;
}

describe("a judge host process", () => {
  test("judges every submission through the API (C++ and Python, AC and WA) with no database of its own; SIGTERM ends it cleanly", async () => {
    const { token } = await addHost(t.services.db, "host-1");
    const tokenFile = join(work, "host-1.token");
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    const me = await signUp(app);
    const p = await request(app, "POST", "/api/problems", {
      token: me.token,
      body: problemBody({ title: "Add", sampleInput: "1 2\n", sampleOutput: "3\n", hiddenTestCases: [{ input: "5 5\n", expectedOutput: "10\n" }] }),
    });
    const codes: [string, string, string][] = [
      ["cpp", "#include <iostream>\nint main(){ long long a, b; std::cin >> a >> b; std::cout << a + b << std::endl; }\n", "AC"],
      ["py", "a, b = map(int, input().split())\nprint(a + b)\n", "AC"],
      ["py", "print(3)\n", "WA"],
    ];
    const ids: string[] = [];
    for (const [language, code] of codes) {
      const r = await request(app, "POST", "/api/submissions?wait=false", { token: me.token, body: { problemId: p.body._id, code, language } });
      ids.push(r.body.id);
    }
    const host = startHost("one", tokenFile);
    const history = async () => (await request(app, "GET", `/api/submissions/${p.body._id}`, { token: me.token })).body as { _id: string; status: string; verdict: string }[];
    await eventually(async () => (await history()).every((s) => s.status === "done"), 60_000, 200).catch(async (err: Error) => {
      const statuses = (await history()).map((s) => s.status).join(",");
      throw new Error(`${err.message}; host exit ${host.exitCode}; statuses ${statuses}; host printed:\n${await printed(host)}`);
    });
    const byId = new Map((await history()).map((s) => [s._id, s.verdict]));
    expect(ids.map((id) => byId.get(id))).toEqual(codes.map((c) => c[2]));
    const finishes = await t.services.db.select().from(judgeFinishes);
    expect(finishes.filter((f) => ids.includes(f.submissionId)).map((f) => f.host)).toEqual(["host-1", "host-1", "host-1"]);
    host.kill("SIGTERM");
    expect(await host.exited).toBe(0);
    // Revoked: its next call is refused, and it says so.
    await revokeHost(t.services.db, "host-1");
    const again = startHost("one", tokenFile);
    expect(await again.exited).toBe(1);
    expect(await printed(again)).toContain("refused this host's token");
  });

  test("refuses a database URL, a missing token file, and plain HTTP to another machine", async () => {
    const tokenFile = join(work, "any.token");
    writeFileSync(tokenFile, "ojhost_x\n");
    const run = async (extraEnv: Record<string, string>, args: string[], serverUrl?: string) => {
      const p = Bun.spawn(["bun", "src/worker.ts", "--server", serverUrl ?? `http://127.0.0.1:${server.port}`, ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", NODE_ENV: "test", SANDBOX_ROOT: join(work, "boxes-refused"), ...extraEnv },
        stdout: "pipe",
        stderr: "pipe",
      });
      procs.push(p);
      const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
      return { code, err };
    };
    const withDb = await run({ DATABASE_URL: "file:/tmp/x.db" }, ["--token-file", tokenFile]);
    expect(withDb).toMatchObject({ code: 1, err: expect.stringContaining("a judge host holds no database credentials") });
    const noToken = await run({}, []);
    expect(noToken.err).toContain("needs --token-file FILE");
    const plain = await run({}, ["--token-file", tokenFile], "http://judge.example.edu");
    expect(plain.err).toContain("plain HTTP to another machine is refused");
  });
});
