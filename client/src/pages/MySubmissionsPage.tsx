/**
 * My Submissions for one problem: counters, loading, empty
 * state, error banner, and one card per submission in the order the server
 * returns them (newest first), entering with a 0.1 s stagger. Submissions
 * still being judged are refreshed until they have a verdict.
 */
import dayjs from "dayjs";
import { useEffect } from "react";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { CodeBlock } from "../components/CodeBlock.tsx";
import { TestTable } from "../components/TestTable.tsx";
import { scoreText } from "../components/OutputPanel.tsx";
import { useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { languageName } from "../lib/languages.ts";
import { QueryState } from "../components/QueryState.tsx";
import { formatKib, formatMs, verdictName } from "../lib/verdicts.ts";

type Submission = RouterOutputs["submissions"]["list"][number];

/** Entrance animation stagger per card, seconds. */
const STAGGER_S = 0.1;
const PENDING_REFRESH_MS = 1500;


export default function MySubmissionsPage({ problemId }: { problemId: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.submissions.list.queryOptions({ problemId }),
    refetchInterval: (q) => (q.state.data?.some((s) => s.status !== "done") ? PENDING_REFRESH_MS : false),
  });

  useEffect(() => {
    if (query.isError) console.warn("Failed to fetch submissions:", query.error);
  }, [query.isError, query.error]);

  const list = query.data ?? [];
  const passed = list.filter((s) => s.isPassed).length;

  return (
    <Page title={list.length > 0 ? `My submissions: ${list[0]!.problemTitle}` : "My submissions"}>
        <div className="page-heading">
          <h1 className="page-title">My Submissions</h1>
          {list.length > 0 && <p className="subtitle">{list[0]!.problemTitle}</p>}
        </div>

        <QueryState
          query={query}
          loading="Loading submissions..."
          error="Failed to fetch submissions"
          isEmpty={(l) => l.length === 0}
          empty={
            <div className="empty-state">
              <h2>No submissions yet</h2>
              <p className="muted">You haven't submitted any solutions for this problem.</p>
              <Link href={`/solve/${problemId}`} className="btn btn-primary">
                Go Back to Problem
              </Link>
            </div>
          }
        >
          {(l) => (
            <>
              <div className="counters">
                <div className="counter">
                  <span className="counter-value">{l.length}</span>
                  <span className="counter-label">Total</span>
                </div>
                <div className="counter counter-pass">
                  <span className="counter-value">{passed}</span>
                  <span className="counter-label">Passed</span>
                </div>
                <div className="counter counter-fail">
                  <span className="counter-value">{l.length - passed}</span>
                  <span className="counter-label">Failed</span>
                </div>
              </div>
              <ol className="submission-list">
                {l.map((s, i) => (
                  <SubmissionCard key={s._id} submission={s} delayS={i * STAGGER_S} />
                ))}
              </ol>
            </>
          )}
        </QueryState>
      </Page>
  );
}

function SubmissionCard({ submission: s, delayS }: { submission: Submission; delayS: number }) {
  const judged = s.status === "done" && s.verdict !== null;
  const badgeClass = !judged ? "verdict-pending" : s.verdict === "AC" ? "verdict-ac" : "verdict-fail";
  return (
    <li className="card submission-card" style={{ animationDelay: `${delayS}s` }} data-testid="submission-card">
      <div className="submission-head">
        <span className={`pass-marker ${s.isPassed ? "pass" : "fail"}`}>
          <span aria-hidden="true">{s.isPassed ? "✓" : "✗"}</span> {s.isPassed ? "Passed" : "Failed"}
        </span>
        <time className="muted" dateTime={s.createdAt}>
          {dayjs(s.createdAt).format("MMM DD, YYYY • HH:mm")}
        </time>
        <span className={`verdict-badge ${badgeClass}`}>
          {judged ? verdictName(s.verdict!) : "Judging..."}
          {judged && s.score != null && s.maxScore != null ? `, ${scoreText(s.score, s.maxScore)}` : ""}
        </span>
      </div>
      <div className="submission-meta muted">
        <span>{languageName(s.language)}</span>
        {judged && (
          <>
            {s.testsTotal !== null && (
              <span>
                Tests passed: {s.testsPassed}/{s.testsTotal}
              </span>
            )}
            {s.timeMs !== null && <span>Time: {formatMs(s.timeMs)}</span>}
            {s.memoryKib !== null && <span>Memory: {formatKib(s.memoryKib)}</span>}
          </>
        )}
      </div>
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
      {s.tests.length > 0 && (
        <TestTable tests={s.tests} caption="Per-test results" />
      )}
    </li>
  );
}
