/**
 * My Submissions: the caller's history as a compact list, newest first, of
 * one problem (/my-submissions/:problemId) or of every problem
 * (/my-submissions). One row per submission: problem, verdict by name (a
 * compile error reads "Compilation Error"), language by name, where it was
 * made (practice, an assignment, a contest) and when (relative, the
 * absolute date in the `<time>`'s title). A row's disclosure button opens its
 * details (counts, code, compiler output, outputs, per-test results); opening
 * one closes the other. Filters by verdict and by place. Submissions still
 * being judged are refreshed until they have a verdict.
 */
import { useEffect, useId, useMemo, useState } from "react";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { CodeBlock } from "../components/CodeBlock.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { TestTable } from "../components/TestTable.tsx";
import { scoreText } from "../components/OutputPanel.tsx";
import { useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { languageName } from "../lib/languages.ts";
import { judgingPhrase, testsPassedPhrase } from "../lib/judging-phrase.ts";
import { QueryState } from "../components/QueryState.tsx";
import { Select } from "../kit/index.ts";
import { formatKib, formatMs, verdictName } from "../lib/verdicts.ts";
import "./MySubmissionsPage.css";

type Submission = RouterOutputs["submissions"]["list"][number];
type Context = Submission["context"];

const PENDING_REFRESH_MS = 1500;
/** The verdict filter's value for submissions still being judged. */
const JUDGING = "judging";

/** "Practice", "Assignment: Week 1", "Contest: Spring Cup". */
export function contextLabel(c: Context): string {
  if (c.kind === "practice") return "Practice";
  const kind = c.kind === "assignment" ? "Assignment" : "Contest";
  return c.name ? `${kind}: ${c.name}` : `${kind} (deleted)`;
}

/** The place filter's value of a context: "practice", "assignment:ID", "contest:ID". */
const contextKey = (c: Context) => (c.kind === "practice" ? "practice" : `${c.kind}:${c.id}`);

const verdictKey = (s: Submission) => (s.status === "done" && s.verdict ? s.verdict : JUDGING);

export default function MySubmissionsPage({ problemId }: { problemId?: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.submissions.list.queryOptions(problemId ? { problemId } : {}),
    refetchInterval: (q) => (q.state.data?.some((s) => s.status !== "done") ? PENDING_REFRESH_MS : false),
  });
  const [verdict, setVerdict] = useState("all");
  const [place, setPlace] = useState("all");
  const [openId, setOpenId] = useState<string | null>(null);
  const filterId = useId();

  useEffect(() => {
    if (query.isError) console.warn("Failed to fetch submissions:", query.error);
  }, [query.isError, query.error]);

  const list = useMemo(() => query.data ?? [], [query.data]);
  const verdictOptions = useMemo(() => [...new Set(list.map(verdictKey))], [list]);
  const placeOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const s of list) if (!seen.has(contextKey(s.context))) seen.set(contextKey(s.context), contextLabel(s.context));
    return [...seen];
  }, [list]);
  const shown = list.filter(
    (s) => (verdict === "all" || verdictKey(s) === verdict) && (place === "all" || contextKey(s.context) === place || s.context.kind === place),
  );
  const accepted = list.filter((s) => s.isPassed).length;
  const kinds = new Set(list.map((s) => s.context.kind));

  return (
    <Page title={list.length > 0 ? `My submissions: ${list[0]!.problemTitle}` : "My submissions"}>
        <div className="page-heading">
          <h1 className="page-title">My Submissions</h1>
          {problemId && list.length > 0 && <p className="subtitle">{list[0]!.problemTitle}</p>}
        </div>

        <QueryState
          query={query}
          loading="Loading submissions..."
          error="Failed to fetch submissions"
          isEmpty={(l) => l.length === 0}
          empty={
            <div className="empty-state">
              <h2>No submissions yet</h2>
              {problemId ? (
                <>
                  <p className="muted">You haven't submitted any solutions for this problem.</p>
                  <Link href={`/solve/${problemId}`} className="btn btn-primary">
                    Go Back to Problem
                  </Link>
                </>
              ) : (
                <>
                  <p className="muted">You haven't submitted any solutions yet.</p>
                  <Link href="/problems" className="btn btn-primary">
                    Browse problems
                  </Link>
                </>
              )}
            </div>
          }
        >
          {() => (
            <>
              <div className="history-bar">
                <p className="history-summary" data-testid="history-summary">
                  {list.length} submission{list.length === 1 ? "" : "s"} · {accepted} accepted
                  {problemId && (
                    <>
                      {" · "}
                      <Link href="/my-submissions" className="text-link">
                        All my submissions
                      </Link>
                    </>
                  )}
                </p>
                <div className="history-filters" role="group" aria-label="Filter submissions">
                  <Select id={`${filterId}-verdict`} label="Verdict" value={verdict} onChange={(e) => setVerdict(e.target.value)}>
                    <option value="all">All verdicts</option>
                    {verdictOptions.map((v) => (
                      <option key={v} value={v}>
                        {v === JUDGING ? "Being judged" : verdictName(v)}
                      </option>
                    ))}
                  </Select>
                  <Select id={`${filterId}-place`} label="Made in" value={place} onChange={(e) => setPlace(e.target.value)}>
                    <option value="all">Everywhere</option>
                    {kinds.has("assignment") && <option value="assignment">All assignments</option>}
                    {kinds.has("contest") && <option value="contest">All contests</option>}
                    {placeOptions.map(([key, label]) => (
                      <option key={key} value={key}>
                        {label}
                      </option>
                    ))}
                  </Select>
                </div>
              </div>
              <p className="sr-only" role="status">
                {shown.length === list.length ? "" : `${shown.length} of ${list.length} submissions shown`}
              </p>
              {shown.length === 0 ? (
                <p className="muted">No submission matches these filters.</p>
              ) : (
                <ul className="history-list" aria-label="Submissions, newest first">
                  {shown.map((s) => (
                    <SubmissionRow key={s._id} submission={s} open={openId === s._id} onToggle={() => setOpenId(openId === s._id ? null : s._id)} />
                  ))}
                </ul>
              )}
            </>
          )}
        </QueryState>
      </Page>
  );
}

