/**
 * Every language end to end, on every backend: the server offers it (GET
 * /api/languages), and its registry self-test program (A + B) submitted
 * through POST /api/submissions is compiled, run on every test and judged AC
 * by the real queue consumer, once on bubblewrap and once on each isolate the
 * test command built (or one installed), which /api/health names. The
 * programs come from the registry only: a language added later is covered
 * here without touching this file.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { LANGUAGE_IDS, LANGUAGES } from "../../isolate/languages/index.ts";
import { isolateCandidates } from "../../isolate/test-backends.ts";
import { problemBody, request, signUp } from "../api.ts";
import { startJudgeApp, type JudgeApp } from "./app.ts";

setDefaultTimeout(180_000);

const variants: { label: string; env: Record<string, string>; sandbox: string; mode: RegExp; boxOffset: number }[] = [
  { label: "bwrap", env: {}, sandbox: "bwrap", mode: /^bwrap \(/, boxOffset: 320 },
  ...isolateCandidates()
    .filter((c) => !c.missing)
    .map((c, i) => ({
      label: c.label,
      env: { SANDBOX: "isolate", ISOLATE_BIN: c.bin! },
      sandbox: "isolate",
      mode: new RegExp(`^isolate \\d+\\.\\d+(\\.\\d+)?, ${c.memory === "address-space" ? "rlimit" : "cgroup"} mode`),
      boxOffset: 340 + 20 * i,
    })),
];

for (const v of variants) {
  describe(`every language through the API on ${v.label}`, () => {
    let ja: JudgeApp;
    let token = "";
    let problemId = "";
    beforeAll(async () => {
      ja = await startJudgeApp(v.boxOffset, v.env);
      token = (await signUp(ja.app)).token;
      const created = await request(ja.app, "POST", "/api/problems", {
        token,
        body: problemBody({
          title: "A Plus B",
          sampleInput: "40 2\n",
          sampleOutput: "42\n",
          hiddenTestCases: [
            { input: "1 2\n", expectedOutput: "3\n" },
            { input: "-5 7\n", expectedOutput: "2\n" },
            { input: "1000000000 1000000000\n", expectedOutput: "2000000000\n" },
          ],
        }),
      });
      expect(created.status).toBe(201);
      problemId = created.body._id;
    });
    afterAll(async () => {
      await ja?.close();
    });

    test(`/api/health names the backend and its mode`, async () => {
      const health = await request(ja.app, "GET", "/api/health");
      expect(health.body.sandbox).toBe(v.sandbox);
      expect(health.body.sandboxMode).toMatch(v.mode);
    });

    test("GET /api/languages offers every registered language (all are installed for the tests)", async () => {
      const res = await request(ja.app, "GET", "/api/languages");
      expect(res.status).toBe(200);
      expect(res.body.languages.map((l: { id: string }) => l.id)).toEqual([...LANGUAGE_IDS]);
      expect(res.body.languages[0]).toEqual({ id: "cpp", name: "C++", displayName: LANGUAGES.cpp.displayName, timeMultiplier: 1, editorMode: "cpp" });
    });

    test("each language's own program is AC on every test", async () => {
      const answers = await Promise.all(
        LANGUAGE_IDS.map((language) =>
          request(ja.app, "POST", "/api/submissions", { token, body: { problemId, language, code: LANGUAGES[language].selfTest.code } }).then((r) => ({
            language,
            r,
          })),
        ),
      );
      for (const { language, r } of answers) {
        const detail = r.body.verdict === "AC" ? "" : ` ${JSON.stringify(r.body).slice(0, 400)}`;
        expect(`${language}: ${r.status} ${r.body.verdict} ${r.body.testsPassed}/${r.body.testsTotal}${detail}`).toBe(`${language}: 201 AC 4/4`);
      }
    });
  });
}
