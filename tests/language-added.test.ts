/**
 * A language added later is one file: in a copy of this repository, a
 * throw-away "C++20" record (isolate/languages/cpp20.ts, built on cpp.ts) and
 * its registry entry are the only change. The copy still type-checks (no map
 * elsewhere needs an entry), its registry and editor-mode tests pass, and its
 * server offers C++20, judges a C++20 program AC (which C++17 refuses: its
 * flags are used), imports a package example naming it (submissions.yaml
 * `language: cpp20`), verifies it AC through the sandbox and exports it back.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

// Type-checks a whole copy of the repository, then compiles C++20 without the precompiled header (built for
// C++17) twice: minutes of CPU on a busy two-core machine (it timed out at 240 s beside the rest).
setDefaultTimeout(480_000);
const ROOT = join(import.meta.dir, "..");
const copy = mkdtempSync(join(tmpdir(), "oj-added-language-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const RECORD = `/** C++20 (GCC): a throw-away language added by tests/language-added.test.ts. */
import type { Language } from "./types.ts";
import { cpp } from "./cpp.ts";

export const cpp20: Language<"cpp20"> = {
  ...cpp,
  id: "cpp20",
  name: "C++20",
  displayName: "C++20 (GCC)",
  compilerFlags: cpp.compilerFlags.map((f) => (f.startsWith("-std=") ? "-std=gnu++20" : f)),
  compileArgv(sourceFile, extraFlags) {
    return cpp.compileArgv.call(this, sourceFile, extraFlags);
  },
  package: { code: "cpp20", aliases: [], extensions: [] },
};
`;

/** A + B with C++20's ranges and three-way comparison: C++17 does not compile it. */
const CPP20_SUM = `#include <bits/stdc++.h>
int main() {
  std::vector<long long> v(2);
  for (auto& x : v) std::cin >> x;
  std::ranges::sort(v);
  auto c = v[0] <=> v[1];
  std::cout << v[0] + v[1] + (c == 0 ? 0 : 0) << "\\n";
}
`;

/** The package fixture's problem (print yes, then 1/n) in C++20. */
const CPP20_THIRDS = `#include <bits/stdc++.h>
int main() {
  long long n;
  std::cin >> n;
  std::vector<long long> v{n, 1};
  std::ranges::sort(v);
  std::cout << "yes\\n" << std::fixed << std::setprecision(9) << ((n <=> 0LL) > 0 ? 1.0 / n : 0.0) << "\\n";
}
`;

const DRIVER = `
import { startJudgeApp } from "./judge/app.ts";
import { problemBody, request, signUp } from "./api.ts";
import { modernPackage, zipOf } from "./packages/fixtures.ts";
import { filesFromZip } from "../src/packages/files.ts";
import { readPackage } from "../src/packages/format.ts";
const ja = await startJudgeApp(400);
const out: Record<string, unknown> = {};
try {
  const me = await signUp(ja.app);
  out.offered = (await request(ja.app, "GET", "/api/languages")).body.languages.map((l: { id: string }) => l.id);
  const p = await request(ja.app, "POST", "/api/problems", {
    token: me.token,
    body: problemBody({ title: "A Plus B", sampleInput: "40 2\\n", sampleOutput: "42\\n", hiddenTestCases: [{ input: "-5 7\\n", expectedOutput: "2\\n" }] }),
  });
  const code = ${JSON.stringify(CPP20_SUM)};
  const submit = (language: string) => request(ja.app, "POST", "/api/submissions", { token: me.token, body: { problemId: p.body._id, language, code } });
  out.verdicts = { cpp20: (await submit("cpp20")).body.verdict, cpp: (await submit("cpp")).body.verdict };
  // The fixture's own examples (Python, Java) are left out: only the C++20 one is this test's to verify.
  const files = Object.fromEntries(Object.entries(modernPackage({
    "submissions/accepted/ranges.cpp": ${JSON.stringify(CPP20_THIRDS)},
    "submissions/submissions.yaml": "accepted/ranges.cpp:\\n  language: cpp20\\n",
  })).filter(([path]) => !path.startsWith("submissions/") || path.endsWith("ranges.cpp") || path.endsWith("submissions.yaml")));
  const zip = zipOf(files);
  const form = new FormData();
  form.set("package", new Blob([Buffer.from(zip)], { type: "application/zip" }), "p.zip");
  const imported = await (await ja.app.request("/api/problems/import", { method: "POST", headers: { authorization: \`Bearer \${me.token}\` }, body: form })).json();
  const verify = async () => {
    await ja.app.request(\`/api/problems/\${imported.problem._id}/verify\`, { method: "POST", headers: { authorization: \`Bearer \${me.token}\` } });
    for (let i = 0; i < 600; i++) {
      const st = await (await ja.app.request(\`/api/problems/\${imported.problem._id}/verify\`, { headers: { authorization: \`Bearer \${me.token}\` } })).json();
      if (st.state !== "running") return st;
      await Bun.sleep(200);
    }
    return { state: "timed out" };
  };
  const verified = await verify();
  out.verified = [verified.state, verified.rows?.filter((r: { path: string }) => r.path.endsWith("ranges.cpp")).map((r: { verdict: string }) => r.verdict)];
  const exported = new Uint8Array(await (await ja.app.request(\`/api/problems/\${imported.problem._id}/package\`, { headers: { authorization: \`Bearer \${me.token}\` } })).arrayBuffer());
  const again = await readPackage(filesFromZip(exported));
  out.exported = again.submissions.filter((s) => s.path.endsWith(".cpp")).map((s) => [s.path, s.language]);
} finally {
  await ja.close();
}
console.log("RESULT " + JSON.stringify(out));
`;

test("a throw-away language is one file and a registry line: offered, judged, imported and exported", async () => {
  // The repository as committed (tracked files), sharing node_modules.
  const files = Bun.spawnSync(["git", "ls-files", "-z"], { cwd: ROOT }).stdout.toString().split("\0").filter(Boolean);
  expect(files.length).toBeGreaterThan(100);
  for (const f of files) {
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    cpSync(join(ROOT, f), join(copy, f));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));

  // The whole change: one new file, and the registry's import and entry.
  writeFileSync(join(copy, "isolate/languages/cpp20.ts"), RECORD);
  const index = readFileSync(join(copy, "isolate/languages/index.ts"), "utf8");
  const registry = /const REGISTRY = \{ ([^}]*) \} as const;/;
  expect(index).toMatch(registry);
  writeFileSync(
    join(copy, "isolate/languages/index.ts"),
    index.replace('import { c } from "./c.ts";', 'import { c } from "./c.ts";\nimport { cpp20 } from "./cpp20.ts";').replace(registry, (_m, ids) => `const REGISTRY = { ${ids}, cpp20 } as const;`),
  );

  const run = (argv: string[]) => {
    const p = Bun.spawnSync(argv, { cwd: copy, stdout: "pipe", stderr: "pipe", env: { ...process.env, NODE_ENV: "test" } });
    return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
  };
  const typecheck = run(["bun", "run", "typecheck"]);
  expect(`${typecheck.code} ${typecheck.code === 0 ? "" : typecheck.out.slice(-2000)}`).toBe("0 ");
  const tests = run(["bun", "test", "isolate/languages", "client/src/editor/modes.test.ts"]);
  expect(`${tests.code} ${tests.code === 0 ? "" : tests.out.slice(-2000)}`).toBe("0 ");

  writeFileSync(join(copy, "tests/added-language-driver.ts"), DRIVER);
  const driven = run(["bun", "tests/added-language-driver.ts"]);
  const line = driven.out.split("\n").find((l) => l.startsWith("RESULT "));
  expect(line ?? driven.out.slice(-3000)).toStartWith("RESULT ");
  const result = JSON.parse(line!.slice("RESULT ".length));
  expect(result.offered).toContain("cpp20");
  expect(result.verdicts).toEqual({ cpp20: "AC", cpp: "CE" });
  expect(result.verified).toEqual(["done", ["AC"]]);
  expect(result.exported).toEqual([["submissions/accepted/ranges.cpp", "cpp20"]]);
});
