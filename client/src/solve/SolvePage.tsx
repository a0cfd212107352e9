/**
 * The solving page: statement, language selector,
 * Monaco editor (lazy chunk), Reset to Boilerplate, custom input, Run Code /
 * Submit Code / AI Review with independent busy flags that disable all three,
 * the output panel and the AI review panel.
 *
 * Judging happens on the server (hidden tests never reach the browser): Run compiles and runs the code
 * on the custom input (when not blank) and on the sample; Submit queues the
 * submission and follows the judge's progress live over SSE.
 */
import { Select, TextArea } from "../kit/index.ts";
import { lazy, Suspense, useCallback, useEffect, useRef } from "react";
import { Link, useSearchParams } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { AiReviewPanel } from "../components/AiReviewPanel.tsx";
import { Spinner } from "../components/Loading.tsx";
import { OutputPanel } from "../components/OutputPanel.tsx";
import { httpStatusOf, useTRPC } from "../lib/trpc.ts";
import { AssignmentBanner } from "../courses/AssignmentBanner.tsx";
import { effectiveTimeLimitMs, languageOf } from "../lib/languages.ts";
import { useSolveSession } from "./useSolveSession.ts";
import { useOfferedLanguages } from "./useOfferedLanguages.ts";
import { formatKib, formatMs } from "../lib/verdicts.ts";

const StatementMarkdown = lazy(() => import("../components/StatementMarkdown.tsx"));
import { describeValidatorFlags, parseValidatorFlags } from "../../../src/problems/validator-flags.ts";

/** The Kattis default validator's flags in plain words (the server stored them valid). */
function outputCheckInWords(flags: string): string {
  const parsed = parseValidatorFlags(flags);
  return parsed.ok ? describeValidatorFlags(parsed.options) : flags;
}

import { ContestBanner } from "../contests/ContestBanner.tsx";

// The plain editor comes with the page; it loads Monaco (a chunk of its own) itself (docs/benchmarks.md, "Client").
import CodeEditor from "../editor/CodeEditor.tsx";

