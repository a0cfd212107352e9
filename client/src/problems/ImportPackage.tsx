/**
 * "Import package": a Kattis / ICPC problem package (.zip) uploaded through
 * `problems.importPackage`; the result says what was imported and what the
 * package had that the problem does not keep (src/packages).
 */
import { useRef } from "react";
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { Spinner } from "../components/Loading.tsx";
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
  details: string[];
}

/** What an import said, shown under the page's heading (ImportOutcomeMessage). */
export function ImportOutcomeMessage({ outcome, onDismiss }: { outcome: ImportOutcome | null; onDismiss: () => void }) {
  if (!outcome) return null;
  return (
    <div className={`alert import-outcome ${outcome.kind === "success" ? "alert-success" : "alert-error"}`} role={outcome.kind === "error" ? "alert" : "status"}>
      <p>{outcome.title}</p>
      {outcome.details.length > 0 && (
        <ul>
          {outcome.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
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
  const input = useRef<HTMLInputElement>(null);
  const importing = useMutation(trpc.problems.importPackage.mutationOptions());

  async function upload(file: File) {
    onOutcome(null);
    try {
      const r = await importing.mutateAsync({ package: await base64Of(file), difficulty });
      const subs = Object.entries(r.submissions).map(([k, n]) => `${n} ${k}`);
      onOutcome({
        kind: "success",
        title: `Imported "${r.problem.title}": ${r.problem.hiddenTestCount + 1} tests, ${r.problem.timeLimitMs} ms for every language.`,
        details: [...r.warnings, ...(subs.length ? [`Example submissions in the package: ${subs.join(", ")}.`] : [])],
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
      <input
        ref={input}
        type="file"
        accept=".zip,application/zip"
        hidden
        aria-label="Problem package (.zip)"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) void upload(file);
        }}
      />
      <button type="button" className="btn btn-ghost btn-sm" disabled={importing.isPending} onClick={() => input.current?.click()}>
        {importing.isPending && <Spinner />} Import package
      </button>
    </>
  );
}
