/**
 * The import worker (./import-worker.ts) answers as the inline import did:
 * every package fault is the same 400 naming the same file and line, text
 * that is not base64 the same 400 on `package`, and imports sent together all
 * land (one at a time), with answers that carry no hidden tests (review N2).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { createApp } from "../app.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { request, signUp } from "../../tests/api.ts";
import { modernPackage, zipOf } from "../../tests/packages/fixtures.ts";
import { filesFromZip, packageLimits, PackageError } from "./files.ts";
import { readPackage } from "./format.ts";
import { loadConfig } from "../config.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
let token: string;
beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
  token = (await signUp(app)).token;
});
afterAll(() => t.cleanup());

async function upload(zip: Uint8Array): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.set("package", new Blob([Buffer.from(zip)]), "p.zip");
  const res = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: await res.json() };
}

/** What the inline reader said of `zip`, as the 400's message. */
async function inlineMessage(zip: Uint8Array): Promise<string> {
  try {
    await readPackage(filesFromZip(zip, packageLimits(loadConfig({}).ceilings, "upload")));
  } catch (err) {
    if (err instanceof PackageError) return `package: ${err.message}`;
    throw err;
  }
  throw new Error("expected a PackageError");
}

test("each package fault is the 400 the inline reader gives, naming the same file and line", async () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const broken = [
    new TextEncoder().encode("not a zip at all"),
    zipSync({ "statement/problem.en.md": enc("# X\n") }),
    zipOf(modernPackage({ "problem.yaml": "name: [unclosed\n" })),
    zipOf(modernPackage({ "problem.yaml": "problem_format_version: 2025-09\nname: X\nlimits:\n  time_limit: -1\n" })),
    zipOf(modernPackage({ "data/secret/lonely.ans": "1\n" })),
    zipSync({ "../evil": enc("x"), "problem.yaml": enc("name: x\n") }),
  ];
  for (const zip of broken) {
    const answer = await upload(zip);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe("package");
    expect(answer.body.message).toBe(await inlineMessage(zip));
  }
}, 120_000);

test("text that is not base64 is a 400 on `package`, as its zod check gave", async () => {
  const res = await request(app, "POST", "/trpc/problems.importPackage", { token, body: { package: "not base64!" } });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toBe("package: Must be the zip as base64 text");
  expect(res.body.error.data.app.field).toBe("package");
});

test("imports sent together all land, one at a time, and answer without hidden tests", async () => {
  const answers = await Promise.all([1, 2, 3].map((i) => upload(zipOf(modernPackage({ "data/secret/extra.in": `${i}\n`, "data/secret/extra.ans": `yes\n${i}\n` })))));
  expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
  for (const a of answers) {
    expect(a.body.problem.hiddenTestCount).toBeGreaterThan(0);
    expect(a.body.problem.hiddenTestCases).toBeUndefined();
  }
  expect(new Set(answers.map((a) => a.body.problem._id)).size).toBe(3);
}, 120_000);
