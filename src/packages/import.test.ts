/**
 * Importing a package through the REST door (multipart and raw zip) and the
 * CLI, then judging submissions to it through the real sandbox: the package's
 * one time limit for every language, the default validator's rules and flags.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request, signUp } from "../../tests/api.ts";
import { startJudgeApp, type JudgeApp } from "../../tests/judge/app.ts";
import { JUDGE_TEST_BOX_ID_START } from "../../tests/judge/fixtures.ts";
import { legacyPackage, modernPackage, TINY_PNG, writeFolder, zipOf } from "../../tests/packages/fixtures.ts";
import { filesFromZip } from "./files.ts";
import { readPackage } from "./format.ts";
import { RateLimiter } from "../lib/rate-limit.ts";

setDefaultTimeout(60_000);
const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "oj-pkg-import-"));
let ja: JudgeApp;
let app: JudgeApp["app"];

beforeAll(async () => {
  // Boxes 5440–5447, its own: it runs beside the main run (scripts/test.sh run B, decision 054).
  ja = await startJudgeApp(5440 - JUDGE_TEST_BOX_ID_START, { ISOLATE_BOX_ID_COUNT: "8" });
  app = ja.app;
}, 60_000);

afterAll(async () => {
  await ja?.close();
  rmSync(work, { recursive: true, force: true });
});

async function upload(token: string, zip: Uint8Array, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("package", new Blob([Buffer.from(zip)], { type: "application/zip" }), "package.zip");
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: await res.json() };
}

describe("POST /api/problems/import", () => {
  test("a package becomes a problem; its example submissions get the verdicts their folders name, Java with the same limit as C++", async () => {
    const me = await signUp(app);
    const res = await upload(me.token, zipOf(modernPackage()), { difficulty: "hard" });
    expect(res.status).toBe(201);
    expect(res.body.problem).toMatchObject({
      title: "Yes Or Thirds",
      difficulty: "hard",
      timeLimitMs: 1500,
      memoryLimitKib: 524288,
      checker: "kattis",
      checkerFlags: "float_tolerance 0.000001",
      timeScaledByLanguage: false,
      hiddenTestCount: 4,
      sampleInput: "3\n",
    });
    expect(res.body.submissions).toEqual({ AC: 2, WA: 1 });
    expect(res.body.warnings).toEqual([]);

    const id = res.body.problem._id;
    const files = modernPackage();
    const submit = (code: string, language: string) => request(app, "POST", "/api/submissions", { token: me.token, body: { problemId: id, code, language } });
    const [py, java, wa] = await Promise.all([
      submit(files["submissions/accepted/sol.py"] as string, "py"),
      submit(files["submissions/accepted/Thirds.java"] as string, "java"),
      submit(files["submissions/wrong_answer/no.py"] as string, "py"),
    ]);
    expect(`${py.body.verdict} ${py.body.testsPassed}/${py.body.testsTotal}`).toBe("AC 5/5");
    expect(`${java.body.verdict} ${java.body.testsPassed}/${java.body.testsTotal}`).toBe("AC 5/5");
    expect(wa.body.verdict).toBe("WA");

    // One limit for every language: Python is not given 3 × 1.5 s.
    const slow = await submit("import time\nn = int(input())\nt = time.process_time()\nwhile time.process_time() - t < 2.0: pass\nprint('yes')\nprint(1 / n)\n", "py");
    expect(slow.body.verdict).toBe("TLE");
  });

  test("the zip itself as the body works too; a broken package answers 400 naming its file and stores nothing", async () => {
    const me = await signUp(app);
    const raw = await app.request("/api/problems/import?difficulty=easy", {
      method: "POST",
      headers: { authorization: `Bearer ${me.token}`, "content-type": "application/zip" },
      body: Buffer.from(zipOf(legacyPackage({ ".timelimit": "2\n" }))),
    });
    expect(raw.status).toBe(201);
    expect(await raw.json()).toMatchObject({ problem: { title: "Hello Sum", difficulty: "easy", timeLimitMs: 2000, checkerFlags: "case_sensitive" } });

    const broken = legacyPackage();
    delete broken["data/secret/1.ans"];
    const bad = await upload(me.token, zipOf(broken));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: "package", error: "package: data/secret/1.in: has no answer file 1.ans" });
    const hostile = await upload(me.token, new TextEncoder().encode("PK not really a zip"));
    expect(hostile.status).toBe(400);
    const mine = await request(app, "GET", "/api/problems", { token: me.token });
    expect(mine.body.filter((p: { user: string }) => p.user === me.user.id).map((p: { title: string }) => p.title)).toEqual(["Hello Sum"]);
  });

  test("signed out: 401; no file: 400 naming the field", async () => {
    const out = await app.request("/api/problems/import", { method: "POST", body: new FormData() });
    expect(out.status).toBe(401);
    const me = await signUp(app);
    const none = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${me.token}` }, body: new FormData() });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ field: "package" });
  });
});

describe("statement images", () => {
  test("images of the statement folder are served with the problem and exported back; nothing else is", async () => {
    const me = await signUp(app);
    const files = modernPackage({ "statement/cat.png": TINY_PNG, "statement/notes.txt": "not an image" });
    files["statement/problem.en.md"] = `![a cat](cat.png)\n\n${files["statement/problem.en.md"]}`;
    const { body } = await upload(me.token, zipOf(files));
    const id = body.problem._id;
    const img = await app.request(`/api/problems/${id}/assets/cat.png`);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(TINY_PNG);
    expect((await app.request(`/api/problems/${id}/assets/notes.txt`)).status).toBe(404);
    expect((await app.request(`/api/problems/${id}/assets/..%2Fproblem.yaml`)).status).toBe(400);
    const exported = await app.request(`/api/problems/${id}/package`, { headers: { authorization: `Bearer ${me.token}` } });
    expect((await readPackage(filesFromZip(new Uint8Array(await exported.arrayBuffer())))).assets.map((a) => a.name)).toEqual(["cat.png"]);
  });
});

describe("verify now (POST /api/problems/:id/verify)", () => {
  const poll = async (token: string, id: string) => {
    for (let i = 0; i < 600; i++) {
      const s = await request(app, "GET", `/api/problems/${id}/verify`, { token });
      if (s.body.state !== "running") return s.body;
      await Bun.sleep(100);
    }
    throw new Error("verify did not finish");
  };

  test("the kept example submissions are judged in the background, row by row; the package's examples export again", async () => {
    const me = await signUp(app);
    const { body } = await upload(me.token, zipOf(modernPackage()));
    const id = body.problem._id;
    expect((await request(app, "GET", `/api/problems/${id}/verify`, { token: me.token })).body).toEqual({ state: "none", total: 3, rows: [] });
    const started = await app.request(`/api/problems/${id}/verify`, { method: "POST", headers: { authorization: `Bearer ${me.token}` } });
    expect(started.status).toBe(202);
    expect(await started.json()).toMatchObject({ state: "running", total: 3 });
    const done = await poll(me.token, id);
    expect(done).toMatchObject({ state: "done", total: 3, report: { timeLimitMs: 1500, timeLimitSource: "package", ok: true } });
    expect(done.rows.map((r: { path: string; verdict: string; ok: boolean }) => [r.path, r.verdict, r.ok])).toEqual([
      ["submissions/accepted/Thirds.java", "AC", true],
      ["submissions/accepted/sol.py", "AC", true],
      ["submissions/wrong_answer/no.py", "WA", true],
    ]);
    const exported = await app.request(`/api/problems/${id}/package`, { headers: { authorization: `Bearer ${me.token}` } });
    const again = await upload(me.token, new Uint8Array(await exported.arrayBuffer()));
    expect(again.body.submissions).toEqual({ AC: 2, WA: 1 });
  });

  test("a package without a time limit gets it derived at import, and verify judges at it; others may not verify; a problem without examples says so", async () => {
    const me = await signUp(app);
    const other = await signUp(app);
    const pkg = legacyPackage({ "submissions/accepted/sum.py": "n = int(input())\nprint(sum(map(int, input().split())))\nprint('Done')\n" });
    const { body } = await upload(me.token, zipOf(pkg));
    const id = body.problem._id;
    expect([body.problem.timeLimitMs, body.timeLimitSource]).toEqual([1000, "derived"]);
    expect((await request(app, "POST", `/api/problems/${id}/verify`, { token: other.token })).status).toBe(403);
    await request(app, "POST", `/api/problems/${id}/verify`, { token: me.token });
    const done = await poll(me.token, id);
    expect(done).toMatchObject({ state: "done", report: { timeLimitMs: 1000, timeLimitSource: "package", ok: true } });
    expect(done.derivedTimeLimitMs).toBeUndefined();
    expect((await request(app, "GET", `/api/problems/${id}`, { token: me.token })).body.timeLimitMs).toBe(1000);
    const plain = await request(app, "POST", "/api/problems", { token: me.token, body: { title: "P", description: "d", inputFormat: "i", outputFormat: "o", constraints: "c", sampleInput: "", sampleOutput: "1\n", difficulty: "easy" } });
    const none = await request(app, "POST", `/api/problems/${plain.body._id}/verify`, { token: me.token });
    expect(none.status).toBe(400);
    expect(none.body.error).toContain("no example submissions to verify");
  });
});

describe("bounded whatever a package says", () => {
  test("a LaTeX statement the converter chokes on (NWERC 2023's \\textsuperscript{[citation needed]}) imports as preformatted text with a warning; the server keeps serving", async () => {
    const me = await signUp(app);
    const files = legacyPackage();
    files["problem_statement/problem.en.tex"] += "Every sum is small\\textsuperscript{[citation needed]}.\n";
    const { status, body } = await upload(me.token, zipOf(files));
    expect(status).toBe(201);
    expect(body.warnings.join("\n")).toContain("problem_statement/problem.en.tex: the LaTeX could not be converted");
    expect(body.problem.description).toContain("~~~latex");
    expect(body.problem.description).toContain("\\textsuperscript{[citation needed]}");
    await Bun.sleep(50);
    expect((await request(app, "GET", "/api/health")).status).toBe(200);
  });

  test("time multipliers outside 1–10 are refused naming the key; example submissions past 100 are left out with a warning", async () => {
    const me = await signUp(app);
    const wild = modernPackage({ "problem.yaml": "problem_format_version: 2025-09\nname: Wild\nlimits:\n  time_limit: 1\n  time_multipliers:\n    ac_to_time_limit: 1000\n" });
    const refused = await upload(me.token, zipOf(wild));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain("problem.yaml:6: limits.time_multipliers.ac_to_time_limit 1000 is outside this judge's 1–10");
    const many: Record<string, string> = {};
    for (let i = 0; i < 105; i++) many[`submissions/accepted/s${String(i).padStart(3, "0")}.py`] = "print(1)\n";
    const crowded = await upload(me.token, zipOf(modernPackage(many)));
    expect(crowded.status).toBe(201);
    expect(crowded.body.warnings.filter((w: string) => w.includes("at most 100 example submissions")).length).toBeGreaterThan(0);
    expect(Object.values(crowded.body.submissions as Record<string, number>).reduce((x, y) => x + y, 0)).toBe(100);
  });

  test("verifies count against a per-user budget (429 with Retry-After past it); a running verify answers its status without spending it", async () => {
    const me = await signUp(app);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await upload(me.token, zipOf(modernPackage()))).body.problem._id);
    const saved = ja.t.services.limiters.verifiesByUser;
    ja.t.services.limiters.verifiesByUser = new RateLimiter({ limit: 1, windowMs: 60 * 60_000 });
    try {
      expect((await request(app, "POST", `/api/problems/${ids[0]}/verify`, { token: me.token })).status).toBe(202);
      expect((await request(app, "POST", `/api/problems/${ids[0]}/verify`, { token: me.token })).status).toBe(202);
      const over = await app.request(`/api/problems/${ids[1]}/verify`, { method: "POST", headers: { authorization: `Bearer ${me.token}` } });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      for (let i = 0; i < 600 && (await request(app, "GET", `/api/problems/${ids[0]}/verify`, { token: me.token })).body.state === "running"; i++) await Bun.sleep(100);
    } finally {
      ja.t.services.limiters.verifiesByUser = saved;
    }
  });
});

describe("bun run problem -- import", () => {
  test("imports a folder for an existing account; an unknown owner or a broken package is exit code 1 with the reason", async () => {
    const me = await signUp(app);
    const dir = writeFolder(join(work, "hello-sum"), legacyPackage());
    const env = { ...process.env, DATABASE_URL: ja.t.config.DATABASE_URL, DATA_DIR: ja.t.config.DATA_DIR, NODE_ENV: "test", SESSION_SECRET: "cli-test-secret-0123456789abcdef0123456789" };
    const run = async (...args: string[]) => {
      const p = Bun.spawn(["bun", "scripts/problem.ts", ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
      const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
      return { code: await p.exited, out, err };
    };
    const ok = await run("import", dir, "--owner", me.user.email);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('imported "Hello Sum"');
    expect(ok.out).toContain("states no time limit");
    const stranger = await run("import", dir, "--owner", "nobody@example.com");
    expect(stranger.code).toBe(1);
    expect(stranger.err).toContain("no account with the email nobody@example.com");
    const broken = writeFolder(join(work, "broken"), { ...legacyPackage(), "problem.yaml": "name: [unclosed\n" });
    const bad = await run("import", broken, "--owner", me.user.email);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("problem: problem.yaml:");
    const usage = await run("import");
    expect(usage.code).toBe(1);
    expect(usage.err).toContain("usage: bun run problem -- import PATH --owner EMAIL");
  });
});
