/** GET /api/problems in both forms (the spec's whole list; one bank page with parameters) and GET /api/problems/tags, over REST. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../app.ts";
import { problemBody, request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
let author: Awaited<ReturnType<typeof signUp>>;
let reader: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
  author = await signUp(app);
  reader = await signUp(app);
  for (const [title, difficulty] of [["Add One", "easy"], ["Shortest Paths", "hard"], ["Binary Trees", "medium"]] as const) {
    const res = await request(app, "POST", "/api/problems", { token: author.token, body: problemBody({ title, difficulty }) });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.cleanup());

describe("GET /api/problems", () => {
  test("without parameters: the spec's array of every problem, as before", async () => {
    const res = await request(app, "GET", "/api/problems", { token: reader.token });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((p: { title: string }) => p.title)).toEqual(["Add One", "Shortest Paths", "Binary Trees"]);
    expect(res.body[0]).toHaveProperty("_id");
    expect(res.body[0]).toHaveProperty("description");
  });

  test("an unrelated parameter keeps the spec's form", async () => {
    const res = await request(app, "GET", "/api/problems?foo=1", { token: reader.token });
    expect(Array.isArray(res.body)).toBe(true);
  });

  test("with the bank's parameters: one page, then the next by its cursor", async () => {
    const first = await request(app, "GET", "/api/problems?limit=2", { token: reader.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 3, difficultyCounts: { easy: 1, medium: 1, hard: 1 }, hideTags: false });
    expect(first.body.problems.map((p: { title: string }) => p.title)).toEqual(["Binary Trees", "Shortest Paths"]);
    expect(first.body.problems[0]).not.toHaveProperty("description");
    const next = await request(app, "GET", `/api/problems?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: reader.token });
    expect(next.body.problems.map((p: { title: string }) => p.title)).toEqual(["Add One"]);
    expect(next.body.nextCursor).toBeNull();
  });

  test("search, difficulty, sort and status in the query", async () => {
    const found = await request(app, "GET", "/api/problems?q=path%20short&sort=title", { token: reader.token });
    expect(found.body.problems.map((p: { title: string }) => p.title)).toEqual(["Shortest Paths"]);
    expect(found.body.problems[0].match.field).toBe("title");
    const hard = await request(app, "GET", "/api/problems?difficulty=hard", { token: reader.token });
    expect(hard.body.total).toBe(1);
    const untried = await request(app, "GET", "/api/problems?status=untried&source=public", { token: reader.token });
    expect(untried.body.total).toBe(3);
  });

  test("bad parameters are 400s naming the field", async () => {
    for (const [query, field] of [
      ["difficulty=extreme", "difficulty"],
      ["limit=1000", "limit"],
      ["limit=abc", "limit"],
      ["sort=random", "sort"],
      ["status=maybe", "status"],
      ["source=mars", "source"],
      ["tag=Not%20A%20Slug!", "tag"],
      ["cursor=garbage", "cursor"],
      [`q=${"x".repeat(201)}`, "q"],
    ] as const) {
      const res = await request(app, "GET", `/api/problems?${query}`, { token: reader.token });
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("BAD_INPUT");
      expect(res.body.field, query).toBe(field);
    }
    const first = await request(app, "GET", "/api/problems?limit=1", { token: reader.token });
    const other = await request(app, "GET", `/api/problems?limit=1&sort=solvers&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: reader.token });
    expect(other.status).toBe(400);
    expect(other.body.field).toBe("cursor");
  });

  test("signed out: 401 in both forms", async () => {
    expect((await request(app, "GET", "/api/problems")).status).toBe(401);
    expect((await request(app, "GET", "/api/problems?limit=5")).status).toBe(401);
  });
});

test("GET /api/problems/tags: every tag with its public problem count", async () => {
  const res = await request(app, "GET", "/api/problems/tags");
  expect(res.status).toBe(200);
  const graphs = res.body.find((x: { slug: string }) => x.slug === "graphs");
  expect(graphs).toEqual({ slug: "graphs", name: "Graphs", problems: 0 });
});
