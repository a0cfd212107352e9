/**
 * `bun run release`: the single binary is built, copied into an empty folder
 * outside the checkout and started there. It creates ./data, migrates and
 * seeds, serves the client, judges a submission in the real sandbox, and its
 * subcommands (version, admin, backup) work. Port 3170 is this suite's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { legacyPackage, zipOf } from "../packages/fixtures.ts";

const root = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "oj-release-"));
chmodSync(work, 0o755);
const binary = join(work, "build", "oj");
const home = join(work, "home");
let server: Subprocess | null = null;
const env = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, PORT: "3170", HOST: "127.0.0.1", LOG_LEVEL: "warn", SANDBOX_ROOT: join(work, "boxes"), ISOLATE_BOX_ID_START: "3990", ISOLATE_BOX_ID_COUNT: "4" };

/** client/dist's index before the release build (mtime, ms), or null without one: the build must leave it alone. */
let distBefore: number | null = null;
const distIndex = join(root, "client", "dist", "index.html");

beforeAll(() => {
  distBefore = existsSync(distIndex) ? statSync(distIndex).mtimeMs : null;
  const built = Bun.spawnSync(["bun", "scripts/release.ts", "--outfile", binary], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`release failed: ${built.stderr.toString()}${built.stdout.toString()}`);
  // A fresh folder with nothing but the binary, as an operator would copy it.
  Bun.spawnSync(["mkdir", "-p", home]);
  copyFileSync(binary, join(home, "oj"));
  chmodSync(join(home, "oj"), 0o755);
}, 240_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
  rmSync(work, { recursive: true, force: true });
});

test("the release builds its client in its own folder: client/dist, which a running server or a browser test may be serving, is untouched", () => {
  expect(existsSync(distIndex) ? statSync(distIndex).mtimeMs : null).toBe(distBefore);
  expect(existsSync(join(root, ".release", "client", "index.html"))).toBe(true);
});

const json = (body: unknown, token?: string) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

describe("the single binary", () => {
  test("version answers without touching anything", () => {
    const r = Bun.spawnSync([join(home, "oj"), "version"], { cwd: home, env });
    expect(r.stdout.toString().trim()).toBe("0.1.0");
    expect(existsSync(join(home, "data"))).toBe(false);
  });

  test("started in an empty folder: ./data, the client, sign-up, judging in the sandbox", async () => {
    server = Bun.spawn([join(home, "oj")], { cwd: home, env, stdout: "pipe", stderr: "pipe" });
    const base = "http://127.0.0.1:3170";
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`binary exited: ${await new Response(server.stderr as ReadableStream).text()}`);
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        // not yet
      }
      if (Date.now() > deadline) throw new Error("binary not healthy in 60 s");
      await Bun.sleep(250);
    }
    expect(existsSync(join(home, "data", "app.db"))).toBe(true);
    const page = await fetch(`${base}/problems`);
    expect(await page.text()).toContain("<!doctype html>");
    await fetch(`${base}/api/auth/register`, json({ firstName: "B", lastName: "In", email: "bin@example.com", password: "one-binary-only" }));
    const { token } = (await (await fetch(`${base}/api/auth/login`, json({ email: "bin@example.com", password: "one-binary-only" }))).json()) as { token: string };
    const problems = (await (await fetch(`${base}/api/problems`, { headers: { authorization: `Bearer ${token}` } })).json()) as { _id: string; title: string }[];
    expect(problems).toHaveLength(14);
    const sum = problems.find((p) => p.title === "Sum of Two Numbers")!;
    const judged = (await (await fetch(`${base}/api/submissions`, json({ problemId: sum._id, language: "py", code: "a, b = map(int, input().split())\nprint(a + b)\n" }, token))).json()) as { verdict: string };
    expect(judged.verdict).toBe("AC");
    // The offline reviewer runs its embedded Python analyzer in the sandbox.
    const review = await fetch(`${base}/api/ai/ai-review`, json({ problemId: sum._id, language: "py", code: "a, b = map(int, input().split())\nprint(a + b)\n" }, token));
    expect(review.status).toBe(200);
    expect(((await review.json()) as { data: { review: string } }).data.review.length).toBeGreaterThan(50);
    // A LaTeX statement is converted by the worker compiled into the binary (src/packages/latex.ts).
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zipOf(legacyPackage()))]), "p.zip");
    const imported = await fetch(`${base}/api/problems/import`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    expect(imported.status).toBe(201);
    const body = (await imported.json()) as { problem: { description: string }; warnings: string[] };
    expect(body.warnings.join("\n")).not.toContain("could not be converted");
    expect(body.problem.description).toContain("\\sum");
    expect(body.problem.description).not.toContain("~~~latex");
  }, 90_000);

  test("its subcommands: admin and an online backup while it serves", () => {
    const admin = Bun.spawnSync([join(home, "oj"), "admin", "grant", "bin@example.com"], { cwd: home, env });
    expect(admin.stdout.toString()).toContain("bin@example.com is now a site admin");
    const backup = Bun.spawnSync([join(home, "oj"), "backup", join(work, "backup")], { cwd: home, env });
    expect(backup.stderr.toString()).toBe("");
    expect(backup.stdout.toString()).toContain("2 users, 15 problems, 1 submissions");
  });
});
