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
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { AppHeader, BackButton } from "../components/AppHeader.tsx";
import { AiReviewPanel, type AiPanelState } from "../components/AiReviewPanel.tsx";
import { Spinner } from "../components/Loading.tsx";
import { OutputPanel, type OutputState } from "../components/OutputPanel.tsx";
import { ThemeToggle } from "../components/ThemeToggle.tsx";
import { isEmptyCodeError, requestReview, runOnce, runFailureState, submitAndFollow, type ReviewSource } from "../lib/judging.ts";
import { getSavedCode, saveCode } from "../lib/storage.ts";
import { httpStatusOf, serverMessageOf, useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { AssignmentBanner } from "../courses/AssignmentBanner.tsx";
import { DEFAULT_LANGUAGE, effectiveTimeLimitMs, isLanguageId, LANGUAGE_LIST, languageOf, type LanguageId } from "../lib/languages.ts";
import { formatKib, formatMs } from "../lib/verdicts.ts";

const StatementMarkdown = lazy(() => import("../components/StatementMarkdown.tsx"));
import { describeValidatorFlags, parseValidatorFlags } from "../../../src/problems/validator-flags.ts";

/** The Kattis default validator's flags in plain words (the server stored them valid). */
function outputCheckInWords(flags: string): string {
  const parsed = parseValidatorFlags(flags);
  return parsed.ok ? describeValidatorFlags(parsed.options) : flags;
}

const CodeEditor = lazy(() => import("../editor/CodeEditor.tsx"));

const EMPTY_CODE_MESSAGE = "Please write some code before requesting AI review.";
const AI_FAILED_MESSAGE = "AI Review failed. Please try again later.";

function initialCode(problemId: string, language: LanguageId): string {
  return getSavedCode(problemId, language) ?? languageOf(language).boilerplate;
}

export default function SolvePage({ problemId }: { problemId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const problemQuery = useQuery(trpc.problems.byId.queryOptions({ id: problemId }));
  const problem = problemQuery.data;
  // Opened from an assignment (?assignment=ID): its window and policies apply to Submit and the AI review.
  const [searchParams] = useSearchParams();
  const assignmentId = searchParams.get("assignment") ?? undefined;
  const assignment = useQuery({ ...trpc.assignments.byId.queryOptions({ id: assignmentId ?? "" }), enabled: assignmentId !== undefined });
  const aiPolicy = useQuery({ ...trpc.ai.policy.queryOptions({ problemId, ...(assignmentId ? { assignmentId } : {}) }), enabled: problem !== undefined });

  const [language, setLanguage] = useState<LanguageId>(DEFAULT_LANGUAGE);
  const [code, setCode] = useState(() => initialCode(problemId, DEFAULT_LANGUAGE));
  const [customInput, setCustomInput] = useState("");
  const [running, setRunning] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const [output, setOutput] = useState<OutputState>({ kind: "empty" });
  const [aiOpen, setAiOpen] = useState(false);
  const [ai, setAi] = useState<AiPanelState>({ loading: false, review: "", message: null });
  const busy = running || submitting || reviewing;

  // Subscriptions and streams end when the page goes away.
  const abort = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (problemQuery.isError) console.warn("Failed to fetch problem:", problemQuery.error);
  }, [problemQuery.isError, problemQuery.error]);

  function changeCode(next: string) {
    setCode(next);
    saveCode(problemId, language, next);
  }

  function changeLanguage(next: string) {
    if (!isLanguageId(next)) return;
    setLanguage(next);
    const saved = getSavedCode(problemId, next);
    if (saved !== null && saved.trim() !== "") setCode(saved);
    else if (code.trim() === "") {
      setCode(languageOf(next).boilerplate);
      saveCode(problemId, next, languageOf(next).boilerplate);
    }
  }

  function resetToBoilerplate() {
    changeCode(languageOf(language).boilerplate);
  }

  async function run() {
    if (busy || !problem) return;
    setRunning(true);
    setOutput({ kind: "pending", text: "Compiling..." });
    try {
      const state: Extract<OutputState, { kind: "run" }> = { kind: "run", notes: [] };
      if (customInput.trim() !== "") {
        state.custom = await runOnce(client, { problemId, language, code, input: customInput });
      }
      if (problem.sampleInput && problem.sampleOutput) {
        const r = await runOnce(client, { problemId, language, code, input: problem.sampleInput, expectedOutput: problem.sampleOutput });
        state.sample = { ...r, expected: problem.sampleOutput, correct: r.correct ?? false };
      }
      if (!state.custom && !state.sample) state.notes.push("Nothing to run: enter some custom input.");
      setOutput(state);
    } catch (err) {
      setOutput(runFailureState(err));
    } finally {
      setRunning(false);
    }
  }

  async function submit() {
    if (busy || !problem) return;
    setSubmitting(true);
    setOutput({ kind: "pending", text: "Submitting..." });
    try {
      await submitAndFollow(client, { problemId, language, code, ...(assignmentId ? { assignmentId } : {}) }, abort.current.signal, (progress) =>
        setOutput({ kind: "submission", progress, saved: false }),
      );
      setOutput((prev) => (prev.kind === "submission" ? { ...prev, saved: true } : prev));
      void queryClient.invalidateQueries({ queryKey: trpc.submissions.list.queryKey({ problemId }) });
    } catch (err) {
      if (!abort.current.signal.aborted) setOutput(runFailureState(err));
    } finally {
      setSubmitting(false);
    }
  }

  async function review(force = false) {
    if (busy) return;
    setAiOpen(true);
    if (code.trim() === "") {
      setAi({ loading: false, review: "", message: EMPTY_CODE_MESSAGE });
      return;
    }
    setReviewing(true);
    setAi({ loading: true, review: "", message: null });
    try {
      let source: ReviewSource | undefined;
      const text = await requestReview(
        client,
        { code, language, problemId, force, ...(assignmentId ? { assignmentId } : {}) },
        abort.current.signal,
        (soFar) => setAi({ loading: true, review: soFar, message: null, source }),
        (s) => {
          source = s;
        },
      );
      setAi({ loading: false, review: text, message: null, source });
    } catch (err) {
      if (abort.current.signal.aborted) return;
      console.warn("AI review failed:", err);
      // A course policy refusal (AI off for this assignment) says so; any other failure keeps the product's text.
      const refusal = httpStatusOf(err) === 403 ? serverMessageOf(err) : null;
      setAi({ loading: false, review: "", message: isEmptyCodeError(err) ? EMPTY_CODE_MESSAGE : (refusal ?? AI_FAILED_MESSAGE) });
    } finally {
      setReviewing(false);
    }
  }

  const notFound = problemQuery.isError && httpStatusOf(problemQuery.error) === 404;

  return (
    <div className="page solve-page">
      <AppHeader left={<BackButton />} wide>
        <Link href={`/my-submissions/${problemId}`} className="btn btn-ghost btn-sm">
          My Submissions
        </Link>
        <ThemeToggle />
      </AppHeader>
      {!problem ? (
        <main className="page-main container">
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
        </main>
      ) : (
        <main className="page-main container-wide solve-grid">
          <article className="card problem-panel" aria-labelledby="problem-title">
            <div className="problem-panel-head">
              <h1 id="problem-title">{problem.title}</h1>
              <span className={`badge badge-${problem.difficulty}`}>{problem.difficulty.toUpperCase()}</span>
            </div>
            {assignment.data && <AssignmentBanner assignment={assignment.data} />}
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
            <section>
              <h2>Sample Input</h2>
              <pre className="pre-box">{problem.sampleInput}</pre>
            </section>
            <section>
              <h2>Sample Output</h2>
              <pre className="pre-box">{problem.sampleOutput}</pre>
            </section>
          </article>

          <section className="workbench" aria-label="Code">
            <div className="toolbar">
              <div className="field inline">
                <label htmlFor="language">Language</label>
                <select id="language" value={language} onChange={(e) => changeLanguage(e.target.value)}>
                  {LANGUAGE_LIST.map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.name}
                    </option>
                  ))}
                </select>
              </div>
              <button type="button" className="btn btn-ghost btn-sm" onClick={resetToBoilerplate}>
                Reset to Boilerplate
              </button>
            </div>
            <div className="editor-frame">
              <Suspense fallback={<div className="editor-loading">Loading editor...</div>}>
                <CodeEditor value={code} language={language} onChange={changeCode} />
              </Suspense>
            </div>
            <p className="hint">Tip: press Ctrl+M (Ctrl+Shift+M on macOS) to let Tab move focus out of the editor.</p>

            <div className="field">
              <label htmlFor="custom-input">Custom Input (optional)</label>
              <textarea
                id="custom-input"
                className="mono"
                rows={3}
                placeholder="Enter custom input here..."
                value={customInput}
                onChange={(e) => setCustomInput(e.target.value)}
              />
            </div>

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

            <OutputPanel state={output} />

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
        </main>
      )}
    </div>
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
