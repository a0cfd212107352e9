/**
 * testlib's exit codes read as Polygon reads them (src/judge/testlib.ts); the
 * real checkers and interactors run in tests/packages/polygon.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type { RunResult } from "../../isolate/types.ts";
import { partialWithoutPoints, passFailVerdict, testlibOutcome } from "./testlib.ts";

const run = (exitCode: number | null, stderr = "", status: RunResult["status"] = exitCode === 0 ? "OK" : "RE", signal: number | null = null): RunResult => ({
  status, exitCode, signal, stderr, cpuTimeMs: 1, wallTimeMs: 1, memoryKib: 1, stdout: "", stdoutTruncated: false,
});

describe("testlib exit codes", () => {
  test("0 AC, 1 WA with the message, 2 WA as a presentation error, 3 IE (the checker's failure)", () => {
    expect(testlibOutcome(run(0, "ok 3 numbers"), false)).toEqual({ verdict: "AC" });
    expect(testlibOutcome(run(1, "wrong answer expected 3, found 4\n"), false)).toEqual({ verdict: "WA", reason: "checker: wrong answer expected 3, found 4" });
    expect(testlibOutcome(run(2, "wrong output format Unexpected end of file"), false)).toEqual({ verdict: "WA", reason: "checker: presentation error: wrong output format Unexpected end of file" });
    expect(testlibOutcome(run(3, "FAIL answer file is broken"), false)).toEqual({ verdict: "IE", reason: "checker failed (exit 3, FAIL): FAIL answer file is broken" });
  });

  test("7 with points X: a percent as a multiplier, else X points; without `points X` it is IE", () => {
    expect(testlibOutcome(run(7, "points 50 half of it"), true)).toEqual({ verdict: "AC", scoreFile: { kind: "multiplier", text: "0.5" } });
    expect(testlibOutcome(run(7, "points 12.5 some"), false)).toEqual({ verdict: "AC", scoreFile: { kind: "score", text: "12.5" } });
    expect(testlibOutcome(run(7, "partially correct"), false).verdict).toBe("IE");
  });

  test("any other exit, a signal, a limit or a sandbox failure is IE, never a user verdict", () => {
    for (const r of [run(5), run(4), run(8), run(null, "", "SG", 11), run(null, "", "TLE"), run(null, "", "XX")]) {
      expect(testlibOutcome(r, false, "interactor").verdict).toBe("IE");
    }
    expect(testlibOutcome(run(5), false, "interactor")).toEqual({ verdict: "IE", reason: "interactor exited 5: not a testlib verdict (0, 1, 2, 3, 7)" });
  });

  test("partial credit where points cannot count is WA, full marks AC", () => {
    expect(partialWithoutPoints({ kind: "multiplier", text: "1" })).toEqual({ verdict: "AC" });
    expect(partialWithoutPoints({ kind: "multiplier", text: "0.5" }).verdict).toBe("WA");
    expect(partialWithoutPoints({ kind: "score", text: "10" }).verdict).toBe("WA");
    expect(passFailVerdict({ verdict: "AC", scoreFile: { kind: "multiplier", text: "0.25" } })).toBe("WA");
    expect(passFailVerdict({ verdict: "TLE" })).toBe("TLE");
  });
});
