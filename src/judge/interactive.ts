/**
 * One test of an interactive or multi-pass problem (the package format's
 * `type: interactive` and `type: multi-pass`), judged as problemtools does.
 *
 * Interactive: the submission and the problem's validator run at the same
 * time, each in its own box, connected by two pipes (isolate/pipes.ts):
 *
 *   validator input judge_answer feedback_dir [args] < submission_output > submission_input
 *
 * The verdict, in problemtools' order (verifyproblem.py validate_interactive,
 * support/interactive/interactive.cc):
 * 1. the validator crashed, hit a limit other than the interaction's wall
 *    clock, or exited with neither 42 nor 43: IE (never AC);
 * 2. the validator rejected (43) and ended first: WA, whatever the submission
 *    then did (died, hung, wrote to a closed pipe);
 * 3. the submission's TLE, MLE, RE (OLE for a file past its limit) stand;
 *    a submission killed by SIGPIPE (it wrote after the validator left) is
 *    treated as a normal exit, the validator decides;
 * 4. the validator's verdict: 42 AC, 43 WA. A validator still running when
 *    the interaction's wall clock ends counts as a rejection (problemtools
 *    assumes 43 there).
 * The interaction's wall clock is twice the time limit (problemtools:
 * `2 * timelim`); the validator gets one more second to finish. CPU time and
 * memory reported are the submission's own.
 *
 * Multi-pass: after an accepting pass the validator may write `nextpass.in`
 * in its feedback directory; the submission then runs again with it as
 * input (and the validator with it as its input file, as BAPCtools runs it),
 * up to `passes` runs (`limits.validation_passes`). The validator's other
 * feedback files persist between the passes of a test (the format's
 * "Multi-pass validation"), so it may keep state there. The verdict is
 * the first non-AC pass's, else AC. `nextpass.in` after a rejection or after
 * the last pass allowed is IE (the problem's fault). Before every pass the
 * submission's box is emptied and its compiled files written again: nothing
 * it wrote in one pass (state, a rewritten source) reaches the next.
 *
 * A testlib problem (a Polygon package's, ./testlib.ts): the peer is its
 * interactor, `interactor input tout`, read by testlib's exit codes in the
 * same order; when it accepts, the checker judges its `tout` as the output.
 */
import { prepareProgram, runProgram } from "../../isolate/exec.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import { runConnected, type TranscriptEntry } from "../../isolate/pipes.ts";
import type { Box, RunResult } from "../../isolate/types.ts";
import type { ArtifactFile } from "./compile-cache.ts";
import { retryOnSandboxFailure } from "./compile.ts";
import { judgedBy, validatorOutcome, validatorRequest, VALIDATOR_LIMITS, type ReadyValidator, type ValidatorOutcome } from "./validator.ts";
import type { ScoreFile } from "./groups.ts";
import { decideVerdict, type TestVerdict } from "./verdict.ts";

/** Signals of Linux a verdict reads. */
const SIGPIPE = 13;

/** Extra wall time the validator gets beyond the interaction's, ms. */
export const VALIDATOR_GRACE_MS = 1000;

/** Bytes of an interaction recorded for a transcript (the rest is relayed, not kept). */
export const TRANSCRIPT_LIMIT_BYTES = 64 * 1024;

/** The largest `nextpass.in` read, bytes (a test input's own limit). */
const NEXT_PASS_MAX_BYTES = 16 * 1024 * 1024;

/** One pass of a transcript: what was said, in order. */
export interface TranscriptPass {
  entries: TranscriptEntry[];
  truncated: boolean;
}

export interface PassedTest {
  verdict: TestVerdict;
  /** For IE and WA: where it went wrong, for the operator (never hidden data). */
  reason?: string;
  /** The submission's run of each pass, in order (time and memory are read from these). */
  runs: RunResult[];
  /** The sample interaction, pass by pass, when asked for. */
  transcript?: TranscriptPass[];
  /** The submission's output of the last pass (multi-pass without interaction; "" when interactive). */
  output: string;
  /** WA because the validator rejected and ended first (problemtools lets that stand over a TLE at any limit). */
  validatorFirst?: boolean;
  /** The validator ran on the last pass (its feedback files are this test's). */
  validatorRan: boolean;
  /** A testlib checker's partial credit (exit 7) on an accepted test (./testlib.ts). */
  scoreFile?: ScoreFile;
}

