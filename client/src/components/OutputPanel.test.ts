/**
 * The solving page's short status line (what the polite live region says and
 * where focus goes after Run and Submit): the verdict with the tests passed,
 * or the first failing test, never the per-test chatter while judging.
 */
import "../i18n/testing.ts";
import { describe, expect, test } from "bun:test";
import { i18n } from "@lingui/core";
import en from "../i18n/catalog/solve/en.json";
import type { SolveT, SubmissionProgress } from "./output-status.ts";
// After testing.ts (Lingui compiles the raw catalogue here): the module translates through `t`.
const { statusText: statusIn } = await import("./output-status.ts");

// The solve catalogue's English, as the page's useT(solve) gives it.
i18n.load("en", Object.fromEntries(Object.entries(en).map(([key, message]) => [`solve.${key}`, message])));
const t: SolveT = (key, values) => i18n._(`solve.${key}`, values as Record<string, unknown>);
const statusText = (state: Parameters<typeof statusIn>[0]) => statusIn(state, t);

const row = (index: number, verdict: string, isSample = false) => ({ index, isSample, verdict, timeMs: 10, memoryKib: 1024 });
const done = (verdict: string, tests: ReturnType<typeof row>[], extra: Partial<SubmissionProgress> = {}): SubmissionProgress => ({
  status: "done",
  testsDone: tests.length,
  testsTotal: 9,
  tests,
  verdict,
  compileOutput: null,
  ...extra,
});
const run = { output: "3\n", stderr: "", exitCode: 0, timeMs: 5, memoryKib: 900 };

describe("statusText", () => {
  test("a submission: Accepted with the tests passed, or the verdict on the first failing test", () => {
    const all = Array.from({ length: 9 }, (_, i) => row(i + 1, "AC", i === 0));
    expect(statusText({ kind: "submission", saved: true, progress: done("AC", all) })).toBe("Accepted, 9 of 9 tests");
    const wa = [row(1, "AC", true), row(2, "AC"), row(3, "WA")];
    expect(statusText({ kind: "submission", saved: false, progress: done("WA", wa) })).toBe("Wrong Answer on test 3");
    expect(statusText({ kind: "submission", saved: false, progress: done("TLE", [row(1, "TLE", true)]) })).toBe("Time Limit Exceeded on the sample test");
    expect(statusText({ kind: "submission", saved: false, progress: done("WA", [row(1, "WA")], { score: 45, maxScore: 100 }) })).toBe("Wrong Answer on test 1, 45/100 points");
    expect(statusText({ kind: "submission", saved: true, progress: done("AC", all, { score: 100, maxScore: 100 }) })).toBe("Accepted, 9 of 9 tests, 100/100 points");
    expect(statusText({ kind: "submission", saved: true, progress: done("AC", [row(1, "AC", true)], { testsTotal: 1 }) })).toBe("Accepted, 1 of 1 test");
    expect(statusText({ kind: "submission", saved: true, progress: done("AC", [], { testsTotal: 0 }) })).toBe("Accepted");
  });
  test("while judging it says Judging... (not each test)", () => {
    const p: SubmissionProgress = { status: "running", testsDone: 3, testsTotal: 9, tests: [], verdict: null, compileOutput: null };
    expect(statusText({ kind: "submission", saved: false, progress: p })).toBe("Judging...");
    expect(statusText({ kind: "submission", saved: false, progress: { ...p, testsDone: 4 } })).toBe("Judging...");
    expect(statusText({ kind: "pending", phase: "submitting" })).toBe("Submitting...");
  });
  test("a Run: the sample's result, the custom run, a compile error, an error", () => {
    expect(statusText({ kind: "run", notes: [], sample: { ...run, verdict: "AC", expected: "3\n", correct: true } })).toBe("Sample test passed");
    expect(statusText({ kind: "run", notes: [], sample: { ...run, verdict: "WA", expected: "4\n", correct: false } })).toBe("Sample test failed");
    expect(statusText({ kind: "run", notes: [], sample: { ...run, verdict: "RE", expected: "4\n", correct: false } })).toBe("Sample test failed: Runtime Error");
    expect(statusText({ kind: "run", notes: [], custom: { ...run, verdict: "OK" } })).toBe("Run finished");
    expect(statusText({ kind: "compileError", diagnostics: "line 1" })).toBe("Compilation Error");
    expect(statusText({ kind: "error", message: "Too many runs" })).toBe("Too many runs");
    expect(statusText({ kind: "empty" })).toBe("");
    expect(statusText({ kind: "run", notes: ["nothingToRun"] })).toBe("Nothing to run: enter some custom input.");
    expect(statusText({ kind: "pending", phase: "compiling" })).toBe("Compiling...");
  });
});
