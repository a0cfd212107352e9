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
import { T, useT, type Translate } from "../i18n/index.tsx";
import { history } from "../i18n/catalog/history/index.ts";
import "./MySubmissionsPage.css";

type Submission = RouterOutputs["submissions"]["list"][number];
type Context = Submission["context"];

const PENDING_REFRESH_MS = 1500;
/** The verdict filter's value for submissions still being judged. */
const JUDGING = "judging";

type HistoryT = Translate<NonNullable<typeof history.keys>>;

/** "Practice", "Assignment: Week 1", "Contest: Spring Cup", "Contest (deleted)". */
export function contextLabel(c: Context, t: HistoryT): string {
  if (c.kind === "practice") return t("context.practice");
  if (c.kind === "assignment") return c.name ? t("context.assignment", { name: c.name }) : t("context.assignmentDeleted");
  return c.name ? t("context.contest", { name: c.name }) : t("context.contestDeleted");
}

/** The place filter's value of a context: "practice", "assignment:ID", "contest:ID". */
const contextKey = (c: Context) => (c.kind === "practice" ? "practice" : `${c.kind}:${c.id}`);

const verdictKey = (s: Submission) => (s.status === "done" && s.verdict ? s.verdict : JUDGING);

export default function MySubmissionsPage({ problemId }: { problemId?: string }) {
  const t = useT(history);
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
    for (const s of list) if (!seen.has(contextKey(s.context))) seen.set(contextKey(s.context), contextLabel(s.context, t));
    return [...seen];
  }, [list, t]);
  const shown = list.filter(
    (s) => (verdict === "all" || verdictKey(s) === verdict) && (place === "all" || contextKey(s.context) === place || s.context.kind === place),
  );
  const accepted = list.filter((s) => s.isPassed).length;
  const kinds = new Set(list.map((s) => s.context.kind));

  return (
    <Page title={list.length > 0 ? t("title.problem", { problem: list[0]!.problemTitle }) : t("title")}>
        <div className="page-heading">
          <h1 className="page-title">{t("heading")}</h1>
          {problemId && list.length > 0 && <p className="subtitle">{list[0]!.problemTitle}</p>}
        </div>

        <QueryState
          query={query}
          loading={t("loading")}
          error={t("error")}
          isEmpty={(l) => l.length === 0}
          empty={
            <div className="empty-state">
              <h2>{t("empty.title")}</h2>
              {problemId ? (
                <>
                  <p className="muted">{t("empty.problem")}</p>
                  <Link href={`/solve/${problemId}`} className="btn btn-primary">
                    {t("empty.back")}
                  </Link>
                </>
              ) : (
                <>
                  <p className="muted">{t("empty.all")}</p>
                  <Link href="/problems" className="btn btn-primary">
                    {t("empty.browse")}
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
                  {problemId ? (
                    <T ns={history} k="summary.problem" values={{ count: list.length, accepted }} components={{ 0: <Link href="/my-submissions" className="text-link" /> }} />
                  ) : (
                    t("summary", { count: list.length, accepted })
                  )}
                </p>
                <div className="history-filters" role="group" aria-label={t("filter.label")}>
                  <Select id={`${filterId}-verdict`} label={t("filter.verdict")} value={verdict} onChange={(e) => setVerdict(e.target.value)}>
                    <option value="all">{t("filter.allVerdicts")}</option>
                    {verdictOptions.map((v) => (
                      <option key={v} value={v}>
                        {v === JUDGING ? t("filter.judging") : verdictName(v)}
                      </option>
                    ))}
                  </Select>
                  <Select id={`${filterId}-place`} label={t("filter.place")} value={place} onChange={(e) => setPlace(e.target.value)}>
                    <option value="all">{t("filter.everywhere")}</option>
                    {kinds.has("assignment") && <option value="assignment">{t("filter.allAssignments")}</option>}
                    {kinds.has("contest") && <option value="contest">{t("filter.allContests")}</option>}
                    {placeOptions.map(([key, label]) => (
                      <option key={key} value={key}>
                        {label}
                      </option>
                    ))}
                  </Select>
                </div>
              </div>
              <p className="sr-only" role="status">
                {shown.length === list.length ? "" : t("shown", { shown: shown.length, total: list.length })}
              </p>
              {shown.length === 0 ? (
                <p className="muted">{t("noMatch")}</p>
              ) : (
                <ul className="history-list" aria-label={t("list.label")}>
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
  const t = useT(history);
  const judged = s.status === "done" && s.verdict !== null;
  const badgeClass = !judged ? "verdict-pending" : s.verdict === "AC" ? "verdict-ac" : "verdict-fail";
  const detailsId = `submission-${s._id}`;
  return (
    <li className="history-row" data-testid="submission-row" data-open={open}>
      <h2 className="history-row-heading">
        <button type="button" className="history-toggle" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
          <span className="history-chevron" aria-hidden="true" />
          <span className="history-problem">{s.problemTitle || t("deletedProblem")}</span>
          <span className={`verdict-badge ${badgeClass}`} data-testid="verdict">
            {!judged
              ? judgingPhrase({ status: s.status, testsDone: s.tests.length, testsTotal: s.testsTotal })
              : s.score != null && s.maxScore != null
                ? t("verdictScore", { verdict: verdictName(s.verdict!), score: scoreText(s.score, s.maxScore) })
                : verdictName(s.verdict!)}
          </span>
          <span className="history-language" data-testid="language">
            {languageName(s.language)}
          </span>
          <span className={`history-context history-context-${s.context.kind}`} data-testid="context">
            {contextLabel(s.context, t)}
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
  const t = useT(history);
  // A compile error ran no test: its tests are not counted.
  const passed = s.verdict === "CE" ? "" : testsPassedPhrase(s.testsPassed ?? 0, s.testsTotal, s.tests.length);
  return (
    <>
      <p className="submission-meta muted">
        {judged && passed && <span data-testid="tests-passed">{passed}</span>}
        {judged && s.timeMs !== null && <span>{t("details.time", { time: formatMs(s.timeMs) })}</span>}
        {judged && s.memoryKib !== null && <span>{t("details.memory", { memory: formatKib(s.memoryKib) })}</span>}
        <span>
          <DateTime value={s.createdAt} withZone />
        </span>
        {s.context.kind !== "practice" && s.context.name && (
          <span>
            <T
              ns={history}
              k={s.context.kind === "assignment" ? "details.assignment" : "details.contest"}
              values={{ name: s.context.name }}
              components={{ 0: <Link href={`/${s.context.kind === "assignment" ? "assignments" : "contests"}/${s.context.id}`} className="text-link" /> }}
            />
          </span>
        )}
        {!s.problemDeleted && (
          <Link href={`/solve/${s.problemId}`} className="text-link">
            {t("details.openProblem")}
          </Link>
        )}
      </p>
      <CodeBlock code={s.code} language={s.language} />
      {s.compileOutput && (
        <div className="io-block">
          <h3>{t("details.compilerOutput")}</h3>
          <pre className="pre-box diagnostics" dir="ltr" tabIndex={0}>
            {s.compileOutput}
          </pre>
        </div>
      )}
      <div className="io-grid">
        <div className="io-block">
          <h3>{t("details.yourOutput")}</h3>
          <pre className="pre-box" dir="ltr">{s.output ? s.output : <span className="muted">{t("details.noOutput")}</span>}</pre>
        </div>
        <div className="io-block">
          <h3>{t("details.expectedOutput")}</h3>
          <pre className="pre-box" dir="ltr">{s.expectedOutput ? s.expectedOutput : <span className="muted">{t("details.noExpected")}</span>}</pre>
        </div>
      </div>
      {s.tests.length > 0 && <TestTable tests={s.tests} caption={t("details.perTest")} />}
    </>
  );
}