export interface PassedTestInput {
  /** The submission's box and the validator's: never the same one. */
  box: Box;
  vbox: Box;
  validator: ReadyValidator;
  language: LanguageId;
  entry: string;
  /** The submission's compiled files: written before each pass (the box is emptied between passes). */
  files: ArtifactFile[];
  /** Whether the box already holds `files` for the first pass (compiled there). */
  filesInBox: boolean;
  /** The submission's CPU time limit (the language's multiplier applied), memory and output limits. */
  limits: { timeLimitMs: number; memoryLimitKib: number; outputLimitBytes: number };
  input: string;
  answer: string;
  interactive: boolean;
  /** Runs of the submission at most (1: not multi-pass). */
  passes: number;
  /** Record the interaction (a sample shown to the student). */
  transcript?: boolean;
}

/**
 * Judges one test of an interactive and/or multi-pass problem.
 * @returns the verdict, the submission's runs and, when asked, the transcript.
 * @throws only when a box fails (writing files, making pipes): the caller's IE.
 */
export async function judgePassedTest(t: PassedTestInput): Promise<PassedTest> {
  const runs: RunResult[] = [];
  const transcript: TranscriptPass[] = [];
  let input = t.input;
  let output = "";
  let validatorRan = false;
  const done = (verdict: TestVerdict, reason?: string): PassedTest => ({
    verdict,
    validatorRan,
    ...(reason ? { reason } : {}),
    runs,
    ...(t.transcript && t.interactive ? { transcript } : {}),
    output,
  });
  for (let pass = 1; pass <= t.passes; pass++) {
    // Multi-pass: every pass starts from a box holding only the compiled files.
    if (t.passes > 1 || !t.filesInBox) await freshBox(t.box, t.files);
    const outcome = t.interactive ? await interactivePass(t, input, transcript, pass > 1) : await plainPass(t, input, pass > 1);
    runs.push(outcome.run);
    output = outcome.output;
    validatorRan = outcome.validatorRan;
    if (outcome.verdict !== "AC") {
      if (outcome.verdict === "WA" && (await nextPassInput(t.vbox)) !== null) {
        return done("IE", `pass ${pass}: the validator rejected and wrote nextpass.in`);
      }
      return { ...done(outcome.verdict, outcome.reason ? `pass ${pass}: ${outcome.reason}` : undefined), ...(outcome.validatorFirst ? { validatorFirst: true } : {}) };
    }
    const next = await nextPassInput(t.vbox);
    if (next === null) return { ...done("AC"), ...(outcome.scoreFile ? { scoreFile: outcome.scoreFile } : {}) };
    if (pass === t.passes) {
      return done("IE", t.passes === 1 ? "the validator wrote nextpass.in but the problem is not multi-pass" : `the validator wrote nextpass.in after the last pass allowed (${t.passes})`);
    }
    input = next;
  }
  return done("IE", "no pass ran");
}

/** Empties the submission's box and writes its compiled files again. */
async function freshBox(box: Box, files: ArtifactFile[]): Promise<void> {
  if (!box.listFiles || !box.removeFile) throw new Error("the sandbox cannot empty a box between passes");
  for (const name of await box.listFiles()) await box.removeFile(name);
  for (const f of files) await box.writeFile(f.name, f.content, f.mode);
}

