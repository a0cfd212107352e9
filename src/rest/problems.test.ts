/** Problems over REST: list, create, byId, update, delete, ownership, limits, hidden-test secrecy. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { problems, submissions } from "../../db/schema.ts";
import { createApp } from "../app.ts";
import { problemBody, request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { RateLimiter } from "../lib/rate-limit.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
let owner: Awaited<ReturnType<typeof signUp>>;
let other: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  // The test-size ceilings at 16 and 64 MiB (the defaults are 128 and 512): the 413s are reachable with small bodies.
  t = await createTestServices({ env: { PROBLEM_TEST_MAX_MIB: "16", PROBLEM_TESTS_MAX_MIB: "64" } });
  app = createApp(t.services);
  owner = await signUp(app);
  other = await signUp(app);
});
afterAll(() => t.cleanup());

const SECRET_IN = "SECRET-HIDDEN-INPUT-7f3a";
const SECRET_OUT = "SECRET-HIDDEN-OUTPUT-9c1e";

async function create(token: string, overrides: Record<string, unknown> = {}) {
  const res = await request(app, "POST", "/api/problems", { token, body: problemBody(overrides) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("POST /api/problems", () => {
  test("answers 201 with the problem, owned by the caller, with defaults for the judge settings", async () => {
    const res = await request(app, "POST", "/api/problems", { token: owner.token, body: problemBody() });
    expect(res.status).toBe(201);
    const p = res.body;
    expect(p).toMatchObject({
      title: "Add One",
      difficulty: "easy",
      user: owner.user.id,
      timeLimitMs: 2000,
      memoryLimitKib: 262144,
      checker: "lines",
      hiddenTestCount: 2,
      __v: 0,
    });
    expect(typeof p._id).toBe("string");
    expect(new Date(p.createdAt).getTime()).toBeGreaterThan(0);
    expect(p.hiddenTestCases).toEqual([
      { input: "5\n", expectedOutput: "6\n" },
      { input: "99\n", expectedOutput: "100\n" },
    ]);
  });

  test("works with the session cookie too", async () => {
    const res = await request(app, "POST", "/api/problems", { cookie: owner.cookie, body: problemBody() });
    expect(res.status).toBe(201);
    expect(res.body.user).toBe(owner.user.id);
  });

  test("401 without a session", async () => {
    const res = await request(app, "POST", "/api/problems", { body: problemBody() });
    expect(res.status).toBe(401);
  });

  test("mass assignment is ignored: _id, user, __v, version, userId, timestamps and unknown keys", async () => {
    const p = await create(owner.token, {
      _id: "chosen-id",
      id: "chosen-id-2",
      user: other.user.id,
      userId: other.user.id,
      __v: 41,
      version: 42,
      createdAt: "2000-01-01T00:00:00.000Z",
      deletedAt: "2000-01-01T00:00:00.000Z",
      isAdmin: true,
    });
    expect(p._id).not.toBe("chosen-id");
    expect(p._id).not.toBe("chosen-id-2");
    expect(p.user).toBe(owner.user.id);
    expect(p.__v).toBe(0);
    expect(p.createdAt).not.toStartWith("2000");
    expect(p.isAdmin).toBeUndefined();
    const byId = await request(app, "GET", `/api/problems/${p._id}`);
    expect(byId.status).toBe(200);
  });

  test.each(["title", "description", "inputFormat", "outputFormat", "constraints", "sampleInput", "sampleOutput", "difficulty"])(
    "a missing %s is a 400 naming it",
    async (field) => {
      const body = problemBody();
      delete body[field];
      const res = await request(app, "POST", "/api/problems", { token: owner.token, body });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.message).toStartWith(`${field}: `);
    },
  );

  test("bad values are 400s naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ difficulty: "impossible" }, "difficulty"],
      [{ title: "x".repeat(201) }, "title"],
      [{ title: "   " }, "title"],
      [{ description: "d".repeat(64 * 1024 + 1) }, "description"],
      [{ hiddenTestCases: "nope" }, "hiddenTestCases"],
      [{ hiddenTestCases: [{ input: 5, expectedOutput: "x" }] }, "hiddenTestCases.0.input"],
      [{ timeLimitMs: 50 }, "timeLimitMs"],
      [{ timeLimitMs: 20_000 }, "timeLimitMs"],
      [{ timeLimitMs: 1500.5 }, "timeLimitMs"],
      [{ memoryLimitKib: 1024 }, "memoryLimitKib"],
      // Over the server's ceiling (PROBLEM_MEMORY_MAX_MIB, 2048 MiB by default).
      [{ memoryLimitKib: 3 * 1024 * 1024 }, "memoryLimitKib"],
      [{ memoryLimitKib: 128 * 1024 * 1024 }, "memoryLimitKib"],
      [{ checker: "regex" }, "checker"],
    ];
    for (const [overrides, field] of cases) {
      const res = await request(app, "POST", "/api/problems", { token: owner.token, body: problemBody(overrides) });
      expect([field, res.status, res.body.field]).toEqual([field, 400, field]);
    }
  });

  test("judge settings within bounds are kept", async () => {
    const p = await create(owner.token, { timeLimitMs: 1000, memoryLimitKib: 65536, checker: "float" });
    expect([p.timeLimitMs, p.memoryLimitKib, p.checker]).toEqual([1000, 65536, "float"]);
  });

  test("a test case over the server's ceiling (here 16 MiB), or tests over its total (here 64 MiB), are 413s naming the field and the setting", async () => {
    const big = "1".repeat(16 * 1024 * 1024);
    const one = await request(app, "POST", "/api/problems", {
      token: owner.token,
      body: problemBody({ hiddenTestCases: [{ input: "1", expectedOutput: "1" }, { input: big, expectedOutput: "1" }] }),
    });
    expect(one.status).toBe(413);
    expect(one.body.field).toBe("hiddenTestCases.1");
    expect(one.body.message).toContain("PROBLEM_TEST_MAX_MIB allows more");
    const chunk = "2".repeat(15 * 1024 * 1024);
    const many = await request(app, "POST", "/api/problems", {
      token: owner.token,
      body: problemBody({ hiddenTestCases: Array.from({ length: 5 }, () => ({ input: chunk, expectedOutput: "" })) }),
    });
    expect(many.status).toBe(413);
    expect(many.body.field).toBe("hiddenTestCases");
    expect(many.body.message).toContain("at most 64 MiB on this server (the setting PROBLEM_TESTS_MAX_MIB allows more");
  });

  test("completely blank test case rows (the form's initial row) are dropped", async () => {
    const p = await create(owner.token, {
      hiddenTestCases: [{ input: "", expectedOutput: "" }, { input: "3\n", expectedOutput: "4\n" }, {}],
    });
    expect(p.hiddenTestCases).toEqual([{ input: "3\n", expectedOutput: "4\n" }]);
    expect(p.hiddenTestCount).toBe(1);
  });

  test("problem writes are rate-limited per user: 429 with Retry-After, others unaffected", async () => {
    const saved = t.services.limiters.problemWritesByUser;
    t.services.limiters.problemWritesByUser = new RateLimiter({ limit: 2, windowMs: 60_000 });
    try {
      const writer = await signUp(app);
      const first = await create(writer.token);
      const update = await request(app, "PUT", `/api/problems/${first._id}`, { token: writer.token, body: { title: "Renamed" } });
      expect(update.status).toBe(200);
      const third = await request(app, "POST", "/api/problems", { token: writer.token, body: problemBody() });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another user's allowance is their own (a fresh user: later tests rely on `other` owning nothing).
      await create((await signUp(app)).token);
    } finally {
      t.services.limiters.problemWritesByUser = saved;
    }
  });

  test("test inputs and the sample input are stored with LF line ends (CRLF and lone CR become LF)", async () => {
    const p = await create(owner.token, {
      sampleInput: "1 2\r\n3 4\r\n",
      hiddenTestCases: [{ input: "hello\r\nworld\r\n", expectedOutput: "HELLO\r\n" }, { input: "a\rb\n", expectedOutput: "x" }],
    });
    expect(p.sampleInput).toBe("1 2\n3 4\n");
    expect(p.hiddenTestCases).toEqual([
      { input: "hello\nworld\n", expectedOutput: "HELLO\r\n" },
      { input: "a\nb\n", expectedOutput: "x" },
    ]);
  });
});

describe("GET /api/problems and /api/problems/:id", () => {
  test("the list needs a session (401)", async () => {
    expect((await request(app, "GET", "/api/problems")).status).toBe(401);
  });

  test("hidden tests reach the owner's list only; nobody else receives them from any route", async () => {
    const p = await create(owner.token, {
      title: "Secret keeper",
      hiddenTestCases: [{ input: SECRET_IN, expectedOutput: SECRET_OUT }],
    });
    const ownList = await request(app, "GET", "/api/problems", { token: owner.token });
    const mine = ownList.body.find((x: { _id: string }) => x._id === p._id);
    expect(mine.hiddenTestCases).toEqual([{ input: SECRET_IN, expectedOutput: SECRET_OUT }]);

    const trpcInput = encodeURIComponent(JSON.stringify({ id: p._id }));
    const exposures = [
      await request(app, "GET", "/api/problems", { token: other.token }),
      await request(app, "GET", `/api/problems/${p._id}`, { token: other.token }),
      await request(app, "GET", `/api/problems/${p._id}`),
      // byId omits them even for the owner (the solving page).
      await request(app, "GET", `/api/problems/${p._id}`, { token: owner.token }),
      await request(app, "GET", "/trpc/problems.list", { token: other.token }),
      await request(app, "GET", `/trpc/problems.byId?input=${trpcInput}`),
    ];
    for (const res of exposures) {
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(SECRET_IN);
      expect(text).not.toContain(SECRET_OUT);
      expect(text).not.toContain("hiddenTestCases");
    }
    const theirs = exposures[0]!.body.find((x: { _id: string }) => x._id === p._id);
    expect(theirs.hiddenTestCount).toBe(1);
    expect(theirs.user).toBe(owner.user.id);
  });

  test("byId works without a token and answers 404 for an unknown id", async () => {
    const p = await create(owner.token);
    const res = await request(app, "GET", `/api/problems/${p._id}`);
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(p._id);
    const missing = await request(app, "GET", "/api/problems/does-not-exist");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Problem not found");
  });

  test("list items carry every documented field", async () => {
    await create(owner.token);
    const res = await request(app, "GET", "/api/problems", { token: other.token });
    for (const key of [
      "_id", "title", "description", "inputFormat", "outputFormat", "constraints",
      "sampleInput", "sampleOutput", "difficulty", "user", "createdAt", "updatedAt",
    ]) {
      expect(res.body[0]).toHaveProperty(key);
    }
  });
});

describe("PUT /api/problems/:id", () => {
  test("the owner updates fields; __v increments; hidden tests are replaced when given and kept when not", async () => {
    const p = await create(owner.token);
    const res = await request(app, "PUT", `/api/problems/${p._id}`, {
      token: owner.token,
      body: { ...problemBody({ title: "Add One, revised", difficulty: "medium", timeLimitMs: 3000 }), hiddenTestCases: [{ input: "0\n", expectedOutput: "1\n" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: p._id, title: "Add One, revised", difficulty: "medium", timeLimitMs: 3000, __v: 1 });
    expect(res.body.hiddenTestCases).toEqual([{ input: "0\n", expectedOutput: "1\n" }]);
    const partial = await request(app, "PUT", `/api/problems/${p._id}`, { token: owner.token, body: { constraints: "0 <= n <= 5" } });
    expect(partial.status).toBe(200);
    expect(partial.body.__v).toBe(2);
    expect(partial.body.title).toBe("Add One, revised");
    expect(partial.body.hiddenTestCases).toEqual([{ input: "0\n", expectedOutput: "1\n" }]);
  });

  test("owner, id and version in the body are ignored", async () => {
    const p = await create(owner.token);
    const res = await request(app, "PUT", `/api/problems/${p._id}`, {
      token: owner.token,
      body: { ...problemBody(), _id: "other", id: "other", user: other.user.id, userId: other.user.id, __v: 99 },
    });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(p._id);
    expect(res.body.user).toBe(owner.user.id);
    expect(res.body.__v).toBe(1);
  });

  test("someone else gets 403 with the spec's message; the problem is unchanged", async () => {
    const p = await create(owner.token);
    const res = await request(app, "PUT", `/api/problems/${p._id}`, { token: other.token, body: problemBody({ title: "Mine now" }) });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("You can only update your own problems");
    expect((await request(app, "GET", `/api/problems/${p._id}`)).body.title).toBe("Add One");
  });

  test("404 for an unknown problem, 401 without a session, 400 naming a bad field", async () => {
    expect((await request(app, "PUT", "/api/problems/nope", { token: owner.token, body: problemBody() })).status).toBe(404);
    const p = await create(owner.token);
    expect((await request(app, "PUT", `/api/problems/${p._id}`, { body: problemBody() })).status).toBe(401);
    const bad = await request(app, "PUT", `/api/problems/${p._id}`, { token: owner.token, body: { difficulty: "extreme" } });
    expect([bad.status, bad.body.field]).toEqual([400, "difficulty"]);
  });
});

describe("DELETE /api/problems/:id", () => {
  test("someone else gets 403 with the spec's message", async () => {
    const p = await create(owner.token);
    const res = await request(app, "DELETE", `/api/problems/${p._id}`, { token: other.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("You can only delete your own problems");
    expect((await request(app, "GET", `/api/problems/${p._id}`)).status).toBe(200);
  });

  test("the owner deletes: 200, then the problem leaves list and byId, and updating or deleting again is 404", async () => {
    const p = await create(owner.token);
    const res = await request(app, "DELETE", `/api/problems/${p._id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect((await request(app, "GET", `/api/problems/${p._id}`)).status).toBe(404);
    const list = await request(app, "GET", "/api/problems", { token: owner.token });
    expect(list.body.some((x: { _id: string }) => x._id === p._id)).toBe(false);
    expect((await request(app, "DELETE", `/api/problems/${p._id}`, { token: owner.token })).status).toBe(404);
    expect((await request(app, "PUT", `/api/problems/${p._id}`, { token: owner.token, body: problemBody() })).status).toBe(404);
  });

  test("deleting keeps the problem's submissions readable by their author", async () => {
    const p = await create(owner.token, { title: "Soon gone" });
    await t.services.db.insert(submissions).values({
      userId: other.user.id,
      problemId: p._id,
      language: "py",
      code: "print(int(input())+1)",
      status: "done",
      verdict: "AC",
      isPassed: true,
      output: "2\n",
      expectedOutput: "2\n",
    });
    expect((await request(app, "DELETE", `/api/problems/${p._id}`, { token: owner.token })).status).toBe(200);
    const [row] = await t.services.db.select().from(problems).where(eq(problems.id, p._id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const history = await request(app, "GET", `/api/submissions/${p._id}`, { token: other.token });
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(1);
    expect(history.body[0]).toMatchObject({ code: "print(int(input())+1)", isPassed: true, problemTitle: "Soon gone", problemDeleted: true });
  });

  test("401 without a session, 404 for an unknown id", async () => {
    const p = await create(owner.token);
    expect((await request(app, "DELETE", `/api/problems/${p._id}`)).status).toBe(401);
    expect((await request(app, "DELETE", "/api/problems/nope", { token: owner.token })).status).toBe(404);
  });
});

describe("GET /api/problems through the encoded-once list (src/lib/json.ts)", () => {
  const listAs = async (token: string) => {
    const res = await app.request("/api/problems", { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { res, text, body: JSON.parse(text) as { _id: string; title: string; hiddenTestCases?: unknown[] }[] };
  };

  test("the body is exactly JSON.stringify of the list, for a reader and for an owner, and says it is JSON", async () => {
    await create(owner.token, { title: "Byte check", hiddenTestCases: [{ input: SECRET_IN, expectedOutput: SECRET_OUT }] });
    for (const who of [other, owner]) {
      const { res, text, body } = await listAs(who.token);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("application/json");
      expect(text).toBe(JSON.stringify(body));
      expect(Number(res.headers.get("content-length") ?? Buffer.byteLength(text))).toBe(Buffer.byteLength(text));
    }
    // The owner's copy carries the hidden tests; the shared one never does, before or after the owner's request.
    expect((await listAs(owner.token)).text).toContain(SECRET_IN);
    const again = await listAs(other.token);
    expect(again.text).not.toContain(SECRET_IN);
    expect(again.text).not.toContain("hiddenTestCases");
  });

  test("a reader's list is fresh after every write: create, update, tests replaced, direct SQL, delete", async () => {
    const before = await listAs(other.token);
    const p = await create(owner.token, { title: "Fresh one" });
    const afterCreate = await listAs(other.token);
    expect(afterCreate.body.length).toBe(before.body.length + 1);
    expect(afterCreate.body.find((x) => x._id === p._id)?.title).toBe("Fresh one");

    await request(app, "PUT", `/api/problems/${p._id}`, { token: owner.token, body: { title: "Fresh two" } });
    expect((await listAs(other.token)).body.find((x) => x._id === p._id)?.title).toBe("Fresh two");

    await request(app, "PUT", `/api/problems/${p._id}`, {
      token: owner.token,
      body: { hiddenTestCases: [{ input: "1\n", expectedOutput: "2\n" }, { input: "2\n", expectedOutput: "3\n" }, { input: "3\n", expectedOutput: "4\n" }] },
    });
    const counted = (await listAs(other.token)).body.find((x) => x._id === p._id) as { hiddenTestCount?: number };
    expect(counted.hiddenTestCount).toBe(3);
    // The owner sees the replaced tests at once.
    const mine = (await listAs(owner.token)).body.find((x) => x._id === p._id)!;
    expect(mine.hiddenTestCases).toHaveLength(3);

    // As another process or an operator would write: straight to the database.
    await t.services.db.update(problems).set({ title: "Fresh three" }).where(eq(problems.id, p._id));
    expect((await listAs(other.token)).body.find((x) => x._id === p._id)?.title).toBe("Fresh three");

    await request(app, "DELETE", `/api/problems/${p._id}`, { token: owner.token });
    const afterDelete = await listAs(other.token);
    expect(afterDelete.body.some((x) => x._id === p._id)).toBe(false);
    expect(afterDelete.body.length).toBe(before.body.length);
  });

  test("compressed once for clients that accept gzip: the same JSON, Vary set; plain for the others", async () => {
    await create(owner.token, { title: "Zip me" });
    const plain = await app.request("/api/problems", { headers: { authorization: `Bearer ${other.token}` } });
    const plainText = await plain.text();
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toContain("Accept-Encoding");
    const zipped = await app.request("/api/problems", {
      headers: { authorization: `Bearer ${other.token}`, "accept-encoding": "gzip, deflate, br" },
    });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("content-type")).toStartWith("application/json");
    const raw = new Uint8Array(await zipped.arrayBuffer());
    expect(raw.length).toBeLessThan(Buffer.byteLength(plainText));
    expect(new TextDecoder().decode(Bun.gunzipSync(raw))).toBe(plainText);
    const refused = await app.request("/api/problems", {
      headers: { authorization: `Bearer ${other.token}`, "accept-encoding": "gzip;q=0, identity" },
    });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect(await refused.text()).toBe(plainText);
    // The owner's list (own hidden tests spliced in) is correct JSON whatever the client accepts.
    const mine = await app.request("/api/problems", {
      headers: { authorization: `Bearer ${owner.token}`, "accept-encoding": "gzip" },
    });
    const mineRaw = new Uint8Array(await mine.arrayBuffer());
    const mineText = new TextDecoder().decode(mine.headers.get("content-encoding") === "gzip" ? Bun.gunzipSync(mineRaw) : mineRaw);
    expect(JSON.parse(mineText).some((p: { hiddenTestCases?: unknown }) => Array.isArray(p.hiddenTestCases))).toBe(true);
  });

  test("a session renewed by the list request still gets its new cookie and X-Session-Token", async () => {
    const { sessions } = await import("../../db/schema.ts");
    const { hashSessionId } = await import("../auth/session.ts");
    const u = await signUp(app);
    const sid = JSON.parse(Buffer.from(u.token.split(".")[1]!, "base64url").toString()).sid;
    await t.services.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(sessions.id, hashSessionId(sid)));
    const res = await request(app, "GET", "/api/problems", { token: u.token });
    expect(res.status).toBe(200);
    const renewed = res.headers.get("x-session-token");
    expect(renewed).toBeTruthy();
    expect(res.headers.getSetCookie().find((c) => c.startsWith("oj_session="))).toContain(renewed!);
  });
});

describe("bad ids and bodies are 400s naming the field", () => {
  test("an id longer than 64 characters on every :id route", async () => {
    const long = "x".repeat(65);
    const cases = [
      await request(app, "GET", `/api/problems/${long}`),
      await request(app, "PUT", `/api/problems/${long}`, { token: owner.token, body: { title: "T" } }),
      await request(app, "DELETE", `/api/problems/${long}`, { token: owner.token }),
    ];
    for (const res of cases) expect([res.status, res.body.field, res.body.code]).toEqual([400, "id", "BAD_INPUT"]);
    const history = await request(app, "GET", `/api/submissions/${long}`, { token: owner.token });
    expect([history.status, history.body.field]).toEqual([400, "problemId"]);
  });

  test("PUT and POST with malformed JSON or a non-object body", async () => {
    const p = await create(owner.token);
    const put = await request(app, "PUT", `/api/problems/${p._id}`, { token: owner.token, rawBody: "{title:" });
    expect([put.status, put.body.field]).toEqual([400, "body"]);
    const post = await request(app, "POST", "/api/problems", { token: owner.token, rawBody: '"just a string"' });
    expect([post.status, post.body.field]).toEqual([400, "body"]);
    // Unchanged by the failed update.
    expect((await request(app, "GET", `/api/problems/${p._id}`)).body.__v).toBe(0);
  });
});
