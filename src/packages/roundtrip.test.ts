/**
 * Export as a package and import again: the same problem and the same
 * verdicts (through the real sandbox), and only the owner may export.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { filesFromZip } from "./files.ts";
import { readPackage } from "./format.ts";
import { request, signUp } from "../../tests/api.ts";
import { startJudgeApp, type JudgeApp } from "../../tests/judge/app.ts";
import { JUDGE_TEST_BOX_ID_START } from "../../tests/judge/fixtures.ts";
import { modernPackage, zipOf } from "../../tests/packages/fixtures.ts";

setDefaultTimeout(60_000);
let ja: JudgeApp;
let app: JudgeApp["app"];

beforeAll(async () => {
  // Boxes 5448–5455, its own: it runs beside the main run (scripts/test.sh run B, decision 054).
  ja = await startJudgeApp(5448 - JUDGE_TEST_BOX_ID_START, { ISOLATE_BOX_ID_COUNT: "8" });
  app = ja.app;
}, 60_000);

afterAll(async () => {
  await ja?.close();
});

async function exportZip(token: string, id: string) {
  const res = await app.request(`/api/problems/${id}/package`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), notes: res.headers.get("x-package-notes"), bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function importZip(token: string, zip: Uint8Array) {
  const form = new FormData();
  form.set("package", new Blob([Buffer.from(zip)], { type: "application/zip" }), "p.zip");
  const res = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await res.json();
  expect([res.status, body.error]).toEqual([201, undefined]);
  return body.problem;
}

/** The owner's view of a problem (hidden tests included). */
async function ownView(token: string, id: string) {
  const list = await request(app, "GET", "/api/problems", { token });
  const p = list.body.find((x: { _id: string }) => x._id === id);
  const { _id, user, __v, createdAt, updatedAt, difficulty, ...content } = p;
  void _id; void user; void __v; void createdAt; void updatedAt; void difficulty;
  return content;
}

const PROGRAMS = {
  ac: "n = int(input() or 0)\nprint('YES')\nprint('%.7f' % (1 / n if n else 0))\n",
  wa: "input()\nprint('no')\n",
  re: "raise SystemExit(3)\n",
};

