/**
 * "Import package": a Kattis / ICPC problem package (.zip) uploaded through
 * `problems.importPackage`; the result says what was imported and what the
 * package had that the problem does not keep (src/packages).
 */
import { useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { Spinner } from "../components/Loading.tsx";
import { FileButton } from "../kit/FileButton.tsx";
import { useSessionExpiry } from "../lib/auth.tsx";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import type { Difficulty } from "../lib/types.ts";

/** The file's bytes as base64, in slices (String.fromCharCode has an argument limit). */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export interface ImportOutcome {
  kind: "success" | "error";
  title: string;
  /** Where the imported problem's time limit came from, in words. */
  timeLimit?: string;
  details: string[];
  /** The imported problem, when it has example submissions to verify. */
  verifiable?: { problemId: string; examples: number };
}

/** "Verify now": the problem's example submissions judged in the background, with the rows as they come. */
function VerifyPanel({ problemId, examples }: { problemId: string; examples: number }) {
  const trpc = useTRPC();
  const start = useMutation(trpc.problems.verify.mutationOptions());
  const status = useQuery({
    ...trpc.problems.verifyStatus.queryOptions({ id: problemId }),
    enabled: start.isSuccess,
    refetchInterval: (q) => (q.state.data?.state === "running" || !q.state.data ? 1000 : false),
  });
  const s = status.data ?? start.data;
  if (!start.isSuccess && !start.isPending) {
    return (
      <div className="verify-panel">
        {start.isError && <p role="alert">{serverMessageOf(start.error) ?? "Verify could not start."}</p>}
        <button type="button" className="btn btn-primary btn-sm" onClick={() => start.mutate({ id: problemId })}>
          Verify now ({examples} example submission{examples === 1 ? "" : "s"})
        </button>
      </div>
    );
  }
  return (
    <div className="verify-panel" aria-live="polite">
      <p>
        {!s || s.state === "running"
          ? `Verifying: ${s?.rows.length ?? 0} of ${s?.total ?? examples} judged…`
          : s.state === "failed"
            ? `Verify failed: ${s.error ?? "unknown error"}`
            : s.report?.ok
              ? `All ${s.total} example submissions as expected (time limit ${s.report.timeLimitMs} ms${s.derivedTimeLimitMs ? ", derived from the accepted ones and set on the problem" : ""}).`
              : `${s.rows.filter((r) => !r.ok).length} of ${s.total} example submissions not as expected (time limit ${s.report?.timeLimitMs} ms).`}
      </p>
      {s && s.rows.length > 0 && (
        <ul className="verify-rows">
          {s.rows.map((r) => (
            <li key={r.path} className={r.ok ? "ok" : "fail"}>
              {r.ok ? "OK" : "FAIL"} {r.path}: expected {r.expected}, got {r.verdict}, {r.maxTimeMs} ms{r.note ? ` (${r.note})` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What an import said, shown under the page's heading (ImportOutcomeMessage). */
export function ImportOutcomeMessage({ outcome, onDismiss }: { outcome: ImportOutcome | null; onDismiss: () => void }) {
  if (!outcome) return null;
  return (
    <div className={`alert import-outcome ${outcome.kind === "success" ? "alert-success" : "alert-error"}`} role={outcome.kind === "error" ? "alert" : "status"}>
      <p>{outcome.title}</p>
      {outcome.timeLimit && <p className="import-time-limit">{outcome.timeLimit}</p>}
      {outcome.details.length > 0 && (
        <ul>
          {outcome.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {outcome.verifiable && <VerifyPanel problemId={outcome.verifiable.problemId} examples={outcome.verifiable.examples} />}
      <button type="button" className="btn btn-ghost btn-sm" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

export function ImportPackageButton({
  difficulty,
  listKey,
  onImported,
  onOutcome,
}: {
  difficulty: Difficulty;
  listKey: QueryKey;
  onImported: (d: Difficulty) => void;
  onOutcome: (o: ImportOutcome | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onUnauthorized = useSessionExpiry();
  const importing = useMutation(trpc.problems.importPackage.mutationOptions());

  async function upload(file: File) {
    onOutcome(null);
    try {
      const r = await importing.mutateAsync({ package: await base64Of(file), difficulty });
      const subs = Object.entries(r.submissions).map(([k, n]) => `${n} ${k}`);
      onOutcome({
        kind: "success",
        title: `Imported "${r.problem.title}": ${r.problem.hiddenTestCount + 1} tests, ${r.problem.timeLimitMs} ms for every language.`,
        // Which file gave the time limit, or that it was derived (or is this judge's default, with the warning saying why).
        timeLimit: `Time limit from ${r.timeLimitFrom}.`,
        details: [
          ...r.warnings,
          ...(r.problem.pythonImplementation === "pypy" ? ["Python 3 submissions run on PyPy, as the package's languages say (the problem's form can change it)."] : []),
          ...(subs.length ? [`Example submissions in the package: ${subs.join(", ")}.`] : []),
        ],
        ...(subs.length ? { verifiable: { problemId: r.problem._id, examples: Object.values(r.submissions).reduce((a, b) => a + b, 0) } } : {}),
      });
      onImported(r.problem.difficulty);
      await queryClient.invalidateQueries({ queryKey: listKey });
    } catch (err) {
      if (onUnauthorized(err, "/signin")) return;
      onOutcome({ kind: "error", title: serverMessageOf(err) ?? "The package could not be imported.", details: [] });
    }
  }

  return (
    <>
      <FileButton inputLabel="Problem package (.zip)" accept=".zip,application/zip" disabled={importing.isPending} onFiles={(files) => void upload(files[0]!)}>
        {importing.isPending && <Spinner />} Import package
      </FileButton>
    </>
  );
}
