/**
 * The similarity engine on programs written here (tests/fixtures/similarity.ts):
 * every judge language tokenizes; disguised copies rank above independent
 * solutions of the same problem; starter code is ignored; languages are not
 * mixed unless asked; fragments point at the copied code.
 */
import { describe, expect, test } from "bun:test";
import { FingerprintIndex } from "@dodona/dolos-core";
import { LANGUAGE_IDS, LANGUAGES } from "../../isolate/languages/index.ts";
import * as F from "../../tests/fixtures/similarity.ts";
import { randomProgram, render } from "../../scripts/lib/similarity-corpus.ts";
import { analyse, DEFAULT_ENGINE, pairFragments, type Program } from "./engine.ts";
import { GRAMMARS } from "./grammars.ts";
import { tokenizeProgram, tokenizeWith, parserFor } from "./tokenizer.ts";

const prog = (id: string, code: string, language: Program["language"] = "cpp", past = false): Program => ({ id, language, code, past });
const pairOf = (a: Awaited<ReturnType<typeof analyse>>, x: string, y: string) => a.pairs.find((p) => (p.left === x && p.right === y) || (p.left === y && p.right === x));

describe("tokenizer", () => {
  test("every judge language has a grammar that parses its boilerplate without errors", async () => {
    for (const id of LANGUAGE_IDS) {
      const grammar = GRAMMARS[id];
      expect(grammar, id).toBeDefined();
      const { tokens } = tokenizeWith(await parserFor(grammar!), LANGUAGES[id].boilerplate);
      expect(tokens.length, id).toBeGreaterThan(10);
      expect(tokens.includes("ERROR"), `${id}: ${tokens.join(" ")}`).toBe(false);
    }
  });

  test("names, literals, comments and layout do not change the tokens; structure does", async () => {
    const p = await parserFor(GRAMMARS.cpp!);
    const a = tokenizeWith(p, "int main() { int x = 1; return x; }");
    const b = tokenizeWith(p, "// entry\nint   main()\n{\n  /* v */ int total = 42;\n  return total; // done\n}\n");
    const c = tokenizeWith(p, "int main() { int x = 1; while (x) x--; return x; }");
    expect(b.tokens).toEqual(a.tokens);
    expect(c.tokens).not.toEqual(a.tokens);
    expect(a.tokens.slice(0, 4)).toEqual(["(", "translation_unit", "(", "function_definition"]);
  });

  test("each token maps to the source its node starts at", async () => {
    const file = (await tokenizeProgram("x", "py", "def f(a):\n    return a + 1\n"))!;
    const at = (type: string) => file.mapping[file.tokens.indexOf(type)]!;
    expect(at("return_statement")).toMatchObject({ startRow: 1, startCol: 4 });
    expect(at("binary_operator")).toMatchObject({ startRow: 1, startCol: 11 });
    expect(file.tokens.length).toBe(file.mapping.length);
  });
});

