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

export default function SimilarityPage({ kind, id }: { kind: "assignment" | "contest"; id: string }) {
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
    <Page title={"Similarity"}>
        <div className="page-heading">
          <h1 className="page-title">Similarity reports</h1>
          <p>
            <Link href={back} className="text-link">
              Back to the {kind}
            </Link>
          </p>
        </div>
        <section className="card" aria-label="Run a report">
          <h2>Run a report</h2>
          <p className="muted">Programs are compared on this server; no code is sent anywhere. Students never see reports or marks.</p>
          <div className="form-grid">
            <Select label="Problem" value={problemId} onChange={(e) => setProblemId(e.target.value)}>
                <option value="">Every problem</option>
                {problemList.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.label}. {p.title}
                  </option>
                ))}
              </Select>
            <Select label="Submissions" value={pick} onChange={(e) => setPick(e.target.value as "best" | "last")}>
                <option value="best">Each {kind === "assignment" ? "student" : "team"}'s best</option>
                <option value="last">Each {kind === "assignment" ? "student" : "team"}'s last</option>
              </Select>
            <Select label="Compare with" value={against} onChange={(e) => setAgainst(e.target.value as "none" | "past")}>
                <option value="none">This {kind} only</option>
                <option value="past">Also earlier offerings of the same problem</option>
              </Select>
            <Checkbox label="Compare C with C++" checked={crossLanguage} onChange={(e) => setCrossLanguage(e.target.checked)} />
          </div>
          <Select label="Starter code language" description="The language of the starter code below." value={starterLanguage} onChange={(e) => setStarterLanguage(e.target.value as LanguageId)}>
              {LANGUAGE_LIST.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
          </Select>
          <TextArea label="Starter code" description="Optional: code you handed out is ignored, like each language's boilerplate." mono rows={6} value={starter} onChange={(e) => setStarter(e.target.value)} />
          {error && <p className="form-error" role="alert">{error}</p>}
          <button type="button" className="btn btn-primary" onClick={run} disabled={busy}>
            {busy ? "Starting..." : "Run report"}
          </button>
        </section>
        <QueryState query={list} loading="Loading reports..." error="Failed to fetch the reports" isEmpty={(l) => l.length === 0} empty={<p className="muted">No report yet.</p>}>
          {(reports) => (
            <table className="data-table" aria-label="Reports">
              <thead>
                <tr>
                  <th scope="col">Asked</th>
                  <th scope="col">Problem</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {reports.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Link href={`/similarity/${r.id}`}><DateTime value={r.createdAtMs} mode="auto" /></Link>
                    </td>
                    <td>{r.problemId ? (problemList.find((p) => p.id === r.problemId)?.title ?? r.problemId) : "Every problem"}</td>
                    <td>{r.status === "running" ? `running (${Math.round(r.progress * 100)}%)` : r.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </Page>
  );
}
