/**
 * Topic tags through the real app and a real libSQL file: the vocabulary's
 * rules (a free word through slug, name or synonym), admin curation and its
 * refusals (403 for a non-admin, 400 naming the field, 404, 409), authors
 * choosing tags on their problems (an unknown word: 400 naming `tags` and the
 * word), and every problem read showing them, the cached list too.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../app.ts";
import { problemBody, request, signUp } from "../../../tests/api.ts";
import { createTestServices, type TestServices } from "../../../tests/services.ts";
import { setSiteRoles } from "../../accounts/user.ts";
import { normalizeTagWord } from "./words.ts";
import { trpcMutation } from "../../../tests/courses/fixtures.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
let admin: Awaited<ReturnType<typeof signUp>>;
let author: Awaited<ReturnType<typeof signUp>>;
let other: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
  admin = await signUp(app);
  author = await signUp(app);
  other = await signUp(app);
  await setSiteRoles(t.services.db, admin.user.id, { siteRole: "admin", canCreateCourses: false });
});
afterAll(() => t.cleanup());

const as = (who: { token: string }) => ({ token: who.token });

describe("the vocabulary", () => {
  test("a word is compared lower-cased, trimmed, with single inner spaces", () => {
    expect(normalizeTagWord("  Dynamic \t  Programming ")).toBe("dynamic programming");
  });

  test("lists the base vocabulary (signed in only), each tag with its synonyms", async () => {
    expect((await request(app, "GET", "/api/tags")).status).toBe(401);
    const res = await request(app, "GET", "/api/tags", as(other));
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(34);
    expect(res.body.find((x: { slug: string }) => x.slug === "dynamic-programming")).toEqual({ slug: "dynamic-programming", name: "Dynamic programming", synonyms: ["dp"] });
  });

  test("resolves a free word through its slug, its name or a synonym; a word that means nothing is a 404 naming `word`", async () => {
    for (const word of ["dp", " DP ", "dynamic-programming", "Dynamic   Programming"]) {
      const res = await request(app, "GET", `/api/tags/resolve?word=${encodeURIComponent(word)}`, as(other));
      expect([word, res.status, res.body]).toEqual([word, 200, { slug: "dynamic-programming", name: "Dynamic programming" }]);
    }
    expect((await request(app, "GET", `/api/tags/resolve?word=${encodeURIComponent("union find")}`, as(other))).body.slug).toBe("disjoint-set-union");
    const none = await request(app, "GET", "/api/tags/resolve?word=quantum", as(other));
    expect([none.status, none.body.code, none.body.field]).toEqual([404, "TAG_NOT_FOUND", "word"]);
    const missing = await request(app, "GET", "/api/tags/resolve", as(other));
    expect([missing.status, missing.body.field, missing.body.message]).toEqual([400, "word", "word: Required"]);
  });
});

describe("curation", () => {
  test("is for site admins only: a signed-in user gets 403 for every change, and the vocabulary stays as it was", async () => {
    const before = (await request(app, "GET", "/api/tags", as(other))).body;
    const attempts = [
      request(app, "POST", "/api/tags", { ...as(other), body: { slug: "sweep-line", name: "Sweep line" } }),
      request(app, "PATCH", "/api/tags/greedy", { ...as(other), body: { name: "Greed" } }),
      request(app, "POST", "/api/tags/greedy/synonyms", { ...as(other), body: { synonym: "greed" } }),
      request(app, "DELETE", "/api/tags/dynamic-programming/synonyms/dp", as(other)),
      request(app, "POST", "/api/tags/games/merge", { ...as(other), body: { into: "math" } }),
      request(app, "DELETE", "/api/tags/games", as(other)),
      request(app, "GET", "/api/tags/usage", as(other)),
    ];
    for (const res of await Promise.all(attempts)) expect([res.status, res.body.code]).toEqual([403, "FORBIDDEN"]);
    expect((await request(app, "GET", "/api/tags", as(other))).body).toEqual(before);
  });

  test("creates a tag; bad fields are 400s naming them; a slug or name that already means a tag is a 409", async () => {
    const made = await request(app, "POST", "/api/tags", { ...as(admin), body: { slug: "sweep-line", name: "  Sweep   line " } });
    expect([made.status, made.body]).toEqual([201, { slug: "sweep-line", name: "Sweep line", synonyms: [] }]);
    const bad = await request(app, "POST", "/api/tags", { ...as(admin), body: { slug: "Sweep Line!", name: "X" } });
    expect([bad.status, bad.body.field]).toEqual([400, "slug"]);
    const noName = await request(app, "POST", "/api/tags", { ...as(admin), body: { slug: "x-y" } });
    expect([noName.status, noName.body.message]).toEqual([400, "name: Required"]);
    const taken = await request(app, "POST", "/api/tags", { ...as(admin), body: { slug: "dp", name: "Dee Pee" } });
    expect([taken.status, taken.body.code, taken.body.field]).toEqual([409, "TAG_WORD_TAKEN", "slug"]);
    expect(taken.body.message).toContain("dynamic-programming");
    const nameTaken = await request(app, "POST", "/api/tags", { ...as(admin), body: { slug: "greedy-2", name: "GREEDY" } });
    expect([nameTaken.status, nameTaken.body.field]).toEqual([409, "name"]);
  });

  test("a name outside ASCII resolves in any letter case", async () => {
    const made = await request(app, "POST", "/api/tags", { ...as(admin), body: { slug: "equations", name: "Équations Linéaires" } });
    expect(made.status).toBe(201);
    const res = await request(app, "GET", `/api/tags/resolve?word=${encodeURIComponent("ÉQUATIONS   linéaires")}`, as(other));
    expect([res.status, res.body.slug]).toEqual([200, "equations"]);
    expect((await request(app, "DELETE", "/api/tags/equations", as(admin))).status).toBe(200);
  });

  test("renames (the name only: the slug stays), adds and removes synonyms", async () => {
    const renamed = await request(app, "PATCH", "/api/tags/sweep-line", { ...as(admin), body: { name: "Sweep-line algorithms", slug: "ignored" } });
    expect([renamed.status, renamed.body.slug, renamed.body.name]).toEqual([200, "sweep-line", "Sweep-line algorithms"]);
    const clash = await request(app, "PATCH", "/api/tags/sweep-line", { ...as(admin), body: { name: "Greedy" } });
    expect([clash.status, clash.body.field]).toEqual([409, "name"]);
    const added = await request(app, "POST", "/api/tags/sweep-line/synonyms", { ...as(admin), body: { synonym: "  Plane   Sweep " } });
    expect([added.status, added.body.synonyms]).toEqual([201, ["plane sweep"]]);
    expect((await request(app, "GET", "/api/tags/resolve?word=plane%20sweep", as(other))).body.slug).toBe("sweep-line");
    const again = await request(app, "POST", "/api/tags/greedy/synonyms", { ...as(admin), body: { synonym: "plane sweep" } });
    expect([again.status, again.body.field]).toEqual([409, "synonym"]);
    const removed = await request(app, "DELETE", "/api/tags/sweep-line/synonyms/plane%20sweep", as(admin));
    expect([removed.status, removed.body.synonyms]).toEqual([200, []]);
    const gone = await request(app, "DELETE", "/api/tags/sweep-line/synonyms/plane%20sweep", as(admin));
    expect([gone.status, gone.body.field]).toEqual([404, "synonym"]);
    expect((await request(app, "PATCH", "/api/tags/no-such-tag", { ...as(admin), body: { name: "N" } })).status).toBe(404);
  });

  test("merges a tag into another: its problems and synonyms move, its slug and name become synonyms; then deletes", async () => {
    const a = await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Merge A", tags: ["sweep-line", "geometry"] }) });
    const b = await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Merge B", tags: ["sweep-line"] }) });
    await request(app, "POST", "/api/tags/sweep-line/synonyms", { ...as(admin), body: { synonym: "plane sweep" } });
    expect((await request(app, "GET", "/api/tags/usage", as(admin))).body["sweep-line"]).toBe(2);
    const self = await request(app, "POST", "/api/tags/sweep-line/merge", { ...as(admin), body: { into: "sweep-line" } });
    expect([self.status, self.body.field]).toEqual([400, "into"]);
    const unknown = await request(app, "POST", "/api/tags/sweep-line/merge", { ...as(admin), body: { into: "nope" } });
    expect([unknown.status, unknown.body.field]).toEqual([404, "into"]);

    const merged = await request(app, "POST", "/api/tags/sweep-line/merge", { ...as(admin), body: { into: "geometry" } });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ slug: "geometry", name: "Geometry", synonyms: ["computational geometry", "plane sweep", "sweep-line", "sweep-line algorithms"] });
    const slugsOf = async (id: string) => (await request(app, "GET", `/api/problems/${id}`)).body.tags.map((x: { slug: string }) => x.slug);
    expect(await slugsOf(a.body._id)).toEqual(["geometry"]);
    expect(await slugsOf(b.body._id)).toEqual(["geometry"]);
    expect((await request(app, "GET", "/api/tags/resolve?word=sweep-line", as(other))).body.slug).toBe("geometry");

    const deleted = await request(app, "DELETE", "/api/tags/geometry", as(admin));
    expect([deleted.status, deleted.body]).toEqual([200, { slug: "geometry" }]);
    expect(await slugsOf(a.body._id)).toEqual([]);
    expect((await request(app, "GET", "/api/tags/resolve?word=plane%20sweep", as(other))).status).toBe(404);
    expect((await request(app, "DELETE", "/api/tags/geometry", as(admin))).status).toBe(404);
  });
});

describe("authors choose tags", () => {
  test("create takes slugs or free words (each tag once); reads show {slug, name} by name; the list too", async () => {
    const res = await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Tagged", tags: ["DP", "graphs", "dynamic-programming", "Union Find"] }) });
    expect(res.status).toBe(201);
    const expected = [
      { slug: "disjoint-set-union", name: "Disjoint set union" },
      { slug: "dynamic-programming", name: "Dynamic programming" },
      { slug: "graphs", name: "Graphs" },
    ];
    expect(res.body.tags).toEqual(expected);
    expect((await request(app, "GET", `/api/problems/${res.body._id}`)).body.tags).toEqual(expected);
    const list = await request(app, "GET", "/api/problems", as(other));
    expect(list.body.find((p: { _id: string }) => p._id === res.body._id).tags).toEqual(expected);
    // A problem made without tags has none.
    const plain = await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Plain" }) });
    expect(plain.body.tags).toEqual([]);
  });

  test("an unknown word is a 400 naming `tags` and the word; more than 8 is a 400; nothing is written", async () => {
    const unknown = await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Unknown tag", tags: ["dp", "quantum annealing"] }) });
    expect([unknown.status, unknown.body.code, unknown.body.field]).toEqual([400, "BAD_INPUT", "tags"]);
    expect(unknown.body.message).toContain('"quantum annealing"');
    const many = ["math", "greedy", "dp", "graphs", "sorting", "strings", "trees", "hashing", "games"];
    const tooMany = await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Too many", tags: many }) });
    expect([tooMany.status, tooMany.body.field, tooMany.body.message]).toEqual([400, "tags", "tags: At most 8 tags"]);
    const notList = await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Not a list", tags: "dp" }) });
    expect([notList.status, notList.body.field]).toEqual([400, "tags"]);
    const list = await request(app, "GET", "/api/problems", as(author));
    expect(list.body.map((p: { title: string }) => p.title)).not.toContain("Unknown tag");
  });

  test("update replaces the tags ([] clears them, absent keeps them); only whoever may edit the problem sets them", async () => {
    const p = (await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Retag", tags: ["math"] }) })).body;
    const slugs = (body: { tags: { slug: string }[] }) => body.tags.map((x) => x.slug);
    const kept = await request(app, "PUT", `/api/problems/${p._id}`, { ...as(author), body: { title: "Retag 2" } });
    expect(slugs(kept.body)).toEqual(["math"]);
    const changed = await request(app, "PUT", `/api/problems/${p._id}`, { ...as(author), body: { tags: ["bfs", "maths"] } });
    expect([changed.status, slugs(changed.body)]).toEqual([200, ["graph-traversal", "math"]]);
    const refused = await request(app, "PUT", `/api/problems/${p._id}`, { ...as(other), body: { tags: [] } });
    expect(refused.status).toBe(403);
    const bad = await request(app, "PUT", `/api/problems/${p._id}`, { ...as(author), body: { tags: ["nonsense"] } });
    expect([bad.status, bad.body.field]).toEqual([400, "tags"]);
    expect(slugs((await request(app, "GET", `/api/problems/${p._id}`)).body)).toEqual(["graph-traversal", "math"]);
    const cleared = await request(app, "PUT", `/api/problems/${p._id}`, { ...as(author), body: { tags: [] } });
    expect(cleared.body.tags).toEqual([]);
  });

  test("a copy into a course keeps the tags; the course's problem list shows them", async () => {
    const p = (await request(app, "POST", "/api/problems", { ...as(admin), body: problemBody({ title: "To copy", tags: ["strings", "hashing"] }) })).body;
    const course = await request(app, "POST", "/api/courses", { ...as(admin), body: { title: "Tags course", code: `TG${Math.floor(Math.random() * 1e6)}` } });
    expect(course.status).toBe(201);
    const copy = await trpcMutation(app, admin.token, "problems.copyToCourse", { problemId: p._id, courseId: course.body.id });
    expect(copy.status).toBe(200);
    expect(copy.data.tags.map((x: { slug: string }) => x.slug)).toEqual(["hashing", "strings"]);
    const listed = await request(app, "GET", `/api/courses/${course.body.id}/problems`, as(admin));
    expect(listed.body.find((x: { _id: string }) => x._id === copy.data._id).tags.map((x: { slug: string }) => x.slug)).toEqual(["hashing", "strings"]);
  });

  test("a rename shows at once in the cached problem list (the curation makes it stale)", async () => {
    const p = (await request(app, "POST", "/api/problems", { ...as(author), body: problemBody({ title: "Cached", tags: ["trees"] }) })).body;
    const nameIn = async () => (await request(app, "GET", "/api/problems", as(other))).body.find((x: { _id: string }) => x._id === p._id).tags[0].name;
    expect(await nameIn()).toBe("Trees");
    await request(app, "PATCH", "/api/tags/trees", { ...as(admin), body: { name: "Tree algorithms" } });
    expect(await nameIn()).toBe("Tree algorithms");
  });

  test("through tRPC's input too: the problems router's create names `tags` in its 400", async () => {
    const res = await request(app, "POST", "/trpc/problems.create", { ...as(author), body: problemBody({ title: "Via tRPC", tags: ["nope"] }) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('tags: \\"nope\\" is not a topic tag');
  });
});