async function nextPassInput(vbox: Box): Promise<string | null> {
  const bytes = await vbox.readFile("nextpass.in", NEXT_PASS_MAX_BYTES);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

interface PassOutcome {
  validatorRan: boolean;
  scoreFile?: ScoreFile;
  verdict: TestVerdict;
  reason?: string;
  validatorFirst?: boolean;
  run: RunResult;
  output: string;
}

/** A pass without interaction: the submission runs on `input`, then the validator reads its output. */
async function plainPass(t: PassedTestInput, input: string, laterPass: boolean): Promise<PassOutcome> {
  const run = await retryOnSandboxFailure(
    () => runProgram(t.box, t.language, { entry: t.entry, stdin: input, ...t.limits }),
    (r) => r,
  );
  if (run.status !== "OK") return { ...decideVerdict(run, "", "lines"), run, output: run.stdout, validatorRan: false };
  const req = await validatorRequest(t.vbox, t.validator, input, t.answer, {}, laterPass);
  const checked = validatorOutcome(await retryOnSandboxFailure(() => t.vbox.run({ ...req, stdin: run.stdout }), (r) => r));
  return { ...checked, run, output: run.stdout, validatorRan: true };
}

/** An interactive pass: the submission and the validator connected by pipes. */
async function interactivePass(t: PassedTestInput, input: string, transcript: TranscriptPass[], laterPass: boolean): Promise<PassOutcome> {
  // problemtools: the interaction's wall clock is twice the time limit.
  const wallTimeLimitMs = 2 * t.limits.timeLimitMs;
  const program = await prepareProgram(t.box, t.language, { entry: t.entry, ...t.limits, wallTimeLimitMs });
  const vreq = await validatorRequest(t.vbox, t.validator, input, t.answer, {
    wallTimeLimitMs: wallTimeLimitMs + VALIDATOR_GRACE_MS,
    cpuTimeLimitMs: Math.min(VALIDATOR_LIMITS.cpuTimeLimitMs, wallTimeLimitMs + VALIDATOR_GRACE_MS),
  }, laterPass);
  // A sandbox failure of either side is retried as a whole interaction (the validator's input is unchanged).
  // A testlib problem's peer is its interactor (`interactor input tout`); its checker reads tout afterwards.
  const testlib = t.validator.testlib;
  const peerReq = testlib?.interactorArgv ? { ...vreq, argv: testlib.interactorArgv } : vreq;
  const connected = await retryOnSandboxFailure(
    () => runConnected({ box: t.box, req: program.req }, { box: t.vbox, req: peerReq }, t.transcript ? { transcript: { limitBytes: TRANSCRIPT_LIMIT_BYTES } } : {}),
    (c) => (c.program.status === "XX" ? c.program : c.peer),
  );
  if (connected.transcript) transcript.push(connected.transcript);
  const run = program.reclassify(connected.program);
  const decided = interactiveVerdict(run, connected.peer, connected.peerEndedFirst, (r) => judgedBy(t.validator, r, "interactor"));
  if (testlib?.interactorArgv && decided.verdict === "AC" && !decided.scoreFile) {
    // Polygon: the interactor accepted, the checker judges its tout as the output.
    const checked = judgedBy(t.validator, await retryOnSandboxFailure(() => t.vbox.run({ ...VALIDATOR_LIMITS, argv: t.validator.argv }), (r) => r));
    return { ...checked, run, output: "", validatorRan: true };
  }
  return { ...decided, run, output: "", validatorRan: true };
}

/**
 * The verdict of one interactive pass from both runs (problemtools' order,
 * see the file's comment).
 * @param peerEndedFirst the validator's run ended before the submission's.
 */
export function interactiveVerdict(
  submission: RunResult,
  validator: RunResult,
  peerEndedFirst: boolean,
  /** How the validator's run reads (a testlib interactor's exit codes: ./testlib.ts); the Kattis protocol by default. */
  judge: (r: RunResult) => ValidatorOutcome = validatorOutcome,
): { verdict: TestVerdict; reason?: string; validatorFirst?: boolean; scoreFile?: ScoreFile } {
  if (submission.status === "XX") return { verdict: "IE", reason: `sandbox failure: ${submission.message ?? "unknown"}` };
  // The interaction's wall clock ended a validator that had not decided: a rejection (problemtools).
  const undecided = validator.status === "TLE" && validator.tleKind === "wall";
  const judged: ValidatorOutcome = undecided ? { verdict: "WA" } : judge(validator);
  if (judged.verdict === "IE") return { verdict: "IE", reason: judged.reason };
  const brokenPipe = (submission.status === "SG" || submission.status === "RE") && submission.signal === SIGPIPE;
  // Writing to a pipe the validator had closed means the validator had left first.
  if (judged.verdict === "WA" && (peerEndedFirst || brokenPipe)) return { verdict: "WA", reason: judged.reason ?? "the validator rejected first", validatorFirst: true };
  if (submission.status !== "OK" && !brokenPipe) return decideVerdict(submission, "", "lines");
  if (judged.verdict === "AC") return judged.scoreFile ? { verdict: "AC", scoreFile: judged.scoreFile } : { verdict: "AC" };
  return { verdict: "WA", reason: judged.reason ?? "the validator rejected" };
}

/**
 * A transcript as the format's `.interaction` files write one: `<` before a
 * line the validator sent (the submission read it), `>` before a line the
 * submission wrote, `---` between passes.
 */
export function transcriptText(passes: TranscriptPass[]): string {
  const out: string[] = [];
  passes.forEach((pass, i) => {
    if (i > 0) out.push("---");
    for (const e of pass.entries) {
      const mark = e.from === "peer" ? "<" : ">";
      for (const line of e.text.replace(/\n$/, "").split("\n")) out.push(mark + line);
    }
    if (pass.truncated) out.push("[… the rest of the interaction is not shown]");
  });
  return out.length ? `${out.join("\n")}\n` : "";
}

/** The run of a test to report: the slowest pass (its time and the most memory any pass used). */
export function reportedRun(runs: RunResult[]): RunResult {
  const slowest = runs.reduce((a, b) => (b.cpuTimeMs > a.cpuTimeMs || b.status !== "OK" ? b : a));
  return { ...slowest, memoryKib: Math.max(...runs.map((r) => r.memoryKib)) };
}
