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
import { T, useT } from "../i18n/index.tsx";
import { solve } from "../i18n/catalog/solve/index.ts";
import { NOTE_KEYS, PENDING_KEYS, scoreText, statusText, type OutputState, type RunOutcome, type SolveT, type SubmissionProgress } from "./output-status.ts";

export type { OutputState, RunNote, RunOutcome, SampleOutcome, SolveT, SubmissionProgress, TestRow } from "./output-status.ts";
export { scoreText, statusText } from "./output-status.ts";

/** The headline the product shows for a compile error ("Error: There is a syntax error in your program."), with its cross mark (an SVG icon, no emoji font needed). */
function SyntaxErrorHeadline({ t }: { t: SolveT }) {
  return (
    <p className="error-text strong icon-line">
      <VerdictIcon tone="fail" /> {t("syntaxError")}
    </p>
  );
}

/** A state that ends a Run or a submission (focus moves to the status then). */
function isFinal(state: OutputState): boolean {
  if (state.kind === "submission") return state.progress.status === "done" && state.progress.verdict !== null;
  return state.kind === "run" || state.kind === "compileError" || state.kind === "error";
}

function Metrics({ r, t }: { r: { timeMs: number; memoryKib: number; verdict: string; exitCode?: number | null }; t: SolveT }) {
  return (
    <p className="metrics">
      <span>{t("metrics.time", { time: formatMs(r.timeMs) })}</span>
      <span>{t("metrics.memory", { memory: formatKib(r.memoryKib) })}</span>
      {r.verdict !== "AC" && r.verdict !== "OK" && r.verdict !== "WA" && (
        <span className="error-text">{r.exitCode ? t("metrics.exitCode", { verdict: verdictName(r.verdict), code: r.exitCode }) : verdictName(r.verdict)}</span>
      )}
    </p>
  );
}

/** A scrolling block of program text (max 220 px high): focusable and named, so a keyboard can scroll it. */
function PreBox({ label, className = "", children, testId }: { label: string; className?: string; children: ReactNode; testId?: string }) {
  return (
    <pre className={`pre-box ${className}`.trim()} dir="ltr" tabIndex={0} role="region" aria-label={label} data-testid={testId}>
      {children}
    </pre>
  );
}

/** The run on the custom input: its output, its standard error, its metrics. */
function CustomRunBlock({ r, t }: { r: RunOutcome; t: SolveT }) {
  return (
    <section className="out-section">
      <h3>{t("custom.title")}</h3>
      <PreBox label={t("custom.outputLabel")}>{r.output || <span className="muted">{t("noOutput")}</span>}</PreBox>
      {r.stderr && (
        <>
          <h4>{t("stderr.title")}</h4>
          <PreBox label={t("custom.stderrLabel")} className="error-text">{r.stderr}</PreBox>
        </>
      )}
      <Metrics r={r} t={t} />
    </section>
  );
}

function progressText(p: SubmissionProgress): string {
  return judgingPhrase(p);
}

/** Scrolls `el` just into view (no jump when it already is), smoothly unless the user asked for less motion. */
export function revealElement(el: Element): void {
  // i18n-ignore: a media query
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  el.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
}

/** @param interactive the problem is interactive: a failing test's output is the interaction's transcript. */
export function OutputPanel({ state, interactive = false }: { state: OutputState; interactive?: boolean }) {
  const t = useT(solve);
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
  const text = statusText(state, t);
  const tone = state.kind === "submission" && final ? (state.progress.verdict === "AC" ? "ok" : "fail") : state.kind === "run" && state.sample ? (state.sample.correct ? "ok" : "fail") : state.kind === "compileError" || state.kind === "error" ? "fail" : null;
  return (
    <>
      <p ref={status} id="run-status" className={`run-status${tone ? ` ${tone === "ok" ? "ok" : "bad"}` : ""}`} role="status" aria-live="polite" tabIndex={-1} data-testid="run-status">
        {tone && <VerdictIcon tone={tone} />}
        {text}
      </p>
      <div ref={panel} className="output-panel" aria-label={t("output.label")} role="region" tabIndex={0}>
        {renderState(state, interactive, t)}
      </div>
    </>
  );
}

