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
import { Suspense, useCallback, useEffect, useRef } from "react";
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
import { StatementLanguages, StatementText } from "./StatementLanguages.tsx";
import { useOfferedLanguages } from "./useOfferedLanguages.ts";
import { formatKib, formatMs } from "../lib/verdicts.ts";
import { useT, type Translate } from "../i18n/index.tsx";
import { solve } from "../i18n/catalog/solve/index.ts";

import { describeValidatorFlags, parseValidatorFlags } from "../../../src/problems/validator-flags.ts";

/** The Kattis default validator's flags in plain words (the server stored them valid). */
function outputCheckInWords(flags: string): string {
  const parsed = parseValidatorFlags(flags);
  return parsed.ok ? describeValidatorFlags(parsed.options) : flags;
}

import { ContestBanner } from "../contests/ContestBanner.tsx";

type SolveT = Translate<NonNullable<typeof solve.keys>>;

/** A difficulty's badge text, by the code the server stores. */
const DIFFICULTY_KEYS = { easy: "difficulty.easy", medium: "difficulty.medium", hard: "difficulty.hard" } as const;

/** A subtask's aggregation rule, as the message's select case. */
const AGGREGATION_CASES = { "pass-fail": "passFail", sum: "sum", min: "min" } as const;

/** One subtask's line: its points, its tests, how they count and the groups it needs. */
function subtaskLine(t: SolveT, g: { name: string; maxScore: number; testCount: number; aggregation: string; requirePass: string[] }): string {
  const values = { name: g.name, points: g.maxScore, tests: g.testCount, rule: AGGREGATION_CASES[g.aggregation as keyof typeof AGGREGATION_CASES] ?? "min" };
  return g.requirePass.length ? t("subtasks.groupNeeds", { ...values, groups: g.requirePass.join(", ") }) : t("subtasks.group", values);
}

// The plain editor comes with the page; it loads Monaco (a chunk of its own) itself (docs/benchmarks.md, "Client").
import CodeEditor from "../editor/CodeEditor.tsx";