describe("accuracy", () => {
  const sets: [string, Program["language"], string, string, string[]][] = [
    ["C++", "cpp", F.CPP_MERGE, F.CPP_MERGE_DISGUISED, [F.CPP_FENWICK, F.CPP_MERGE_OTHER, F.CPP_BRUTE]],
    ["Python", "py", F.PY_MERGE, F.PY_MERGE_DISGUISED, [F.PY_FENWICK, F.PY_BRUTE, F.PY_BOTTOM_UP]],
    ["Java", "java", F.JAVA_MERGE, F.JAVA_MERGE_DISGUISED, [F.JAVA_FENWICK, F.JAVA_BRUTE]],
  ];
  for (const [name, language, original, copy, independent] of sets) {
    test(`${name}: the disguised copy is the most similar pair, well above any independent solution`, async () => {
      const programs = [prog("original", original, language), ...independent.map((code, i) => prog(`independent${i}`, code, language)), prog("copy", copy, language)];
      const a = await analyse(programs, [{ language, code: LANGUAGES[language].boilerplate }]);
      expect(a.pairsTotal).toBe((programs.length * (programs.length - 1)) / 2);
      expect([a.pairs[0]!.left, a.pairs[0]!.right].sort()).toEqual(["copy", "original"]);
      const copied = a.pairs[0]!.similarity;
      const nextBest = a.pairs[1]!.similarity;
      expect(copied).toBeGreaterThan(0.6);
      expect(copied - nextBest).toBeGreaterThan(0.25);
      expect(a.best.copy).toEqual({ similarity: copied, with: "original" });
      expect(a.pairs[0]!.longest).toBeGreaterThan(3);
    });
  }

  test("the instructor's starter code is ignored: independent solutions sharing it are not similar", async () => {
    const withStarter = (code: string) => F.CPP_STARTER + code.replace("#include <bits/stdc++.h>\nusing namespace std;\n", "");
    const programs = [prog("a", withStarter(F.CPP_FENWICK)), prog("b", withStarter(F.CPP_BRUTE)), prog("c", withStarter(F.CPP_MERGE)), prog("d", withStarter(F.CPP_MERGE_DISGUISED))];
    const blind = await analyse(programs, []);
    const told = await analyse(programs, [{ language: "cpp", code: F.CPP_STARTER }]);
    expect(pairOf(blind, "a", "b")!.similarity).toBeGreaterThan(0.4);
    expect(pairOf(told, "a", "b")!.similarity).toBeLessThan(0.15);
    expect([told.pairs[0]!.left, told.pairs[0]!.right]).toEqual(["c", "d"]);
    expect(told.pairs[0]!.similarity).toBeGreaterThan(0.6);
  });

  test("code in more than the max share of programs is ignored; a copy still stands out", async () => {
    // Twelve programs that all carry the same helpers, two of which also share their solution.
    const helper = "\nint gcdOf(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }\nint lcmOf(int a, int b) { return a / gcdOf(a, b) * b; }\nlong long powMod(long long b, long long e, long long m) { long long r = 1; b %= m; while (e > 0) { if (e & 1) r = r * b % m; b = b * b % m; e >>= 1; } return r; }\n";
    const independent = (i: number) => render(randomProgram(100 + i, 2));
    const programs = Array.from({ length: 12 }, (_, i) => prog(`p${i}`, (i === 10 ? F.CPP_MERGE : i === 11 ? F.CPP_MERGE_DISGUISED : independent(i)) + helper));
    const blind = await analyse(programs, [], { ...DEFAULT_ENGINE, maxShare: 1 });
    const a = await analyse(programs, []);
    expect(blind.groups[0]!.ignoredHashes).toEqual([]);
    expect(a.groups[0]!.ignoredHashes.length).toBeGreaterThan(0);
    expect([a.pairs[0]!.left, a.pairs[0]!.right]).toEqual(["p10", "p11"]);
    // The helpers made independent programs look alike; ignored, they no longer do.
    expect(a.pairs[1]!.similarity).toBeLessThan(blind.pairs[1]!.similarity);
  });

  test("C and C++ are compared only when asked; past programs meet current ones only", async () => {
    const c = `#include <stdio.h>\nint a[200005];\nint main(void) {\n    int n;\n    if (scanf("%d", &n) != 1) return 0;\n    for (int i = 0; i < n; ++i) scanf("%d", a + i);\n    long long cnt = 0;\n    for (int i = 0; i < n; ++i)\n        for (int j = i + 1; j < n; ++j)\n            if (a[i] > a[j]) ++cnt;\n    printf("%lld\\n", cnt);\n    return 0;\n}\n`;
    const apart = await analyse([prog("c", c, "c"), prog("cpp", F.CPP_BRUTE)], []);
    expect(apart.pairsTotal).toBe(0);
    expect(apart.groups.map((g) => g.grammar).sort()).toEqual(["c", "cpp"]);
    const together = await analyse([prog("c", c, "c"), prog("cpp", F.CPP_BRUTE)], [], { ...DEFAULT_ENGINE, crossLanguage: true });
    expect(together.pairs[0]!.similarity).toBeGreaterThan(0.8);

    const past = await analyse([prog("old1", F.CPP_MERGE, "cpp", true), prog("old2", F.CPP_MERGE, "cpp", true), prog("now", F.CPP_MERGE_DISGUISED)], []);
    expect(past.pairsTotal).toBe(2);
    expect(past.best.now!.similarity).toBeGreaterThan(0.6);
    expect(past.best.old1).toBeUndefined();
  });

  test("a language without a grammar is reported as not compared, not compared as text", async () => {
    const { cpp: _gone, ...withoutCpp } = GRAMMARS;
    const a = await analyse([prog("x", F.CPP_MERGE), prog("y", F.CPP_MERGE), prog("z", F.PY_MERGE, "py")], [], DEFAULT_ENGINE, () => {}, withoutCpp);
    expect(a.notCompared.map((n) => n.id)).toEqual(["x", "y"]);
    expect(a.notCompared[0]!.why).toContain("no grammar for cpp");
    expect(a.pairsTotal).toBe(0);
  });

  test("covered counts equal dolos-core's Pair (the similarity's denominator counts ignored occurrences)", async () => {
    const files = await Promise.all([F.CPP_MERGE, F.CPP_MERGE_DISGUISED, F.CPP_FENWICK].map((code, i) => tokenizeProgram(`f${i}`, "cpp", code)));
    const index = new FingerprintIndex(23, 17, false);
    index.addFiles(files.map((f) => f!));
    const pair = index.getPair(files[0]!, files[1]!);
    const a = await analyse([prog("f0", F.CPP_MERGE), prog("f1", F.CPP_MERGE_DISGUISED), prog("f2", F.CPP_FENWICK)], []);
    const ours = pairOf(a, "f0", "f1")!;
    expect([ours.leftCovered, ours.rightCovered, ours.longest]).toEqual([pair.leftCovered, pair.rightCovered, pair.longest]);
    expect(ours.similarity).toBeCloseTo(pair.similarity, 10); // nothing ignored: the same number
  });
});

