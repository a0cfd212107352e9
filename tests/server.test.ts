/**
 * The real process: `bun src/server.ts` started as a subprocess on a test
 * port (3100-3199 are this suite's), with its own data directory.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A sandbox of its own beside `dir` (never the default /tmp/oj-boxes and box ids 0-99 of a server running here). */
function ownSandbox(dir: string) {
  dirs.push(`${dir}-boxes`);
  return { SANDBOX_ROOT: `${dir}-boxes`, ISOLATE_BOX_ID_START: "3130", ISOLATE_BOX_ID_COUNT: "4" };
}

function spawnServer(env: Record<string, string>) {
  return Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function waitForHealth(port: number, proc: ReturnType<typeof spawnServer>): Promise<Response> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
    try {
      return await fetch(`http://127.0.0.1:${port}/api/health`);
    } catch {
      await Bun.sleep(200);
    }
  }
  throw new Error("server did not answer within 30 s");
}

test("a bad config value stops the process with a message naming the variable", async () => {
  const proc = spawnServer({ PORT: "not-a-port", SESSION_SECRET: "short" });
  expect(await proc.exited).toBe(1);
  const stderr = await new Response(proc.stderr).text();
  expect(stderr).toContain("PORT");
  expect(stderr).toContain("SESSION_SECRET: must be at least 32 characters");
});

test("a bad AI provider setting found during start-up also stops the process with one clean message", async () => {
  const dir = mkdtempSync(join(tmpdir(), "oj-server-"));
  dirs.push(dir);
  const env = {
    PORT: "3151",
    HOST: "127.0.0.1",
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, "app.db")}`,
    CLIENT_DIST: join(dir, "no-client"),
    SANDBOX: "isolate",
    JUDGE_IN_PROCESS: "false",
    LOG_LEVEL: "warn",
    ...ownSandbox(dir),
  };
  // Both entry points: `bun src/server.ts` and `bun run start` (scripts/start.ts).
  const runs = [
    { cmd: ["bun", "src/server.ts"], env: { ...env, AI_PROVIDER: "gemini" }, variable: "GEMINI_API_KEY: required when AI_PROVIDER=gemini" },
    { cmd: ["bun", "scripts/start.ts"], env: { ...env, AI_PROVIDER: "openai" }, variable: "AI_BASE_URL: required when AI_PROVIDER=openai" },
  ];
  for (const run of runs) {
    const proc = Bun.spawn(run.cmd, {
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...run.env },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(1);
    const stderr = await new Response(proc.stderr).text();
    expect(stderr).toContain(`Invalid configuration:\n  ${run.variable}`);
    // One clean message: no stack trace, no "error:" dump of the thrown object.
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain("ConfigError");
  }
});

test("a port already in use stops the process with one clean line, before the sandbox is touched", async () => {
  const dir = mkdtempSync(join(tmpdir(), "oj-server-"));
  dirs.push(dir);
  const holder = Bun.listen({ hostname: "127.0.0.1", port: 3152, socket: { data() {} } });
  try {
    const proc = spawnServer({
      PORT: "3152",
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      DATABASE_URL: `file:${join(dir, "app.db")}`,
      ...ownSandbox(dir),
      CLIENT_DIST: join(dir, "no-client"),
      LOG_LEVEL: "warn",
    });
    expect(await proc.exited).toBe(1);
    const stderr = await new Response(proc.stderr).text();
    expect(stderr).toContain("Invalid configuration:\n  PORT: 3152 is already in use on 127.0.0.1");
    expect(stderr).not.toMatch(/^\s+at /m);
    // Nothing was set up: no database, no sandbox root.
    expect(() => statSync(join(dir, "app.db"))).toThrow();
    expect(() => statSync(join(dir, "boxes"))).toThrow();
  } finally {
    holder.stop(true);
  }
});

test("startServer rejects with the ConfigError itself (for callers other than the entry points)", async () => {
  const { startServer } = await import("../src/server.ts");
  const { ConfigError, loadConfig } = await import("../src/config.ts");
  const dir = mkdtempSync(join(tmpdir(), "oj-server-"));
  dirs.push(dir);
  const config = loadConfig({
    PORT: "3152",
    HOST: "127.0.0.1",
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, "app.db")}`,
    CLIENT_DIST: join(dir, "no-client"),
    SANDBOX: "isolate",
    JUDGE_IN_PROCESS: "false",
    AI_PROVIDER: "gemini",
    LOG_LEVEL: "silent",
    ...ownSandbox(dir),
  });
  const err = await startServer(config).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as Error).message).toContain("GEMINI_API_KEY");
  // Nothing was left listening on the port.
  expect(await fetch("http://127.0.0.1:3152/api/health").then(() => "answered", () => "refused")).toBe("refused");
});

test("starts, seeds, serves the API; a restart keeps sessions and does not seed twice", async () => {
  const dir = mkdtempSync(join(tmpdir(), "oj-server-"));
  dirs.push(dir);
  const port = 3150;
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, "app.db")}`,
    CLIENT_DIST: join(dir, "no-client"),
    // isolate is absent here: the sandbox resolves to "none" quickly, without building anything.
    SANDBOX: "isolate",
    JUDGE_IN_PROCESS: "false",
    AI_PROVIDER: "offline",
    LOG_LEVEL: "warn",
    ...ownSandbox(dir),
  };
  const base = `http://127.0.0.1:${port}`;
  const json = { "content-type": "application/json" };

  let proc = spawnServer(env);
  let token: string;
  let firstCount: number;
  try {
    const health = await waitForHealth(port, proc);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", db: "ok", sandbox: "none" });
    // The generated secret is private to the owner.
    expect(statSync(join(dir, "session-secret")).mode & 0o777).toBe(0o600);

    const reg = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ firstName: "E", lastName: "2E", email: "e2e@example.com", password: "password-123" }),
    });
    expect(reg.status).toBe(200);
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "e2e@example.com", password: "password-123" }),
    });
    token = (await login.json()).token;
    const list = await fetch(`${base}/api/problems`, { headers: { authorization: `Bearer ${token}` } });
    const problems = (await list.json()) as { difficulty: string }[];
    expect(problems.length).toBeGreaterThanOrEqual(12);
    firstCount = problems.length;
  } finally {
    proc.kill();
    await proc.exited;
  }

  proc = spawnServer(env);
  try {
    await waitForHealth(port, proc);
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    const list = await fetch(`${base}/api/problems`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await list.json()) as unknown[]).length).toBe(firstCount);
  } finally {
    proc.kill();
    await proc.exited;
  }
});