describe("export and import again", () => {
  test("a problem written here comes back the same, and judges the same", async () => {
    const me = await signUp(app);
    const created = await request(app, "POST", "/api/problems", {
      token: me.token,
      body: {
        title: "Round Trip",
        description: "Print **yes**, then $\\frac{1}{n}$.\n\n- a list\n- of things",
        inputFormat: "One integer $n$.",
        outputFormat: "Two lines.",
        constraints: "$1 \\le n \\le 10^9$",
        sampleInput: "3\n",
        sampleOutput: "yes\n0.333333333\n",
        difficulty: "medium",
        hiddenTestCases: [
          { input: "4\n", expectedOutput: "yes\n0.25\n" },
          { input: "", expectedOutput: "yes\n0\n" },
          ...Array.from({ length: 11 }, (_, i) => ({ input: `${i + 5}\n`, expectedOutput: `yes\n${1 / (i + 5)}\n` })),
        ],
        timeLimitMs: 1500,
        memoryLimitKib: 131072,
        checker: "kattis",
        checkerFlags: "float_tolerance 1e-6",
        timeScaledByLanguage: false,
        // Topic tags: a synonym and a slug; they leave as problem.yaml's keywords and come back as the same tags.
        tags: ["dp", "graphs"],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.tags).toEqual([
      { slug: "dynamic-programming", name: "Dynamic programming" },
      { slug: "graphs", name: "Graphs" },
    ]);
    const out = await exportZip(me.token, created.body._id);
    expect(out.status).toBe(200);
    expect(out.type).toBe("application/zip");
    expect(out.disposition).toBe('attachment; filename="round-trip.zip"');
    expect(out.notes).toBeNull();
    const pkg = await readPackage(filesFromZip(out.bytes));
    expect(pkg.formatVersion).toBe("2025-09");
    expect(pkg.keywords).toEqual(["dynamic-programming", "graphs"]);
    expect(pkg.tests.map((x) => x.name).slice(0, 4)).toEqual(["data/sample/001", "data/secret/001", "data/secret/002", "data/secret/003"]);

    const again = await importZip(me.token, out.bytes);
    expect(await ownView(me.token, again._id)).toEqual(await ownView(me.token, created.body._id));

    for (const [name, code] of Object.entries(PROGRAMS)) {
      const [a, b] = await Promise.all(
        [created.body._id, again._id].map((problemId) => request(app, "POST", "/api/submissions", { token: me.token, body: { problemId, code, language: "py" } })),
      );
      const summary = (r: NonNullable<typeof a>) => `${r.body.verdict} ${r.body.testsPassed}/${r.body.testsTotal} ${r.body.tests.map((x: { verdict: string }) => x.verdict).join(",")}`;
      expect(`${name}: ${summary(b!)}`).toBe(`${name}: ${summary(a!)}`);
    }
  });

  test("an imported package exports and imports unchanged", async () => {
    const me = await signUp(app);
    const first = await importZip(me.token, zipOf(modernPackage()));
    const exported = (await exportZip(me.token, first._id)).bytes;
    const second = await importZip(me.token, exported);
    expect(await ownView(me.token, second._id)).toEqual(await ownView(me.token, first._id));
    // What the problem does not show is kept too: the other language, the example submissions.
    const pkg = await readPackage(filesFromZip(exported));
    expect(pkg.translations).toEqual({ sv: "Skriv **ja**.\n" });
    expect(pkg.submissions.map((s) => s.path)).toEqual(["submissions/accepted/Thirds.java", "submissions/accepted/sol.py", "submissions/wrong_answer/no.py"]);
  });

  test("the statement's other languages are offered with the problem (GET /api/problems/:id/statements) and a main statement in Swedish stays the main one through export and import", async () => {
    const me = await signUp(app);
    const first = await importZip(me.token, zipOf(modernPackage()));
    const statements = await request(app, "GET", `/api/problems/${first._id}/statements`, { token: me.token });
    expect(statements!.status).toBe(200);
    expect(statements!.body).toEqual({ language: "en", translations: { sv: "Skriv **ja**.\n" } });

    const { "statement/problem.en.md": english, ...rest } = modernPackage({ "statement/problem.sv.md": "Skriv **ja** och sedan $\\frac{1}{n}$.\n" });
    const swedish = await importZip(me.token, zipOf({ ...rest, "statement/problem.tr.md": "Yaz **evet**.\n" }));
    expect(english).toBeDefined();
    const view = await request(app, "GET", `/api/problems/${swedish._id}/statements`, { token: me.token });
    expect(view!.body).toEqual({ language: "sv", translations: { tr: "Yaz **evet**.\n" } });
    const files = filesFromZip((await exportZip(me.token, swedish._id)).bytes);
    expect([...files.keys()].filter((k) => k.startsWith("statement/problem.")).sort()).toEqual(["statement/problem.sv.md", "statement/problem.tr.md"]);
    const again = await importZip(me.token, (await exportZip(me.token, swedish._id)).bytes);
    expect((await request(app, "GET", `/api/problems/${again._id}/statements`, { token: me.token }))!.body).toEqual(view!.body);
  });

  test("an example in PyPy (a .py the package names pypy3) stays PyPy through export and import; CPython's are not named", async () => {
    const me = await signUp(app);
    const first = await importZip(me.token, zipOf(modernPackage({ "submissions/submissions.yaml": "accepted/sol.py:\n  language: pypy3\n" })));
    const exported = (await exportZip(me.token, first._id)).bytes;
    const files = filesFromZip(exported);
    expect(new TextDecoder().decode(files.get("submissions/submissions.yaml")!)).toBe("accepted/sol.py:\n  language: pypy3\n");
    const pkg = await readPackage(files);
    expect(Object.fromEntries(pkg.submissions.map((s) => [s.path, s.language]))).toEqual({
      "submissions/accepted/Thirds.java": "java",
      "submissions/accepted/sol.py": "pypy",
      "submissions/wrong_answer/no.py": "py",
    });
  });

  test("a package that allows pypy3 and not python3 judges Python 3 on PyPy, exports so, and imports again the same; the importer may choose too", async () => {
    const me = await signUp(app);
    const yaml = "problem_format_version: 2025-09\nname: On PyPy\nlanguages: [cpp, java, pypy3]\nlimits:\n  time_limit: 2\n";
    const first = await importZip(me.token, zipOf(modernPackage({ "problem.yaml": yaml })));
    expect(first.pythonImplementation).toBe("pypy");
    const bytes = (await exportZip(me.token, first._id)).bytes;
    const exported = filesFromZip(bytes);
    expect(new TextDecoder().decode(exported.get("problem.yaml")!)).toContain("- pypy3");
    expect(new TextDecoder().decode(exported.get("problem.yaml")!)).not.toContain("python3");
    const second = await importZip(me.token, bytes);
    expect(await ownView(me.token, second._id)).toEqual(await ownView(me.token, first._id));
    // A Python 3 submission there runs on PyPy.
    const which = "import sys\ninput()\nprint('YES' if sys.implementation.name == 'pypy' else 'NO')\nprint('0.3333333')\n";
    const judged = await request(app, "POST", "/api/submissions", { token: me.token, body: { problemId: second._id, code: which, language: "py" } });
    expect(judged.body.tests?.[0]?.verdict ?? judged.body.verdict).not.toBe("IE");
    expect(judged.body.testsPassed).toBeGreaterThan(0);
    // Packages that allow both, or say nothing, stay on CPython; the importer may choose PyPy for one.
    for (const languages of ["[python3, pypy3]", "all", "cpp python3"]) {
      const p = await importZip(me.token, zipOf(modernPackage({ "problem.yaml": `problem_format_version: 2025-09\nname: X\nlanguages: ${languages}\n` })));
      expect([languages, p.pythonImplementation]).toEqual([languages, "cpython"]);
    }
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zipOf(modernPackage()))], { type: "application/zip" }), "p.zip");
    form.set("pythonImplementation", "pypy");
    const chosen = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${me.token}` }, body: form });
    expect(chosen.status).toBe(201);
    expect((await chosen.json()).problem.pythonImplementation).toBe("pypy");
  });

  test("checkers other than kattis export as their closest flags, saying when that is not exact", async () => {
    const me = await signUp(app);
    const base = { description: "d", inputFormat: "i", outputFormat: "o", constraints: "c", sampleInput: "1\n", sampleOutput: "1\n", difficulty: "easy" };
    const tokens = await request(app, "POST", "/api/problems", { token: me.token, body: { ...base, title: "T", checker: "tokens" } });
    const lines = await request(app, "POST", "/api/problems", { token: me.token, body: { ...base, title: "L" } });
    const t1 = await exportZip(me.token, tokens.body._id);
    expect((await readPackage(filesFromZip(t1.bytes))).validatorFlags).toBe("case_sensitive");
    expect(decodeURIComponent(t1.notes ?? "")).toContain("Java and Python had their multipliers");
    const l1 = await exportZip(me.token, lines.body._id);
    expect((await readPackage(filesFromZip(l1.bytes))).validatorFlags).toBe("case_sensitive space_change_sensitive");
    expect(decodeURIComponent(l1.notes ?? "")).toContain("the lines checker has no exact form");
  });

  test("problem.yaml's keywords become tags through synonyms; a keyword with no tag is a warning naming it, not a failed import", async () => {
    const me = await signUp(app);
    const yaml = "problem_format_version: 2025-09\nname: Keywords\nkeywords: [DP, 'Union Find', sorting, quantum annealing, dp]\nlimits:\n  time_limit: 2\n";
    const form = new FormData();
    form.set("package", new Blob([Buffer.from(zipOf(modernPackage({ "problem.yaml": yaml })))], { type: "application/zip" }), "p.zip");
    const res = await app.request("/api/problems/import", { method: "POST", headers: { authorization: `Bearer ${me.token}` }, body: form });
    const body = await res.json();
    expect(res.status).toBe(201);
    expect(body.problem.tags.map((t: { slug: string }) => t.slug)).toEqual(["disjoint-set-union", "dynamic-programming", "sorting"]);
    expect(body.warnings.filter((w: string) => w.includes("keyword"))).toEqual([
      'problem.yaml: keyword "quantum annealing" is not a topic tag here (nor a synonym of one): left out; an admin may add it to the vocabulary',
    ]);
    // A legacy package's keywords are one string of words.
    const legacy = await importZip(me.token, zipOf(modernPackage({ "problem.yaml": "name: Legacy\nkeywords: greedy bfs\nlimits:\n  time_limit: 2\n" })));
    expect(legacy.tags.map((t: { slug: string }) => t.slug)).toEqual(["graph-traversal", "greedy"]);
    // Export writes them back as keywords.
    const files = filesFromZip((await exportZip(me.token, body.problem._id)).bytes);
    expect((await readPackage(files)).keywords).toEqual(["disjoint-set-union", "dynamic-programming", "sorting"]);
  });

  test("only the owner exports (hidden tests are in it): others 403, signed out 401, unknown 404", async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const p = await importZip(owner.token, zipOf(modernPackage()));
    expect((await exportZip(other.token, p._id)).status).toBe(403);
    expect((await app.request(`/api/problems/${p._id}/package`)).status).toBe(401);
    expect((await exportZip(owner.token, "no-such-problem")).status).toBe(404);
  });
});