describe("fragments", () => {
  test("the shared fragments of a copy point at the merge loop on both sides", async () => {
    const frags = await pairFragments(prog("l", F.CPP_MERGE), prog("r", F.CPP_MERGE_DISGUISED), [{ language: "cpp", code: LANGUAGES.cpp.boilerplate }], []);
    expect(frags.length).toBeGreaterThan(0);
    // The merge loop: line 9 (0-based) of the original, line 22 of the copy.
    const loop = frags.find((f) => f.left.startRow <= 9 && f.left.endRow >= 9);
    expect(loop).toBeDefined();
    expect(loop!.right.startRow).toBeLessThanOrEqual(22);
    expect(loop!.right.endRow).toBeGreaterThanOrEqual(22);
    expect(frags[0]!.length).toBeGreaterThanOrEqual(frags[frags.length - 1]!.length);
  });

  test("programs of different grammars have no fragments", async () => {
    expect(await pairFragments(prog("l", F.CPP_MERGE), prog("r", F.PY_MERGE, "py"), [], [])).toEqual([]);
  });
});

describe("problems", () => {
  test("solutions to different problems are never paired, even when identical (decision 057)", async () => {
    const programs: Program[] = [
      { ...prog("a1", F.CPP_MERGE), problemId: "A" },
      { ...prog("b1", F.CPP_MERGE), problemId: "B" },
      { ...prog("a2", F.CPP_MERGE_DISGUISED), problemId: "A" },
      { ...prog("b2", F.CPP_FENWICK), problemId: "B" },
    ];
    const a = await analyse(programs, []);
    expect(a.pairsTotal).toBe(2); // a1–a2 and b1–b2, not the six of one pool
    expect(a.pairs.map((p) => [p.left, p.right].sort().join("-")).sort()).toEqual(["a1-a2", "b1-b2"]);
    expect(a.best.b1!.with).toBe("b2");
    expect(a.groups.map((g) => g.problemId).sort()).toEqual(["A", "B"]);
  });
});
