/**
 * No input takes the server down: the real server process (`bun
 * src/server.ts`) is fed malformed input for every parser of outside input
 * (LaTeX, YAML, zip, CSV, Markdown, JWT, LTI claims) by a signed-in user or
 * an anonymous client; each answer is a 4xx (or a 2xx with a warning), and
 * the process still serves afterwards. The LaTeX case is the NWERC 2023
 * statement's `\textsuperscript{[citation needed]}`, which ended the process
 * before conversion moved into a worker.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { legacyPackage, modernPackage, zipOf } from "../packages/fixtures.ts";
import { problemBody } from "../fixtures/problem.ts";
import { signUp } from "../api.ts";
import { startServerProcess, type ServerProcess } from "../server-process.ts";

const PORT = 3190;
const BASE = `http://127.0.0.1:${PORT}`;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  // Box ids 3880-3883 are this file's (no judging happens here: JUDGE_IN_PROCESS=false).
  server = await startServerProcess({
    name: "malformed",
    port: PORT,
    boxIdStart: 3880,
    boxIdCount: 4,
    env: { SANDBOX: "isolate", JUDGE_IN_PROCESS: "false", SESSION_SECRET: "malformed-test-secret-0123456789abcdef0123" },
  });
  token = (await signUp(server.api)).token;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await server?.cleanup();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${BASE}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}
function upload(zip: Uint8Array) {
  const form = new FormData();
  form.set("package", new Blob([Buffer.from(zip)]), "p.zip");
  return fetch(`${BASE}/api/problems/import`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
}
async function stillServes() {
  await Bun.sleep(100);
  expect(server.proc.exitCode).toBeNull();
  expect((await fetch(`${BASE}/api/health`)).status).toBeLessThan(600);
  expect((await fetch(`${BASE}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
}

test("LaTeX the converter chokes on: imported as preformatted text with a warning; the process lives", async () => {
  const files = legacyPackage();
  files["problem_statement/problem.en.tex"] += "Sums are small\\textsuperscript{[citation needed]}.\n\\begin{itemize}\\item \\end{enumerate}\n";
  const res = await upload(zipOf(files));
  expect(res.status).toBe(201);
  expect(JSON.stringify(await res.json())).toContain("could not be converted");
  await stillServes();
}, 30_000);

test("broken YAML, a zip that is not one, a truncated zip: 400 naming the package", async () => {
  const yaml = modernPackage({ "problem.yaml": "name: [unclosed\nlimits: {time_limit: \n" });
  const good = zipOf(modernPackage());
  for (const bytes of [zipOf(yaml), new TextEncoder().encode("PK\u0003\u0004 not really a zip"), good.slice(0, Math.floor(good.length / 2))]) {
    const res = await upload(bytes);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { field?: string }).field).toBe("package");
  }
  await stillServes();
});

test("a malformed CSV roster: 400 naming the line", async () => {
  const course = await post("/api/courses", { title: "C", code: "MAL-1" }, { authorization: `Bearer ${token}` });
  // Not allowed to create courses: 403, or (allowed) the CSV is refused; either way a 4xx and the process lives.
  if (course.status === 201) {
    const { id } = (await course.json()) as { id: string };
    const res = await post(`/api/courses/${id}/members`, { csv: 'a@example.com,"unclosed,student\n' }, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(400);
  } else expect(course.status).toBe(403);
  await stillServes();
});

test("pathological Markdown and math in a statement are stored as text (the server never renders them)", async () => {
  const deep = `${"> ".repeat(5000)}x\n${"[".repeat(20000)}\n$${"{".repeat(5000)}$`;
  const res = await post(
    "/api/problems",
    problemBody({ title: "Deep", description: deep.slice(0, 60_000), sampleInput: "", sampleOutput: "1\n", hiddenTestCases: undefined }),
    { authorization: `Bearer ${token}` },
  );
  expect(res.status).toBe(201);
  await stillServes();
});

test("garbage JWTs (a session bearer, an LTI id_token) and malformed LTI logins: 4xx", async () => {
  for (const bearer of ["x", "a.b.c", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", `${"e".repeat(10_000)}.x.y`]) {
    expect((await fetch(`${BASE}/api/auth/me`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(401);
  }
  const launch = await fetch(`${BASE}/api/lti/launch`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ id_token: "not.a.jwt", state: "nope" }),
  });
  expect(launch.status).toBeGreaterThanOrEqual(400);
  expect(launch.status).toBeLessThan(500);
  for (const q of ["iss=%00&login_hint=x&target_link_uri=y", "iss=https%3A%2F%2Fx&login_hint=&target_link_uri=%FF", "iss[]=a"]) {
    const res = await fetch(`${BASE}/api/lti/login?${q}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  await stillServes();
});
