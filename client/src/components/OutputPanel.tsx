/**
 * The solving page's output panel (min 180 px, max 300 px high,
 * scrolls). Shows, in order of a run's life: `Compiling...` or
 * `Submitting...`; then the custom-input run and the sample run (output,
 * expected output, result, time, memory); or, for a submission, a progress
 * bar and one row per test as the server judges, the final verdict and
 * `Submission saved.`. Hidden tests show verdict, time and memory only. A
 * compile error shows the spec's headline with the compiler's diagnostics.
 *
 * Above the panel, one short status line ("Accepted, 9 of 9 tests", "Wrong
 * Answer on test 3", "Sample test passed") is the only live region (polite):
 * the details below are not re-read. When a Run or a submission ends, focus
 * moves to that line (tabIndex -1), so a keyboard user reads the result next
 * and the details follow it in the reading order.
 */
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { formatKib, formatMs, verdictName } from "../lib/verdicts.ts";
import { judgingPhrase, testsPassedPhrase } from "../lib/judging-phrase.ts";
import { TestTable } from "./TestTable.tsx";
import { VerdictBadge, VerdictIcon } from "./VerdictBadge.tsx";

export interface RunOutcome {
  output: string;
  stderr: string;
  verdict: string;
  exitCode: number | null;
  timeMs: number;
  memoryKib: number;
}

export interface SampleOutcome extends RunOutcome {
  expected: string;
  correct: boolean;
  /** An interactive problem's sample: `output` is the interaction's transcript (`<` the validator, `>` the program). */
  interaction?: boolean;
}

export interface TestRow {
  index: number;
  isSample: boolean;
  verdict: string;
  timeMs: number;
  memoryKib: number;
}

export interface SubmissionProgress {
  status: "queued" | "compiling" | "running" | "done";
  /** Tests finished so far and tests in all (sample + hidden); total 0 until known. */
  testsDone: number;
  testsTotal: number;
  tests: TestRow[];
  verdict: string | null;
  compileOutput: string | null;
  /** While queued: submissions waiting before this one. */
  ahead?: number;
  /** The first failing hidden test, when the assignment's feedback policy shows it. */
  firstFailure?: { test: number; input: string; expectedOutput: string; actualOutput: string; stderr?: string } | null;
  /** A scoring problem: the score of the maximum, and each test group (verdict null: not run). */
  score?: number | null;
  maxScore?: number | null;
  groups?: { name: string; score: number; maxScore: number; verdict: string | null; testsRun: number }[] | null;
}

/** "45/100" with at most two decimals. */
export function scoreText(score: number, maxScore: number): string {
  const f = (n: number) => String(Math.round(n * 100) / 100);
  return `${f(score)}/${f(maxScore)}`;
}

export type OutputState =
  | { kind: "empty" }
  | { kind: "pending"; text: "Compiling..." | "Submitting..." }
  | { kind: "run"; custom?: RunOutcome; sample?: SampleOutcome; notes: string[] }
  | { kind: "compileError"; diagnostics: string }
  | { kind: "error"; message: string }
  | { kind: "submission"; progress: SubmissionProgress; saved: boolean };

/** The headline the product shows for a compile error (or any error mentioning syntax, compilation or expected). */
export const SYNTAX_ERROR_HEADLINE = "Error: There is a syntax error in your program.";

/** The headline with its cross mark (an SVG icon, no emoji font needed). */
function SyntaxErrorHeadline() {
  return (
    <p className="error-text strong icon-line">
      <VerdictIcon tone="fail" /> {SYNTAX_ERROR_HEADLINE}
    </p>
  );
}

/**
 * The short status of an output state, as the live region says it: "" when
 * there is nothing to say; "Judging..." while a submission is judged (not each
 * test); the verdict with the tests passed, or the first failing test, once done.
 */
export function statusText(state: OutputState): string {
  switch (state.kind) {
    case "empty":
      return "";
    case "pending":
      return state.text;
    case "error":
      return state.message;
    case "compileError":
      return "Compilation Error";
    case "run": {
      if (state.sample) {
        const v = state.sample.verdict;
        if (state.sample.correct) return "Sample test passed";
        return v && v !== "AC" && v !== "OK" && v !== "WA" ? `Sample test failed: ${verdictName(v)}` : "Sample test failed";
      }
      if (state.custom) return state.custom.verdict === "OK" || state.custom.verdict === "AC" ? "Run finished" : `Run finished: ${verdictName(state.custom.verdict)}`;
      return state.notes[0] ?? "";
    }
    case "submission": {
      const p = state.progress;
      if (p.status !== "done" || !p.verdict) return "Judging...";
      const name = verdictName(p.verdict);
      const score = p.score != null && p.maxScore != null ? `, ${scoreText(p.score, p.maxScore)} points` : "";
      if (p.verdict === "AC") return p.testsTotal > 0 ? `${name}, ${p.tests.filter((t) => t.verdict === "AC").length} of ${p.testsTotal} tests${score}` : `${name}${score}`;
      const failed = p.tests.find((t) => t.verdict !== "AC");
      const where = failed ? (failed.isSample ? " on the sample test" : ` on test ${failed.index}`) : "";
      return `${name}${where}${score}`;
    }
  }
}

