/**
 * Who is stuck (course staff): an assignment's analytics at
 * /assignments/:id/analytics, reached from the assignment page. The stuck
 * list (last hour or day, at least N failed attempts, no AC) and, per
 * problem, students by state, attempts before the first AC, the verdict mix
 * and the first failing hidden tests, each chart with a table behind it.
 * Live: after the first read a subscription (`analytics.assignmentUpdates`,
 * SSE, the gradebook's doorbell on the server) sends the figures again as
 * verdicts arrive. Definitions: src/courses/analytics/rules.ts.
 */
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { NumberField, RadioGroup } from "../kit/index.ts";
import { useTRPC, useTRPCClient, type RouterOutputs } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { analyticsNs } from "../i18n/catalog/analytics/index.ts";
import { common } from "../i18n/catalog/common/index.ts";
import { verdictName } from "../lib/verdicts.ts";
import { formatDateTime } from "../lib/dates.ts";
import { StudentProgressLink } from "../progress/StudentProgressLink.tsx";
import { ProblemPanel } from "./ProblemPanel.tsx";
import "./analytics.css";

type Analytics = RouterOutputs["analytics"]["assignment"];
type StuckWindow = "hour" | "day";

export default function AnalyticsPage({ assignmentId }: { assignmentId: string }) {
  const t = useT(analyticsNs);
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [window, setWindow] = useState<StuckWindow>("hour");
  const [minFailedText, setMinFailedText] = useState("3");
  const parsed = Number(minFailedText);
  const valid = Number.isInteger(parsed) && parsed >= 1 && parsed <= 100;
  const [minFailed, setMinFailed] = useState(3);
  useEffect(() => {
    if (valid) setMinFailed(parsed);
  }, [valid, parsed]);
  const input = { id: assignmentId, window, minFailed };
  const query = useQuery({ ...trpc.analytics.assignment.queryOptions(input), refetchOnWindowFocus: false, placeholderData: (previous) => previous });
  const [live, setLive] = useState<Analytics | null>(null);
  const [state, setState] = useState<"connecting" | "live" | "offline">("connecting");

  // After the read, the stream sends the whole analytics again after each verdict.
  useEffect(() => {
    if (!query.data) return;
    setLive(null);
    setState("connecting");
    const sub = client.analytics.assignmentUpdates.subscribe(
      { id: assignmentId, window, minFailed },
      {
        onStarted: () => setState("live"),
        onData: (a) => setLive(a as Analytics),
        onError: () => setState("offline"),
      },
    );
    return () => sub.unsubscribe();
  }, [client, assignmentId, window, minFailed, query.data !== undefined]);

  const title = query.data?.assignment.title;
  return (
    <Page title={title ? t("page.documentTitleOf", { title }) : t("page.documentTitle")} width="wide">
      <QueryState query={query} loading={t("page.loading")} error={t("page.loadFailed")}>
        {(first) => {
          const a = live && live.stuck.window === window && live.stuck.minFailed === minFailed ? live : first;
          return (
            <>
              <div className="page-heading">
                <div>
                  <h1 className="page-title">{t("page.title", { title: a.assignment.title })}</h1>
                  <p className="muted">
                    {t("page.students", { count: a.students })} ·{" "}
                    <span className={`live-dot live-${state}`} role="status" aria-live="polite">
                      {state === "live" ? t("live.live") : state === "connecting" ? t("live.connecting") : t("live.offline")}
                    </span>{" "}
                    · <T ns={analyticsNs} k="page.updated" values={{ time: formatDateTime(a.computedAt) }} components={{ 0: <time dateTime={a.computedAt} /> }} /> · <Link href={`/assignments/${assignmentId}`}>{t("page.assignment")}</Link> ·{" "}
                    <Link href={`/assignments/${assignmentId}/gradebook`}>{t("page.gradebook")}</Link>
                  </p>
                </div>
              </div>
              <StuckSection a={a} window={window} setWindow={setWindow} minFailedText={minFailedText} setMinFailedText={setMinFailedText} />
              {a.problems.length === 0 ? <p className="muted">{t("problems.empty")}</p> : a.problems.map((p) => <ProblemPanel key={p.problemId} p={p} />)}
            </>
          );
        }}
      </QueryState>
    </Page>
  );
}

function StuckSection(props: { a: Analytics; window: StuckWindow; setWindow: (w: StuckWindow) => void; minFailedText: string; setMinFailedText: (s: string) => void }) {
  const t = useT(analyticsNs);
  const tc = useT(common);
  const { a } = props;
  const titles = new Map(a.problems.map((p) => [p.problemId, p.title]));
  const n = Number(props.minFailedText);
  const bad = !(Number.isInteger(n) && n >= 1 && n <= 100);
  return (
    <section className="card" aria-labelledby="stuck-heading">
      <h2 id="stuck-heading">{t("stuck.heading")}</h2>
      <p className="muted">{t("stuck.explain")}</p>
      <div className="analytics-controls">
        <RadioGroup
          label={t("stuck.window")}
          inline
          value={props.window}
          onChange={props.setWindow}
          options={[
            { value: "hour", label: t("stuck.hour") },
            { value: "day", label: t("stuck.day") },
          ]}
        />
        <NumberField
          label={t("stuck.minFailed")}
          min={1}
          max={100}
          step={1}
          value={props.minFailedText}
          onChange={(e) => props.setMinFailedText(e.target.value)}
          error={bad ? t("stuck.minFailedError") : undefined}
        />
      </div>
      <p role="status" data-testid="stuck-count">
        {t("stuck.count", { count: a.stuck.students.length })}
      </p>
      {a.stuck.students.length > 0 && (
        <div className="table-scroll" role="region" aria-label={t("stuck.table")} tabIndex={0}>
          <table className="data-table" aria-label={t("stuck.table")}>
            <thead>
              <tr>
                <th scope="col">{t("stuck.student")}</th>
                <th scope="col">{t("stuck.problem")}</th>
                <th scope="col">{t("stuck.failed")}</th>
                <th scope="col">{t("stuck.lastVerdict")}</th>
                <th scope="col">{t("stuck.lastAt")}</th>
              </tr>
            </thead>
            <tbody>
              {a.stuck.students.map((s) => (
                <tr key={`${s.userId}/${s.problemId}`} data-testid="stuck-row">
                  <th scope="row">
                    {s.firstName} {s.lastName}
                    <span className="muted block">{s.email}</span>
                    <StudentProgressLink courseId={a.assignment.courseId} userId={s.userId} name={`${s.firstName} ${s.lastName}`} />
                  </th>
                  <td>{titles.get(s.problemId) ?? s.problemId}</td>
                  <td>{s.failedInWindow}</td>
                  <td>
                    {s.lastVerdict} <span className="muted">({verdictName(s.lastVerdict, tc)})</span>
                  </td>
                  <td>
                    <DateTime value={s.lastSubmittedAt} mode="auto" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