function SubmissionRow({ submission: s, open, onToggle }: { submission: Submission; open: boolean; onToggle: () => void }) {
  const judged = s.status === "done" && s.verdict !== null;
  const badgeClass = !judged ? "verdict-pending" : s.verdict === "AC" ? "verdict-ac" : "verdict-fail";
  const detailsId = `submission-${s._id}`;
  return (
    <li className="history-row" data-testid="submission-row" data-open={open}>
      <h2 className="history-row-heading">
        <button type="button" className="history-toggle" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
          <span className="history-chevron" aria-hidden="true" />
          <span className="history-problem">{s.problemTitle || "Deleted problem"}</span>
          <span className={`verdict-badge ${badgeClass}`} data-testid="verdict">
            {judged ? verdictName(s.verdict!) : judgingPhrase({ status: s.status, testsDone: s.tests.length, testsTotal: s.testsTotal })}
            {judged && s.score != null && s.maxScore != null ? `, ${scoreText(s.score, s.maxScore)}` : ""}
          </span>
          <span className="history-language" data-testid="language">
            {languageName(s.language)}
          </span>
          <span className={`history-context history-context-${s.context.kind}`} data-testid="context">
            {contextLabel(s.context)}
          </span>
          <DateTime className="history-time" value={s.createdAt} mode="auto" />
        </button>
      </h2>
      <div id={detailsId} className="history-details" hidden={!open}>
        {open && <SubmissionDetails submission={s} judged={judged} />}
      </div>
    </li>
  );
}

function SubmissionDetails({ submission: s, judged }: { submission: Submission; judged: boolean }) {
  // A compile error ran no test: its tests are not counted.
  const passed = s.verdict === "CE" ? "" : testsPassedPhrase(s.testsPassed ?? 0, s.testsTotal, s.tests.length);
  return (
    <>
      <p className="submission-meta muted">
        {judged && passed && <span data-testid="tests-passed">{passed}</span>}
        {judged && s.timeMs !== null && <span>Time: {formatMs(s.timeMs)}</span>}
        {judged && s.memoryKib !== null && <span>Memory: {formatKib(s.memoryKib)}</span>}
        <span>
          <DateTime value={s.createdAt} withZone />
        </span>
        {s.context.kind !== "practice" && s.context.name && (
          <span>
            {s.context.kind === "assignment" ? "Assignment " : "Contest "}
            <Link href={`/${s.context.kind === "assignment" ? "assignments" : "contests"}/${s.context.id}`} className="text-link">
              {s.context.name}
            </Link>
          </span>
        )}
        {!s.problemDeleted && (
          <Link href={`/solve/${s.problemId}`} className="text-link">
            Open the problem
          </Link>
        )}
      </p>
      <CodeBlock code={s.code} language={s.language} />
      {s.compileOutput && (
        <div className="io-block">
          <h3>Compiler Output</h3>
          <pre className="pre-box diagnostics" tabIndex={0}>
            {s.compileOutput}
          </pre>
        </div>
      )}
      <div className="io-grid">
        <div className="io-block">
          <h3>Your Output</h3>
          <pre className="pre-box">{s.output ? s.output : <span className="muted">No output</span>}</pre>
        </div>
        <div className="io-block">
          <h3>Expected Output</h3>
          <pre className="pre-box">{s.expectedOutput ? s.expectedOutput : <span className="muted">No expected output</span>}</pre>
        </div>
      </div>
      {s.tests.length > 0 && <TestTable tests={s.tests} caption="Per-test results" />}
    </>
  );
}
