/**
 * GET /metrics: closed to other hosts unless they bring METRICS_TOKEN, open
 * to loopback, in Prometheus' text format; and the values move when work
 * happens (requests, verdicts, queue gauges, compile cache, AI reviews).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createSandbox } from "../../isolate/index.ts";
import { seedDatabase } from "../../db/seed/index.ts";
import { createApp } from "../../src/app.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { isLoopback } from "../../src/rest/metrics.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { request, signUp } from "../api.ts";
import { judgeConfig, preparePch, silentLog } from "../judge/fixtures.ts";
import { createTestServices, type TestServices } from "../services.ts";

const TOKEN = "metrics-token-0123456789";
let sandbox: SandboxSelection;
let t: TestServices;
let judge: JudgeService;
let app: ReturnType<typeof createApp>;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  await preparePch();
  sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", {}, 270)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  t = await createTestServices({ env: { METRICS_TOKEN: TOKEN, AI_PROVIDER: "offline" }, sandbox });
  await seedDatabase(t.services.db);
  judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox, cacheDir: join(t.dir, "cache"), pollMs: 50 });
  t.services.judge = judge;
  await judge.start();
  app = createApp(t.services);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
}, 60_000);

afterAll(async () => {
  server?.stop(true);
  await judge?.stop();
  await sandbox?.backend?.close();
  t?.cleanup();
});

/** The value of one sample line, e.g. `judge_verdicts_total{verdict="AC",language="py"}`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries((m[3] ?? "").split(",").filter(Boolean).map((kv) => [kv.split("=")[0], kv.split("=")[1]!.replace(/^"|"$/g, "")]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return 0;
}

const scrapeLoopback = async () => (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();

describe("GET /metrics", () => {
  test("other hosts get 404 without the token and the metrics with it; loopback always", async () => {
    // app.request has no peer address: like a remote host.
    expect((await request(app, "GET", "/metrics")).status).toBe(404);
    expect((await request(app, "GET", "/metrics", { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(404);
    const withToken = await app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get("content-type")).toContain("text/plain");
    expect(await scrapeLoopback()).toContain("# TYPE http_requests_total counter");
    expect([isLoopback("127.0.0.1"), isLoopback("::1"), isLoopback("::ffff:127.0.0.1"), isLoopback("10.0.0.1"), isLoopback("unknown")]).toEqual([true, true, true, false, false]);
  });

  test("values move when work happens: requests by route, verdicts, judge time, queue gauges, compile cache, AI reviews, process metrics", async () => {
    const before = await scrapeLoopback();
    const user = await signUp(app);
    const problems = (await request(app, "GET", "/api/problems", { token: user.token })).body as { _id: string; title: string }[];
    const sum = problems.find((p) => p.title === "Sum of Two Numbers")!;
    const code = "a, b = map(int, input().split())\nprint(a + b)\n";
    const s1 = await request(app, "POST", "/api/submissions", { token: user.token, body: { problemId: sum._id, code, language: "py" } });
    expect(s1.body.verdict).toBe("AC");
    await request(app, "POST", "/api/submissions", { token: user.token, body: { problemId: sum._id, code, language: "py" } });
    const review = await request(app, "POST", "/api/ai/ai-review", { token: user.token, body: { code, language: "py", problemId: sum._id } });
    expect(review.status).toBe(200);
    const after = await scrapeLoopback();
    expect(sample(after, "judge_verdicts_total", { verdict: "AC", language: "py" }) - sample(before, "judge_verdicts_total", { verdict: "AC", language: "py" })).toBe(2);
    expect(sample(after, "judge_duration_seconds_count", { language: "py" }) - sample(before, "judge_duration_seconds_count", { language: "py" })).toBe(2);
    expect(sample(after, "judge_queue_wait_seconds_count", { language: "py" })).toBeGreaterThan(sample(before, "judge_queue_wait_seconds_count", { language: "py" }));
    expect(sample(after, "http_requests_total", { method: "POST", route: "/api/submissions", status: "201" }) - sample(before, "http_requests_total", { method: "POST", route: "/api/submissions", status: "201" })).toBe(2);
    expect(sample(after, "http_request_duration_seconds_count", { method: "GET", route: "/api/problems" })).toBeGreaterThan(0);
    expect(sample(after, "judge_compile_cache_hits_total")).toBeGreaterThanOrEqual(1);
    expect(sample(after, "ai_reviews_total", { provider: "offline", outcome: "ok" }) - sample(before, "ai_reviews_total", { provider: "offline", outcome: "ok" })).toBe(1);
    expect(after).toContain("judge_queue_length 0");
    expect(after).toContain("judge_jobs_in_progress 0");
    expect(after).toContain("process_cpu_seconds_total");
  }, 60_000);

  test("queue gauges read the database: queued submissions and the oldest one's age", async () => {
    await judge.stop();
    const user = await signUp(app);
    const problems = (await request(app, "GET", "/api/problems", { token: user.token })).body as { _id: string; title: string }[];
    const sum = problems.find((p) => p.title === "Sum of Two Numbers")!;
    for (let i = 0; i < 3; i++) await request(app, "POST", "/api/submissions?wait=false", { token: user.token, body: { problemId: sum._id, code: `print(${i})`, language: "py" } });
    await Bun.sleep(1100);
    const text = await scrapeLoopback();
    expect(sample(text, "judge_queue_length")).toBe(3);
    expect(sample(text, "judge_queue_oldest_age_seconds")).toBeGreaterThanOrEqual(1);
    await judge.start();
  }, 30_000);
});
