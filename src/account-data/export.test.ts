/** GET /api/account/export on a real libSQL file: the zip holds the account's own data, its code files, and nobody else's. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { unzipSync, strFromU8 } from "fflate";
import { submissions } from "../../db/schema.ts";
import { createApp } from "../app.ts";
import { request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { EXPORTS_PER_HOUR, sourceFileName } from "./export.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

async function download(token: string): Promise<Response> {
  return app.request("/api/account/export", { headers: { authorization: `Bearer ${token}` } });
}

test("the zip holds the profile, every submission with its code, and nothing of another user", async () => {
  const me = await signUp(app, { firstName: "Ada" });
  const other = await signUp(app, { firstName: "Eve" });
  const created = await request(app, "POST", "/api/problems", {
    token: me.token,
    body: { title: "Sum", description: "Add", inputFormat: "a b", outputFormat: "a+b", constraints: "small", sampleInput: "1 2", sampleOutput: "3", difficulty: "easy" },
  });
  expect(created.status).toBe(201);
  const problemId = created.body._id as string;
  await t.services.db.insert(submissions).values([
    { id: "sub-mine-1", userId: me.user.id, problemId, language: "py", code: "print(sum(map(int, input().split())))", status: "done", verdict: "AC", isPassed: true },
    { id: "sub-mine-2", userId: me.user.id, problemId, language: "cpp", code: "int main(){}", status: "done", verdict: "WA" },
    { id: "sub-theirs", userId: other.user.id, problemId, language: "py", code: "SECRET OF EVE", status: "done", verdict: "WA" },
  ]);

  const res = await download(me.token);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="codearena-data-\d{4}-\d{2}-\d{2}\.zip"$/);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const names = Object.keys(files).sort();
  expect(names).toEqual(
    ["README.txt", "ai-reviews.json", "contests.json", "courses.json", "problems.json", "profile.json", "submissions.json", sourceFileName("sub-mine-1", "py"), sourceFileName("sub-mine-2", "cpp")].sort(),
  );
  const profile = JSON.parse(strFromU8(files["profile.json"]!));
  expect([profile.id, profile.firstName, profile.email]).toEqual([me.user.id, "Ada", me.email]);
  expect(profile.sessions.length).toBeGreaterThan(0);
  const list = JSON.parse(strFromU8(files["submissions.json"]!));
  expect(list.map((s: { id: string }) => s.id).sort()).toEqual(["sub-mine-1", "sub-mine-2"]);
  expect(list.find((s: { id: string }) => s.id === "sub-mine-1")).toMatchObject({ verdict: "AC", problemTitle: "Sum", codeFile: "submissions/sub-mine-1.py" });
  expect(strFromU8(files["submissions/sub-mine-1.py"]!)).toBe("print(sum(map(int, input().split())))");
  expect(JSON.parse(strFromU8(files["problems.json"]!)).map((p: { title: string }) => p.title)).toEqual(["Sum"]);
  for (const data of Object.values(files)) expect(strFromU8(data)).not.toContain("SECRET OF EVE");
});

test("signed out is 401; past five an hour is 429", async () => {
  expect((await app.request("/api/account/export")).status).toBe(401);
  const me = await signUp(app);
  for (let i = 0; i < EXPORTS_PER_HOUR; i++) {
    const res = await download(me.token);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
  const refused = await download(me.token);
  expect(refused.status).toBe(429);
});