function renderState(state: OutputState, interactive: boolean, t: SolveT) {
  switch (state.kind) {
    case "empty":
      return <p className="muted">{t("output.empty")}</p>;
    case "pending":
      return (
        <p className="pending-line">
          <span className="spinner" aria-hidden="true" /> {t(PENDING_KEYS[state.phase])}
        </p>
      );
    case "error":
      return <p className="error-text">{state.message}</p>;
    case "compileError":
      return (
        <section>
          <SyntaxErrorHeadline t={t} />
          {state.diagnostics && <pre className="pre-box diagnostics" dir="ltr" tabIndex={0} role="region" aria-label={t("compilerOutput")}>{state.diagnostics}</pre>}
        </section>
      );
    case "run":
      return (
        <>
          {state.custom && <CustomRunBlock r={state.custom} t={t} />}
          {state.sample && (
            <section className="out-section">
              <h3>{t("sample.title")}</h3>
              {state.sample.interaction ? (
                <div>
                  <h4>{t("interaction.title")}</h4>
                  <PreBox label={t("interaction.label")} testId="interaction">{state.sample.output || <span className="muted">{t("interaction.none")}</span>}</PreBox>
                </div>
              ) : (
              <div className="io-grid">
                <div>
                  <h4>{t("yourOutput.title")}</h4>
                  <PreBox label={t("yourOutput.label")}>{state.sample.output || <span className="muted">{t("noOutput")}</span>}</PreBox>
                </div>
                <div>
                  <h4>{t("expected.title")}</h4>
                  <PreBox label={t("expected.label")}>{state.sample.expected}</PreBox>
                </div>
              </div>
              )}
              {state.sample.stderr && (
                <>
                  <h4>{t("stderr.title")}</h4>
                  <PreBox label={t("stderr.label")} className="error-text">{state.sample.stderr}</PreBox>
                </>
              )}
              <p className={`result-line icon-line ${state.sample.correct ? "ok" : "bad"}`}>
                <VerdictIcon tone={state.sample.correct ? "ok" : "fail"} /> {state.sample.correct ? t("status.samplePassed") : t("status.sampleFailed")}
              </p>
              <Metrics r={state.sample} t={t} />
            </section>
          )}
          {state.notes.map((n) => (
            <p key={n} className="muted">
              {t(NOTE_KEYS[n])}
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
                  <T ns={solve} k="judgingComplete" components={{ 0: <VerdictBadge verdict={p.verdict} /> }} />
                ) : (
                  progressText(p)
                )}
              </span>
            </div>
            <div
              className="progress-bar"
              role="progressbar"
              aria-label={t("progress.label")}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
            >
              <div className={`progress-fill${done && p.verdict && p.verdict !== "AC" ? " failed" : ""}`} style={{ width: `${percent}%` }} />
            </div>
          </div>
          {p.tests.length > 0 && (
            <TestTable tests={p.tests} caption={t("tests.caption")} rowTestId="test-row" />
          )}
          {done && p.verdict === "CE" && (
            <>
              <SyntaxErrorHeadline t={t} />
              {p.compileOutput && <pre className="pre-box diagnostics" dir="ltr" tabIndex={0} role="region" aria-label={t("compilerOutput")}>{p.compileOutput}</pre>}
            </>
          )}
          {done && p.verdict && (
            <p className={`final-verdict ${p.verdict === "AC" ? "ok" : "bad"}`} data-testid="final-verdict">
              <VerdictBadge verdict={p.verdict} />
              {p.score != null && p.maxScore != null && <strong data-testid="score">, {scoreText(p.score, p.maxScore)}</strong>}
              {p.testsTotal > 0 && (
                <span className="muted">
                  {" "}
                  · {testsPassedPhrase(p.tests.filter((r) => r.verdict === "AC").length, p.testsTotal, p.testsDone)}
                </span>
              )}
            </p>
          )}
          {done && p.groups && p.groups.length > 0 && (
            <table className="test-table" data-testid="group-table">
              <caption>{t("groups.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("groups.group")}</th>
                  <th scope="col">{t("groups.result")}</th>
                  <th scope="col">{t("groups.points")}</th>
                </tr>
              </thead>
              <tbody>
                {p.groups.map((g) => (
                  <tr key={g.name}>
                    <td>{g.name}</td>
                    <td>{g.verdict === null ? t("groups.notRun") : <VerdictBadge verdict={g.verdict} />}</td>
                    <td>{scoreText(g.score, g.maxScore)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {done && p.firstFailure && (
            <div className="first-failure" data-testid="first-failure">
              <h3>{t("firstFailure.title", { test: p.firstFailure.test })}</h3>
              <div className="io-grid">
                <div className="io-block">
                  <h4>{interactive ? t("firstFailure.validatorInput") : t("firstFailure.input")}</h4>
                  <PreBox label={t("firstFailure.inputLabel")}>{p.firstFailure.input}</PreBox>
                </div>
                <div className="io-block">
                  <h4>{interactive ? t("firstFailure.validatorAnswer") : t("expected.label")}</h4>
                  <PreBox label={t("firstFailure.expectedLabel")}>{p.firstFailure.expectedOutput}</PreBox>
                </div>
                <div className="io-block" data-testid="first-failure-output">
                  <h4>{interactive ? t("interaction.title") : t("yourOutput.label")}</h4>
                  <PreBox label={t("firstFailure.outputLabel")}>{p.firstFailure.actualOutput || t("nothing")}</PreBox>
                </div>
                {p.firstFailure.stderr !== undefined && (
                  <div className="io-block">
                    <h4>{t("firstFailure.errorOutput")}</h4>
                    <PreBox label={t("firstFailure.errorOutputLabel")}>{p.firstFailure.stderr || t("nothing")}</PreBox>
                  </div>
                )}
              </div>
            </div>
          )}
          {state.saved && <p className="saved-line">{t("saved")}</p>}
        </section>
      );
    }
  }
}
