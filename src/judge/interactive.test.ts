/**
 * The verdict of an interactive pass from both runs, in problemtools' order
 * (verifyproblem.py validate_interactive), and the transcript's text. The
 * same rules on the real sandbox: the golden suite's *-interactive-* cases.
 */
import { describe, expect, test } from "bun:test";
import type { RunResult } from "../../isolate/types.ts";
import { interactiveVerdict, reportedRun, transcriptText } from "./interactive.ts";

const run = (over: Partial<RunResult>): RunResult => ({
  status: "OK", exitCode: 0, signal: null, cpuTimeMs: 10, wallTimeMs: 20, memoryKib: 1000, stdout: "", stderr: "", stdoutTruncated: false, ...over,
});
const accepted = run({ exitCode: 42, status: "RE" });
const rejected = run({ exitCode: 43, status: "RE" });

describe("interactiveVerdict", () => {
  test.each([
    ["both fine, the validator accepts", run({}), accepted, false, "AC"],
    ["both fine, the validator rejects after the submission ended", run({}), rejected, false, "WA"],
    ["the validator rejects first: WA even though the submission then hung", run({ status: "TLE", tleKind: "wall", exitCode: null }), rejected, true, "WA"],
    ["the validator rejects first: WA even though the submission then crashed", run({ status: "RE", exitCode: 1 }), rejected, true, "WA"],
    ["the submission wrote to the closed pipe (SIGPIPE): the validator had decided first", run({ status: "SG", signal: 13, exitCode: null }), rejected, false, "WA"],
    ["SIGPIPE and an accepting validator: the validator decides", run({ status: "SG", signal: 13, exitCode: null }), accepted, false, "AC"],
    ["the submission's TLE stands when the validator was not first", run({ status: "TLE", tleKind: "cpu", exitCode: null }), rejected, false, "TLE"],
    ["the submission's TLE stands over an acceptance (outlasting is no way to AC)", run({ status: "TLE", tleKind: "cpu", exitCode: null }), accepted, false, "TLE"],
    ["the submission's MLE stands", run({ status: "MLE", exitCode: null, signal: 9 }), accepted, false, "MLE"],
    ["the submission's RE stands when it ended first", run({ status: "RE", exitCode: 3 }), rejected, false, "RE"],
    ["a validator exiting 0 is IE, never AC", run({}), run({ exitCode: 0 }), false, "IE"],
    ["a validator killed by a signal is IE", run({}), run({ status: "SG", signal: 11, exitCode: null }), true, "IE"],
    ["a validator over its CPU limit is IE", run({}), run({ status: "TLE", tleKind: "cpu", exitCode: null }), false, "IE"],
    ["a validator still running at the interaction's wall clock counts as a rejection", run({}), run({ status: "TLE", tleKind: "wall", exitCode: null }), false, "WA"],
    ["a sandbox failure of the submission is IE", run({ status: "XX", exitCode: null }), accepted, false, "IE"],
    ["a sandbox failure of the validator is IE", run({}), run({ status: "XX", exitCode: null }), false, "IE"],
  ] as [string, RunResult, RunResult, boolean, string][])("%s", (_, submission, validator, validatorFirst, verdict) => {
    expect(interactiveVerdict(submission, validator, validatorFirst).verdict).toBe(verdict as never);
  });

  test("a WA the validator decided first says so (verify lets it stand over a slow run)", () => {
    expect(interactiveVerdict(run({ status: "TLE", tleKind: "wall", exitCode: null }), rejected, true)).toMatchObject({ verdict: "WA", validatorFirst: true });
    expect(interactiveVerdict(run({}), rejected, false).validatorFirst).toBeUndefined();
  });
});

describe("transcriptText", () => {
  test("writes the format's .interaction lines: < from the validator, > from the program, --- between passes", () => {
    expect(
      transcriptText([
        { entries: [{ from: "program", text: "? 5\n" }, { from: "peer", text: "<\n" }, { from: "program", text: "? 2\n? 3\n" }], truncated: false },
        { entries: [{ from: "peer", text: "=\n" }], truncated: true },
      ]),
    ).toBe(">? 5\n<<\n>? 2\n>? 3\n---\n<=\n[… the rest of the interaction is not shown]\n");
    expect(transcriptText([])).toBe("");
  });

  test("the reported run is the slowest pass, with the most memory any pass used", () => {
    const r = reportedRun([run({ cpuTimeMs: 50, memoryKib: 9000 }), run({ cpuTimeMs: 80, memoryKib: 3000 })]);
    expect(r).toMatchObject({ cpuTimeMs: 80, memoryKib: 9000 });
  });
});