export default function SolvePage({ problemId }: { problemId: string }) {
  const trpc = useTRPC();
  const problemQuery = useQuery(trpc.problems.byId.queryOptions({ id: problemId }));
  const problem = problemQuery.data;
  // Opened from an assignment (?assignment=ID): its window and policies apply to Submit and the AI review.
  const [searchParams] = useSearchParams();
  const assignmentId = searchParams.get("assignment") ?? undefined;
  const assignment = useQuery({ ...trpc.assignments.byId.queryOptions({ id: assignmentId ?? "" }), enabled: assignmentId !== undefined });
  // Opened from a contest (?contest=ID): Submit goes into the contest; its clock shows.
  const contestId = searchParams.get("contest") ?? undefined;
  const aiPolicy = useQuery({ ...trpc.ai.policy.queryOptions({ problemId, ...(assignmentId ? { assignmentId } : {}) }), enabled: problem !== undefined });

  useEffect(() => {
    if (problemQuery.isError) console.warn("Failed to fetch problem:", problemQuery.error);
  }, [problemQuery.isError, problemQuery.error]);

  // The course's paste record (off by default): large pastes (time and size, never content) go with the next submission.
  const course = useQuery({ ...trpc.courses.byId.queryOptions({ id: assignment.data?.courseId ?? "" }), enabled: Boolean(assignment.data?.courseId) });
  const recordPastes = course.data?.recordPastes === true;
  const pastes = useRef<{ atMs: number; chars: number }[]>([]);
  const takePastes = useCallback(() => pastes.current.splice(0), []);
  const { language, code, customInput, setCustomInput, running, submitting, reviewing, busy, output, aiOpen, setAiOpen, ai, changeCode, changeLanguage, fallBackTo, resetToBoilerplate, run, submit, review } =
    useSolveSession(problemId, problem, assignmentId, contestId, recordPastes ? takePastes : undefined);

  const notFound = problemQuery.isError && httpStatusOf(problemQuery.error) === 404;
  // Only what the server offers; a language it does not offer gives way to its first.
  const languages = useOfferedLanguages();
  useEffect(() => {
    if (languages.length && !languages.some((l) => l.id === language)) fallBackTo(languages[0]!.id);
  }, [languages, language]);

  return (
    <Page title={problem?.title ?? (notFound ? "Problem not found" : "Problem")} pageClassName="solve-page" width={problem ? "wide" : "normal"} className={problem ? "solve-grid" : undefined} noFooter={Boolean(problem)}>
      {!problem ? (
        <>
          {notFound ? (
            <div className="empty-state">
              <h1>Problem not found</h1>
              <p className="muted">It may have been deleted by its author.</p>
              <Link href="/problems" className="btn btn-primary">
                Back to Problems
              </Link>
            </div>
          ) : (
            <div className="center-state" role="status">
              <Spinner /> Loading problem...
            </div>
          )}
        </>
      ) : (
        <>
          {/* A scroll pane on wide screens: a named region a keyboard can focus and scroll. */}
          <section className="card problem-panel" aria-labelledby="problem-title" tabIndex={0}>
            <div className="problem-panel-head">
              <h1 id="problem-title">{problem.title}</h1>
              <span className={`badge badge-${problem.difficulty}`}>
                <span className="sr-only">Difficulty: </span>
                {problem.difficulty.toUpperCase()}
              </span>
              <Link href={`/my-submissions/${problemId}`} className="btn btn-ghost btn-sm">
                My Submissions
              </Link>
            </div>
            {assignment.data && <AssignmentBanner assignment={assignment.data} />}
            {recordPastes && (
              <p className="notice" role="note" data-testid="paste-notice">
                This course records large pastes into the editor (when, and how many characters; never what you paste) with your submissions.
              </p>
            )}
            {contestId && <ContestBanner contestId={contestId} problemId={problemId} />}
            <p className="limits muted">
              Time limit: {formatMs(effectiveTimeLimitMs(language, problem.timeLimitMs, problem.timeScaledByLanguage))}
              {problem.timeScaledByLanguage &&
                languageOf(language).timeMultiplier !== 1 &&
                ` (${formatMs(problem.timeLimitMs)} × ${languageOf(language).timeMultiplier} for ${languageOf(language).name})`}{" "}
              · Memory limit:{" "}
              {formatKib(problem.memoryLimitKib)}
            </p>
            {problem.checker === "kattis" && <p className="limits muted">Output check: {outputCheckInWords(problem.checkerFlags)}</p>}
            <Statement title="Description" text={problem.description} problemId={problem._id} />
            <Statement title="Input Format" text={problem.inputFormat} problemId={problem._id} />
            <Statement title="Output Format" text={problem.outputFormat} problemId={problem._id} />
            <Statement title="Constraints" text={problem.constraints} problemId={problem._id} />
            {problem.interactive && (
              <p className="limits muted" data-testid="interactive-note">
                Interactive problem: your program talks with the problem&apos;s validator. Print each line and flush; read the validator&apos;s answers from
                standard input. Run plays the sample interaction.
              </p>
            )}
            {problem.scoring && (
              <section data-testid="subtasks">
                <h2>Subtasks ({problem.scoring.maxScore} points)</h2>
                <ul className="limits muted">
                  {problem.scoring.groups.map((g) => (
                    <li key={g.name}>
                      {g.name}: {g.maxScore} points, {g.testCount} test{g.testCount === 1 ? "" : "s"}
                      {g.aggregation === "pass-fail" ? " (all must pass)" : g.aggregation === "sum" ? " (points per test passed)" : " (the lowest test's score)"}
                      {g.requirePass.length ? `; needs ${g.requirePass.join(", ")}` : ""}
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {problem.pythonImplementation === "pypy" && (
              <p className="limits muted" data-testid="pypy-note">
                Python 3 submissions to this problem run on PyPy.
              </p>
            )}
            {!problem.interactive && problem.validationPasses > 1 && (
              <p className="limits muted">Multi-pass problem: your program runs up to {problem.validationPasses} times on each test, each run starting afresh with the input the validator gives it.</p>
            )}
            <section>
              <h2>{problem.interactive ? "Sample: the validator's input" : "Sample Input"}</h2>
              <pre className="pre-box" tabIndex={0} role="region" aria-label="Sample input">
                {problem.sampleInput}
              </pre>
            </section>
            <section>
              <h2>{problem.interactive ? "Sample: the validator's answer file" : "Sample Output"}</h2>
              <pre className="pre-box" tabIndex={0} role="region" aria-label="Sample output">
                {problem.sampleOutput}
              </pre>
            </section>
          </section>

          <section className="workbench" aria-label="Code">
            <div className="toolbar">
              <Select id="language" label="Language" className="inline" value={language} onChange={(e) => changeLanguage(e.target.value)}>
                  {languages.map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.name}
                    </option>
                  ))}
                </Select>
              <button type="button" className="btn btn-ghost btn-sm" onClick={resetToBoilerplate}>
                Reset to Boilerplate
              </button>
            </div>
            {/* Before the editor and tied to it (aria-describedby): how to leave it, since Tab types a tab inside. */}
            <p className="hint" id="editor-escape-tip">
              In the editor, Tab types a tab. To move on with Tab, press Esc then Tab, or Ctrl+M (Ctrl+Shift+M on macOS) to switch Tab to moving focus.
            </p>
            <div className="editor-frame">
              <Suspense fallback={<div className="editor-loading">Loading editor...</div>}>
                <CodeEditor
                  value={code}
                  language={language}
                  onChange={changeCode}
                  describedBy="editor-escape-tip"
                  onLargePaste={recordPastes ? (chars) => pastes.current.push({ atMs: Date.now(), chars }) : undefined}
                />
              </Suspense>
            </div>

            <TextArea id="custom-input" label="Custom Input (optional)"
                mono
                rows={3}
                placeholder="Enter custom input here..."
                value={customInput}
                onChange={(e) => setCustomInput(e.target.value)} />

            <div className="action-row">
              <button type="button" className="btn btn-run" onClick={run} disabled={busy}>
                {running ? "Running..." : "Run Code"}
              </button>
              <button type="button" className="btn btn-primary" onClick={submit} disabled={busy}>
                {submitting ? "Submitting..." : "Submit Code"}
              </button>
              <button type="button" className="btn btn-ai" onClick={() => review()} disabled={busy}>
                {reviewing ? "Analyzing..." : "AI Review"}
              </button>
            </div>

            <OutputPanel state={output} interactive={problem.interactive} />

            {aiOpen && (
              <AiReviewPanel
                state={ai}
                policyText={aiPolicy.data && aiPolicy.data.policy !== "full" ? aiPolicy.data.text : null}
                onClose={() => setAiOpen(false)}
                onReanalyze={() => review(true)}
                disabled={busy}
              />
            )}
          </section>
        </>
      )}
    </Page>
  );
}

/** A statement field, rendered as Markdown with math (plain text until the renderer has loaded); images named relatively come from the problem. */
function Statement({ title, text, problemId }: { title: string; text: string; problemId: string }) {
  return (
    <section>
      <h2>{title}</h2>
      <Suspense fallback={<p className="statement-text">{text}</p>}>
        <div className="statement-md">
          <StatementMarkdown text={text} assetBase={`/api/problems/${encodeURIComponent(problemId)}/assets`} />
        </div>
      </Suspense>
    </section>
  );
}