export default function SolvePage({ problemId }: { problemId: string }) {
  const t = useT(solve);
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
    <Page title={problem?.title ?? (notFound ? t("notFound.title") : t("page.problem"))} pageClassName="solve-page" width={problem ? "wide" : "normal"} className={problem ? "solve-grid" : undefined} noFooter={Boolean(problem)}>
      {!problem ? (
        <>
          {notFound ? (
            <div className="empty-state">
              <h1>{t("notFound.title")}</h1>
              <p className="muted">{t("notFound.body")}</p>
              <Link href="/problems" className="btn btn-primary">
                {t("notFound.back")}
              </Link>
            </div>
          ) : (
            <div className="center-state" role="status">
              <Spinner /> {t("loading")}
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
                <span className="sr-only">{t("difficulty.label")} </span>
                {t(DIFFICULTY_KEYS[problem.difficulty])}
              </span>
              <Link href={`/my-submissions/${problemId}`} className="btn btn-ghost btn-sm">
                {t("mySubmissions")}
              </Link>
            </div>
            {assignment.data && <AssignmentBanner assignment={assignment.data} />}
            {recordPastes && (
              <p className="notice" role="note" data-testid="paste-notice">
                {t("pasteNotice")}
              </p>
            )}
            {contestId && <ContestBanner contestId={contestId} problemId={problemId} />}
            <p className="limits muted">
              {problem.timeScaledByLanguage && languageOf(language).timeMultiplier !== 1
                ? t("limits.lineScaled", {
                    time: formatMs(effectiveTimeLimitMs(language, problem.timeLimitMs, problem.timeScaledByLanguage)),
                    base: formatMs(problem.timeLimitMs),
                    multiplier: languageOf(language).timeMultiplier,
                    language: languageOf(language).name,
                    memory: formatKib(problem.memoryLimitKib),
                  })
                : t("limits.line", {
                    time: formatMs(effectiveTimeLimitMs(language, problem.timeLimitMs, problem.timeScaledByLanguage)),
                    memory: formatKib(problem.memoryLimitKib),
                  })}
            </p>
            {problem.checker === "kattis" && <p className="limits muted">{t("outputCheck", { rule: outputCheckInWords(problem.checkerFlags) })}</p>}
            <StatementLanguages problemId={problem._id}>
              <Statement title={t("statement.description")} text={problem.description} problemId={problem._id} />
              <Statement title={t("statement.inputFormat")} text={problem.inputFormat} problemId={problem._id} />
              <Statement title={t("statement.outputFormat")} text={problem.outputFormat} problemId={problem._id} />
              <Statement title={t("statement.constraints")} text={problem.constraints} problemId={problem._id} />
            </StatementLanguages>
            {problem.interactive && (
              <p className="limits muted" data-testid="interactive-note">
                {t("interactiveNote")}
              </p>
            )}
            {problem.scoring && (
              <section data-testid="subtasks">
                <h2>{t("subtasks.title", { points: problem.scoring.maxScore })}</h2>
                <ul className="limits muted">
                  {problem.scoring.groups.map((g) => (
                    <li key={g.name}>{subtaskLine(t, g)}</li>
                  ))}
                </ul>
              </section>
            )}
            {problem.pythonImplementation === "pypy" && (
              <p className="limits muted" data-testid="pypy-note">
                {t("pypyNote")}
              </p>
            )}
            {!problem.interactive && problem.validationPasses > 1 && (
              <p className="limits muted">{t("multiPassNote", { passes: problem.validationPasses })}</p>
            )}
            <section>
              <h2>{problem.interactive ? t("sample.inputInteractive") : t("sample.input")}</h2>
              <pre className="pre-box" dir="ltr" tabIndex={0} role="region" aria-label={t("sample.inputLabel")}>
                {problem.sampleInput}
              </pre>
            </section>
            <section>
              <h2>{problem.interactive ? t("sample.outputInteractive") : t("sample.output")}</h2>
              <pre className="pre-box" dir="ltr" tabIndex={0} role="region" aria-label={t("sample.outputLabel")}>
                {problem.sampleOutput}
              </pre>
            </section>
          </section>

          <section className="workbench" aria-label={t("workbench")}>
            <div className="toolbar">
              <Select id="language" label={t("language")} className="inline" value={language} onChange={(e) => changeLanguage(e.target.value)}>
                  {languages.map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.name}
                    </option>
                  ))}
                </Select>
              <button type="button" className="btn btn-ghost btn-sm" onClick={resetToBoilerplate}>
                {t("reset")}
              </button>
            </div>
            {/* Before the editor and tied to it (aria-describedby): how to leave it, since Tab types a tab inside. */}
            <p className="hint" id="editor-escape-tip">
              {t("editorTip")}
            </p>
            <div className="editor-frame">
              <Suspense fallback={<div className="editor-loading">{t("editorLoading")}</div>}>
                <CodeEditor
                  value={code}
                  language={language}
                  onChange={changeCode}
                  describedBy="editor-escape-tip"
                  onLargePaste={recordPastes ? (chars) => pastes.current.push({ atMs: Date.now(), chars }) : undefined}
                />
              </Suspense>
            </div>

            <TextArea id="custom-input" label={t("customInput.label")}
                mono
                dir="ltr"
                rows={3}
                placeholder={t("customInput.placeholder")}
                value={customInput}
                onChange={(e) => setCustomInput(e.target.value)} />

            <div className="action-row">
              <button type="button" className="btn btn-run" onClick={run} disabled={busy}>
                {running ? t("action.running") : t("action.run")}
              </button>
              <button type="button" className="btn btn-primary" onClick={submit} disabled={busy}>
                {submitting ? t("action.submitting") : t("action.submit")}
              </button>
              <button type="button" className="btn btn-ai" onClick={() => review()} disabled={busy}>
                {reviewing ? t("action.reviewing") : t("action.review")}
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
      <StatementText text={text} problemId={problemId} />
    </section>
  );
}
