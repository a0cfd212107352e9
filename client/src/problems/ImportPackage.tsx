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
import { useT } from "../i18n/index.tsx";
import { problems } from "../i18n/catalog/problems/index.ts";
import { listOf } from "./list-format.ts";

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
  const t = useT(problems);
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
        {start.isError && <p role="alert">{serverMessageOf(start.error) ?? t("verify.cannotStart")}</p>}
        <button type="button" className="btn btn-primary btn-sm" onClick={() => start.mutate({ id: problemId })}>
          {t("verify.start", { count: examples })}
        </button>
      </div>
    );
  }
  return (
    <div className="verify-panel" aria-live="polite">
      <p>
        {!s || s.state === "running"
          ? t("verify.running", { judged: s?.rows.length ?? 0, total: s?.total ?? examples })
          : s.state === "failed"
            ? t("verify.failed", { error: s.error ?? t("verify.unknownError") })
            : s.report?.ok
              ? t(s.derivedTimeLimitMs ? "verify.allAsExpectedDerived" : "verify.allAsExpected", { total: s.total, timeLimitMs: s.report.timeLimitMs })
              : t("verify.notAsExpected", { failed: s.rows.filter((r) => !r.ok).length, total: s.total, timeLimitMs: s.report?.timeLimitMs ?? "" })}
      </p>
      {s && s.rows.length > 0 && (
        <ul className="verify-rows">
          {s.rows.map((r) => (
            <li key={r.path} className={r.ok ? "ok" : "fail"}>
              {t(r.ok ? (r.note ? "verify.rowOkNote" : "verify.rowOk") : r.note ? "verify.rowFailNote" : "verify.rowFail", {
                path: r.path,
                expected: r.expected,
                verdict: r.verdict,
                timeMs: r.maxTimeMs,
                note: r.note ?? "",
              })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What an import said, shown under the page's heading (ImportOutcomeMessage). */
export function ImportOutcomeMessage({ outcome, onDismiss }: { outcome: ImportOutcome | null; onDismiss: () => void }) {
  const t = useT(problems);
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
        {t("import.dismiss")}
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
  const t = useT(problems);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onUnauthorized = useSessionExpiry();
  const importing = useMutation(trpc.problems.importPackage.mutationOptions());

  async function upload(file: File) {
    onOutcome(null);
    try {
      const r = await importing.mutateAsync({ package: await base64Of(file), difficulty });
      const subs = Object.entries(r.submissions).map(([verdict, count]) => t("import.exampleCount", { count, verdict }));
      onOutcome({
        kind: "success",
        title: t("import.imported", { title: r.problem.title, tests: r.problem.hiddenTestCount + 1, timeLimitMs: r.problem.timeLimitMs }),
        // Which file gave the time limit, or that it was derived (or is this judge's default, with the warning saying why).
        timeLimit: t("import.timeLimitFrom", { source: r.timeLimitFrom }),
        details: [
          ...r.warnings,
          ...(r.problem.pythonImplementation === "pypy" ? [t("import.pypy")] : []),
          ...(subs.length ? [t("import.examples", { list: listOf(subs) })] : []),
        ],
        ...(subs.length ? { verifiable: { problemId: r.problem._id, examples: Object.values(r.submissions).reduce((a, b) => a + b, 0) } } : {}),
      });
      onImported(r.problem.difficulty);
      await queryClient.invalidateQueries({ queryKey: listKey });
    } catch (err) {
      if (onUnauthorized(err, "/signin")) return;
      onOutcome({ kind: "error", title: serverMessageOf(err) ?? t("import.failed"), details: [] });
    }
  }

  return (
    <>
      <FileButton inputLabel={t("import.inputLabel")} accept=".zip,application/zip" disabled={importing.isPending} onFiles={(files) => void upload(files[0]!)}>
        {importing.isPending && <Spinner />} {t("import.button")}
      </FileButton>
    </>
  );
}