/** A state that ends a Run or a submission (focus moves to the status then). */
function isFinal(state: OutputState): boolean {
  if (state.kind === "submission") return state.progress.status === "done" && state.progress.verdict !== null;
  return state.kind === "run" || state.kind === "compileError" || state.kind === "error";
}

function Metrics({ r }: { r: { timeMs: number; memoryKib: number; verdict: string; exitCode?: number | null } }) {
  return (
    <p className="metrics">
      <span>Time: {formatMs(r.timeMs)}</span>
      <span>Memory: {formatKib(r.memoryKib)}</span>
      {r.verdict !== "AC" && r.verdict !== "OK" && r.verdict !== "WA" && (
        <span className="error-text">
          {verdictName(r.verdict)}
          {r.exitCode ? ` (exit code ${r.exitCode})` : ""}
        </span>
      )}
    </p>
  );
}

/** A scrolling block of program text (max 220 px high): focusable and named, so a keyboard can scroll it. */
function PreBox({ label, className = "", children, testId }: { label: string; className?: string; children: ReactNode; testId?: string }) {
  return (
    <pre className={`pre-box ${className}`.trim()} tabIndex={0} role="region" aria-label={label} data-testid={testId}>
      {children}
    </pre>
  );
}

function RunBlock({ title, r }: { title: string; r: RunOutcome }) {
  return (
    <section className="out-section">
      <h3>{title}</h3>
      <PreBox label={`${title}: output`}>{r.output || <span className="muted">(no output)</span>}</PreBox>
      {r.stderr && (
        <>
          <h4>Standard Error</h4>
          <PreBox label={`${title}: standard error`} className="error-text">{r.stderr}</PreBox>
        </>
      )}
      <Metrics r={r} />
    </section>
  );
}

function progressText(p: SubmissionProgress): string {
  return judgingPhrase(p);
}

/** Scrolls `el` just into view (no jump when it already is), smoothly unless the user asked for less motion. */
export function revealElement(el: Element): void {
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  el.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
}

/** @param interactive the problem is interactive: a failing test's output is the interaction's transcript. */
export function OutputPanel({ state, interactive = false }: { state: OutputState; interactive?: boolean }) {
  const panel = useRef<HTMLDivElement>(null);
  const status = useRef<HTMLParagraphElement>(null);
  // Focus goes to the status when a Run or a submission ends (not on the first render, nor when "saved" follows).
  const final = isFinal(state);
  const wasFinal = useRef(true);
  useEffect(() => {
    if (final && !wasFinal.current) status.current?.focus({ preventScroll: false });
    wasFinal.current = final;
  }, [final]);
  // Run and Submit are below the editor: bring the panel into view when they start, so the result is seen.
  const pending = state.kind === "pending";
  useLayoutEffect(() => {
    if (pending && panel.current) revealElement(panel.current);
  }, [pending]);
  // Follow a submission like a log: new test rows, the verdict and "Submission saved." stay in view.
  useLayoutEffect(() => {
    const el = panel.current;
    if (el && state.kind === "submission") el.scrollTop = el.scrollHeight;
    else if (el) el.scrollTop = 0;
  }, [state]);
  const text = statusText(state);
  const tone = state.kind === "submission" && final ? (state.progress.verdict === "AC" ? "ok" : "fail") : state.kind === "run" && state.sample ? (state.sample.correct ? "ok" : "fail") : state.kind === "compileError" || state.kind === "error" ? "fail" : null;
  return (
    <>
      <p ref={status} id="run-status" className={`run-status${tone ? ` ${tone === "ok" ? "ok" : "bad"}` : ""}`} role="status" aria-live="polite" tabIndex={-1} data-testid="run-status">
        {tone && <VerdictIcon tone={tone} />}
        {text}
      </p>
      <div ref={panel} className="output-panel" aria-label="Output" role="region" tabIndex={0}>
        {renderState(state, interactive)}
      </div>
    </>
  );
}

