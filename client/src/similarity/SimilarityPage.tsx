/**
 * Similarity reports of an assignment (staff) or a contest (jury): the
 * reports made so far, and a form to run one (a problem or all, best or last
 * submissions, earlier offerings, C with C++, the instructor's starter code,
 * which is ignored like the boilerplate). Nothing leaves the server: the
 * analysis runs there (src/similarity).
 */
import { Checkbox, Select, TextArea } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { LANGUAGE_LIST, type LanguageId } from "../lib/languages.ts";
import { useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { DateTime } from "../components/DateTime.tsx";
import { useT } from "../i18n/index.tsx";
import { similarity } from "../i18n/catalog/similarity/index.ts";

/** A report's states (src/similarity), each with its message; "running" shows its progress instead. */
const STATUS_KEYS = { queued: "reports.statusQueued", done: "reports.statusDone", failed: "reports.statusFailed" } as const;

export default function SimilarityPage({ kind, id }: { kind: "assignment" | "contest"; id: string }) {
  const t = useT(similarity);
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [, navigate] = useLocation();
  const list = useQuery({ ...trpc.similarity.list.queryOptions({ kind, id }), refetchInterval: 2000 });
  const assignment = useQuery({ ...trpc.assignments.byId.queryOptions({ id }), enabled: kind === "assignment" });
  const contest = useQuery({ ...trpc.contests.byId.queryOptions({ id }), enabled: kind === "contest" });
  const [problemId, setProblemId] = useState("");
  const [pick, setPick] = useState<"best" | "last">("best");
  const [against, setAgainst] = useState<"none" | "past">("none");
  const [crossLanguage, setCrossLanguage] = useState(false);
  const [starterLanguage, setStarterLanguage] = useState<LanguageId>("cpp");
  const [starter, setStarter] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const back = kind === "assignment" ? `/assignments/${id}` : `/contests/${id}`;
  const problemList: { id: string; title: string; label: string }[] =
    kind === "assignment"
      ? (assignment.data?.problems ?? []).map((p, i) => ({ id: p.problemId, title: p.title, label: String(i + 1) }))
      : (contest.data?.problems ?? []).map((p) => ({ id: p.problemId, title: p.title, label: p.label }));

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await client.similarity.request.mutate({
        scope: { kind, id },
        ...(problemId ? { problemId } : {}),
        pick,
        against,
        crossLanguage,
        starterCode: starter.trim() ? [{ language: starterLanguage, code: starter }] : [],
      });
      navigate(`/similarity/${r.reportId}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t("reports.pageTitle")}>
        <div className="page-heading">
          <h1 className="page-title">{t("reports.title")}</h1>
          <p>
            <Link href={back} className="text-link">
              {t("reports.back", { kind })}
            </Link>
          </p>
        </div>
        <section className="card" aria-label={t("run.title")}>
          <h2>{t("run.title")}</h2>
          <p className="muted">{t("run.intro")}</p>
          <div className="form-grid">
            <Select label={t("run.problem")} value={problemId} onChange={(e) => setProblemId(e.target.value)}>
                <option value="">{t("run.everyProblem")}</option>
                {problemList.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.label}. {p.title}
                  </option>
                ))}
              </Select>
            <Select label={t("run.submissions")} value={pick} onChange={(e) => setPick(e.target.value as "best" | "last")}>
                <option value="best">{t("run.pickBest", { kind })}</option>
                <option value="last">{t("run.pickLast", { kind })}</option>
              </Select>
            <Select label={t("run.compareWith")} value={against} onChange={(e) => setAgainst(e.target.value as "none" | "past")}>
                <option value="none">{t("run.againstNone", { kind })}</option>
                <option value="past">{t("run.againstPast")}</option>
              </Select>
            <Checkbox label={t("run.crossLanguage")} checked={crossLanguage} onChange={(e) => setCrossLanguage(e.target.checked)} />
          </div>
          <Select label={t("run.starterLanguage")} description={t("run.starterLanguageHelp")} value={starterLanguage} onChange={(e) => setStarterLanguage(e.target.value as LanguageId)}>
              {LANGUAGE_LIST.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
          </Select>
          <TextArea label={t("run.starter")} description={t("run.starterHelp")} mono rows={6} value={starter} onChange={(e) => setStarter(e.target.value)} />
          {error && <p className="form-error" role="alert">{error}</p>}
          <button type="button" className="btn btn-primary" onClick={run} disabled={busy}>
            {busy ? t("run.starting") : t("run.submit")}
          </button>
        </section>
        <QueryState query={list} loading={t("reports.loading")} error={t("reports.error")} isEmpty={(l) => l.length === 0} empty={<p className="muted">{t("reports.empty")}</p>}>
          {(reports) => (
            <table className="data-table" aria-label={t("reports.table")}>
              <thead>
                <tr>
                  <th scope="col">{t("reports.asked")}</th>
                  <th scope="col">{t("reports.problem")}</th>
                  <th scope="col">{t("reports.status")}</th>
                </tr>
              </thead>
              <tbody>
                {reports.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link href={`/similarity/${r.id}`}><DateTime value={r.createdAtMs} mode="auto" /></Link>
                    </td>
                    <td>{r.problemId ? (problemList.find((p) => p.id === r.problemId)?.title ?? r.problemId) : t("run.everyProblem")}</td>
                    <td>{r.status === "running" ? t("reports.statusRunning", { percent: Math.round(r.progress * 100) }) : r.status in STATUS_KEYS ? t(STATUS_KEYS[r.status as keyof typeof STATUS_KEYS]) : r.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </Page>
  );
}
