/**
 * The per-user storage quota (./quota.ts, USER_STORAGE_MAX_MIB) through the
 * real app and a real libSQL file: create, update and package import refuse
 * what would pass it with a 413 naming the setting and the owner's use;
 * shrinking always passes; admins are exempt; deleting a problem frees its
 * tests, except while a submission of it waits to be judged (review N2).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { createApp } from "../app.ts";
import { problems, submissions, testCases, users } from "../../db/schema.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { request, signUp } from "../../tests/api.ts";
import { problemBody } from "../../tests/fixtures/problem.ts";
import { modernPackage, zipOf } from "../../tests/packages/fixtures.ts";
import { storedBytesOf } from "./quota.ts";
import { readAssets, saveAssets } from "../packages/assets.ts";
import { trpcMutation } from "../../tests/courses/fixtures.ts";

const MIB = 1024 * 1024;
let t: TestServices;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestServices({ env: { USER_STORAGE_MAX_MIB: "16" } });
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

/** A problem body whose one hidden test holds `mib` MiB (input and answer halves). */
const sized = (title: string, mib: number) =>
  problemBody({ title, hiddenTestCases: [{ input: "1\n".repeat((mib * MIB) / 4), expectedOutput: "2\n".repeat((mib * MIB) / 4) }] });

test("create, update and import stop at USER_STORAGE_MAX_MIB, naming it and the use; shrinking passes; admins are exempt", async () => {
  const me = await signUp(app);
  const first = await request(app, "POST", "/api/problems", { token: me.token, body: sized("One", 6) });
  expect(first.status).toBe(201);
  expect((await request(app, "POST", "/api/problems", { token: me.token, body: sized("Two", 6) })).status).toBe(201);
  const used = await storedBytesOf(t.services.db, me.user.id);
  expect(used).toBeGreaterThan(12 * MIB);
  expect(used).toBeLessThan(12 * MIB + 4096);

  const third = await request(app, "POST", "/api/problems", { token: me.token, body: sized("Three", 6) });
  expect(third.status).toBe(413);
  expect(third.body.field).toBe("hiddenTestCases");
  expect(third.body.message).toContain("USER_STORAGE_MAX_MIB");
  expect(third.body.message).toContain("16 MiB");
  expect(third.body.message).toContain("to the 12.0 MiB the owner's problems already store");
  expect(await t.services.db.$count(problems, eq(problems.userId, me.user.id))).toBe(2);

  // A package import counts its tests, statements and images, and answers the same 413 from the worker.
  const big = "7\n".repeat(3 * MIB);
  const pkg = zipOf(modernPackage({ "data/secret/big.in": big, "data/secret/big.ans": big }));
  const form = new FormData();
  form.set("package", new Blob([Buffer.from(pkg)]), "p.zip");
  const imported = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${me.token}` }, body: form });
  const importedBody = (await imported.json()) as { message: string; field: string };
  expect(imported.status).toBe(413);
  expect(importedBody.field).toBe("package");
  expect(importedBody.message).toContain("USER_STORAGE_MAX_MIB");

  // Growing a problem's tests past the quota is refused; shrinking them always passes, and makes room.
  const id = first.body._id as string;
  const grow = await request(app, "PUT", `/api/problems/${id}`, { token: me.token, body: { hiddenTestCases: sized("", 11).hiddenTestCases } });
  expect(grow.status).toBe(413);
  expect(grow.body.message).toContain("USER_STORAGE_MAX_MIB");
  expect((await request(app, "PUT", `/api/problems/${id}`, { token: me.token, body: { hiddenTestCases: sized("", 1).hiddenTestCases } })).status).toBe(200);
  expect((await request(app, "POST", "/api/problems", { token: me.token, body: sized("Three", 6) })).status).toBe(201);

  // Admins are exempt.
  await t.services.db.update(users).set({ siteRole: "admin" }).where(eq(users.id, me.user.id));
  expect((await request(app, "POST", "/api/problems", { token: me.token, body: sized("Four", 6) })).status).toBe(201);
}, 120_000);

test("deleting a problem frees its tests and makes room; a problem a submission still waits for keeps them until a later delete", async () => {
  const me = await signUp(app);
  const a = await request(app, "POST", "/api/problems", { token: me.token, body: sized("A", 6) });
  const b = await request(app, "POST", "/api/problems", { token: me.token, body: sized("B", 6) });
  expect([a.status, b.status]).toEqual([201, 201]);
  expect((await request(app, "POST", "/api/problems", { token: me.token, body: sized("C", 6) })).status).toBe(413);
  const testBytes = async (problemId: string) =>
    Number(
      (await t.services.db.select({ n: sql<number>`coalesce(sum(octet_length(${testCases.input}) + octet_length(${testCases.expectedOutput})), 0)` }).from(testCases).where(eq(testCases.problemId, problemId)))[0]!.n,
    );

  // A queued submission of A: deleting A keeps its tests (the job is still judged against them).
  const [queued] = await t.services.db.insert(submissions).values({ userId: me.user.id, problemId: a.body._id, language: "py", code: "print(1)" }).returning();
  expect((await request(app, "DELETE", `/api/problems/${a.body._id}`, { token: me.token })).status).toBe(200);
  expect(await testBytes(a.body._id)).toBe(6 * MIB);
  // A deleted problem counts for nothing: C fits now.
  expect((await request(app, "POST", "/api/problems", { token: me.token, body: sized("C", 6) })).status).toBe(201);

  await saveAssets(t.services.db, b.body._id, [{ name: "figure.png", contentType: "image/png", content: new Uint8Array(1024) }]);
  // Once judged, the next delete frees A's tests along with B's (and B's statement images).
  await t.services.db.update(submissions).set({ status: "done", verdict: "AC" }).where(eq(submissions.id, queued!.id));
  expect((await request(app, "DELETE", `/api/problems/${b.body._id}`, { token: me.token })).status).toBe(200);
  expect(await testBytes(b.body._id)).toBe(0);
  expect(await testBytes(a.body._id)).toBe(0);
  expect(await readAssets(t.services.db, b.body._id)).toEqual([]);
  // The rows stay: the submission still names its problem.
  expect(await t.services.db.$count(problems, eq(problems.id, a.body._id))).toBe(1);
  const history = await request(app, "GET", `/api/submissions/${a.body._id}`, { token: me.token });
  expect(history.status).toBe(200);
  expect(history.body.map((s: { _id: string }) => s._id)).toEqual([queued!.id]);
}, 120_000);

test("a copy into a course counts against its owner's quota too (course problems count for their owner)", async () => {
  const teacher = await signUp(app);
  await t.services.db.update(users).set({ canCreateCourses: true }).where(eq(users.id, teacher.user.id));
  const course = await request(app, "POST", "/api/courses", { token: teacher.token, body: { title: "Storage", code: `ST${Math.floor(Math.random() * 1e6)}`, term: "Spring 2026" } });
  expect(course.status).toBe(201);
  const own = await request(app, "POST", "/api/problems", { token: teacher.token, body: sized("Mine", 6) });
  expect(own.status).toBe(201);
  const copy = () => trpcMutation(app, teacher.token, "problems.copyToCourse", { problemId: own.body._id, courseId: course.body.id });
  expect((await copy()).status).toBe(200);
  const refused = await copy();
  expect(refused.status).toBe(413);
  expect(refused.error.message).toContain("USER_STORAGE_MAX_MIB");
  expect(refused.error.data.app.field).toBe("problemId");
}, 120_000);