function renderState(state: OutputState, interactive: boolean) {
  switch (state.kind) {
    case "empty":
      return <p className="muted">Your output will appear here...</p>;
    case "pending":
      return (
        <p className="pending-line">
          <span className="spinner" aria-hidden="true" /> {state.text}
        </p>
      );
    case "error":
      return <p className="error-text">{state.message}</p>;
    case "compileError":
      return (
        <section>
          <SyntaxErrorHeadline />
          {state.diagnostics && <pre className="pre-box diagnostics" tabIndex={0} role="region" aria-label="Compiler output">{state.diagnostics}</pre>}
        </section>
      );
    case "run":
      return (
        <>
          {state.custom && <RunBlock title="Custom Input Output" r={state.custom} />}
          {state.sample && (
            <section className="out-section">
              <h3>Sample Test</h3>
              {state.sample.interaction ? (
                <div>
                  <h4>Interaction (lines from the validator start with &lt;, your program&apos;s with &gt;)</h4>
                  <PreBox label="Interaction" testId="interaction">{state.sample.output || <span className="muted">(nothing was said)</span>}</PreBox>
                </div>
              ) : (
              <div className="io-grid">
                <div>
                  <h4>Your Output</h4>
                  <PreBox label="Your output">{state.sample.output || <span className="muted">(no output)</span>}</PreBox>
                </div>
                <div>
                  <h4>Expected Output</h4>
                  <PreBox label="Expected output">{state.sample.expected}</PreBox>
                </div>
              </div>
              )}
              {state.sample.stderr && (
                <>
                  <h4>Standard Error</h4>
                  <PreBox label="Standard error" className="error-text">{state.sample.stderr}</PreBox>
                </>
              )}
              <p className={`result-line icon-line ${state.sample.correct ? "ok" : "bad"}`}>
                <VerdictIcon tone={state.sample.correct ? "ok" : "fail"} /> {state.sample.correct ? "Sample test passed" : "Sample test failed"}
              </p>
              <Metrics r={state.sample} />
            </section>
          )}
          {state.notes.map((n) => (
            <p key={n} className="muted">
              {n}
            </p>
          ))}
        </>
      );
    case "submission": {
      const p = state.progress;
      const done = p.status === "done";
      const percent = done ? 100 : p.testsTotal ? Math.round((p.testsDone / p.testsTotal) * 100) : 0;
      return (
        <section>
          {/* Stays at the top of the panel while the test rows scroll under it. */}
          <div className="progress-sticky">
            <div className="progress-head">
              <span>
                {done && p.verdict ? (
                  <>
                    Judging complete: <VerdictBadge verdict={p.verdict} />
                  </>
                ) : (
                  progressText(p)
                )}
              </span>
            </div>
            <div
              className="progress-bar"
              role="progressbar"
              aria-label="Judging progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
            >
              <div className={`progress-fill${done && p.verdict && p.verdict !== "AC" ? " failed" : ""}`} style={{ width: `${percent}%` }} />
            </div>
          </div>
          {p.tests.length > 0 && (
            <TestTable tests={p.tests} caption="Test results" rowTestId="test-row" />
          )}
          {done && p.verdict === "CE" && (
            <>
              <SyntaxErrorHeadline />
              {p.compileOutput && <pre className="pre-box diagnostics" tabIndex={0} role="region" aria-label="Compiler output">{p.compileOutput}</pre>}
            </>
          )}
          {done && p.verdict && (
            <p className={`final-verdict ${p.verdict === "AC" ? "ok" : "bad"}`} data-testid="final-verdict">
              <VerdictBadge verdict={p.verdict} />
              {p.score != null && p.maxScore != null && <strong data-testid="score">, {scoreText(p.score, p.maxScore)}</strong>}
              {p.testsTotal > 0 && (
                <span className="muted">
                  {" "}
                  · {testsPassedPhrase(p.tests.filter((t) => t.verdict === "AC").length, p.testsTotal, p.testsDone)}
                </span>
              )}
            </p>
          )}
          {done && p.groups && p.groups.length > 0 && (
            <table className="test-table" data-testid="group-table">
              <caption>Test groups (subtasks)</caption>
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Result</th>
                  <th scope="col">Points</th>
                </tr>
              </thead>
              <tbody>
                {p.groups.map((g) => (
                  <tr key={g.name}>
                    <td>{g.name}</td>
                    <td>{g.verdict === null ? "Not run (a required group failed)" : <VerdictBadge verdict={g.verdict} />}</td>
                    <td>{scoreText(g.score, g.maxScore)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {done && p.firstFailure && (
            <div className="first-failure" data-testid="first-failure">
              <h3>First failing test: #{p.firstFailure.test}</h3>
              <div className="io-grid">
                <div className="io-block">
                  <h4>{interactive ? "The validator's input" : "Input"}</h4>
                  <PreBox label="First failing test: input">{p.firstFailure.input}</PreBox>
                </div>
                <div className="io-block">
                  <h4>{interactive ? "The validator's answer file" : "Expected output"}</h4>
                  <PreBox label="First failing test: expected output">{p.firstFailure.expectedOutput}</PreBox>
                </div>
                <div className="io-block" data-testid="first-failure-output">
                  <h4>{interactive ? "Interaction (lines from the validator start with <, your program's with >)" : "Your output"}</h4>
                  <PreBox label="First failing test: your output">{p.firstFailure.actualOutput || "(nothing)"}</PreBox>
                </div>
                {p.firstFailure.stderr !== undefined && (
                  <div className="io-block">
                    <h4>Error output</h4>
                    <PreBox label="First failing test: error output">{p.firstFailure.stderr || "(nothing)"}</PreBox>
                  </div>
                )}
              </div>
            </div>
          )}
          {state.saved && <p className="saved-line">Submission saved.</p>}
        </section>
      );
    }
  }
}
