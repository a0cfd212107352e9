/**
 * Two programs of a similarity report side by side (staff, jury): the
 * fragments they share highlighted in matching colours; choosing a fragment
 * scrolls both sides to it, aligned at its first line. A mark (reviewed,
 * dismissed, flagged) with a note is kept for the pair; paste records show
 * when the course keeps them.
 */
import { Checkbox, RadioGroup, TextArea } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { languageName } from "../lib/languages.ts";
import { useTRPC, useTRPCClient, type RouterOutputs } from "../lib/trpc.ts";
import { namer, useAnonymous } from "./names.ts";
import { DateTime } from "../components/DateTime.tsx";

type Pair = RouterOutputs["similarity"]["pair"];
type Side = Pair["left"];
const COLOURS = 6;

function Code({ side, fragments, which, paneRef }: { side: Side; fragments: Pair["fragments"]; which: "left" | "right"; paneRef: React.RefObject<HTMLDivElement | null> }) {
  const lines = side.code.split("\n");
  const fragmentAt = (row: number) => fragments.findIndex((f) => f[which].startRow <= row && row <= f[which].endRow);
  return (
    <div className="pair-pane" ref={paneRef} data-testid={`pane-${which}`} tabIndex={0} role="region" aria-labelledby={`pair-name-${which}`}>
      <pre>
        {lines.map((line, row) => {
          const f = fragmentAt(row);
          return (
            <div key={row} data-row={row} className={f >= 0 ? `code-line fragment fragment-${f % COLOURS}` : "code-line"} data-fragment={f >= 0 ? f : undefined}>
              <span className="line-no">{row + 1}</span>
              {line || " "}
            </div>
          );
        })}
      </pre>
    </div>
  );
}

function Pastes({ side }: { side: Side }) {
  if (!side.pastes?.length) return null;
  return (
    <p className="muted" data-testid="pastes">
      Large pastes before this submission:{" "}
      {side.pastes.map((p, i) => (
        <span key={i}>
          {i > 0 && "; "}
          {p.chars} characters at <DateTime value={p.atMs} />
        </span>
      ))}
    </p>
  );
}

function MarkForm({ reportId, pair }: { reportId: string; pair: Pair & { id: string } }) {
  const client = useTRPCClient();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [status, setStatus] = useState<"" | "reviewed" | "dismissed" | "flagged">(pair.mark?.status ?? "");
  const [note, setNote] = useState(pair.mark?.note ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const save = async () => {
    await client.similarity.mark.mutate({ reportId, pairId: pair.id, status: status || null, note });
    setSaved(status ? `Marked ${status}.` : "Mark cleared.");
    await qc.invalidateQueries({ queryKey: trpc.similarity.byId.queryKey({ reportId }) });
  };
  return (
    <section className="card" aria-label="Mark">
      <h2>Review</h2>
      <RadioGroup
        label="Mark"
        inline
        value={status}
        onChange={setStatus}
        options={(["", "reviewed", "dismissed", "flagged"] as const).map((s) => ({ value: s, label: s || "no mark" }))}
      />
      <TextArea label="Note" description="For the other reviewers." rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      <button type="button" className="btn btn-primary btn-sm" onClick={save}>
        Save mark
      </button>
      {saved && (
        <span role="status" className="muted">
          {" "}
          {saved}
        </span>
      )}
    </section>
  );
}

function Loaded({ reportId, pairId, data }: { reportId: string; pairId: string; data: Pair }) {
  const trpc = useTRPC();
  const report = useQuery(trpc.similarity.byId.queryOptions({ reportId }));
  const [hidden, setHidden] = useAnonymous();
  const left = useRef<HTMLDivElement>(null);
  const right = useRef<HTMLDivElement>(null);
  const name = namer(report.data?.programs ?? [data.left, data.right], hidden);
  const show = (i: number) => {
    const f = data.fragments[i];
    if (!f) return;
    for (const [pane, row] of [[left, f.left.startRow], [right, f.right.startRow]] as const) {
      const el = pane.current?.querySelector(`[data-row="${row}"]`) as HTMLElement | null;
      if (el && pane.current) pane.current.scrollTop = el.offsetTop - pane.current.offsetTop;
    }
  };
  useEffect(() => show(0), [data]);
  return (
    <>
      <div className="pair-summary">
        {data.pair ? <strong>{Math.round(data.pair.similarity * 100)}% similar</strong> : null} · {data.fragments.length} shared fragments ·{" "}
        <Checkbox label="Hide names" checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
      </div>
      <div className="fragment-list" role="group" aria-label="Fragments">
        {data.fragments.map((f, i) => (
          <button type="button" key={i} className={`btn btn-ghost btn-sm fragment-${i % COLOURS}`} onClick={() => show(i)}>
            Lines {f.left.startRow + 1}–{f.left.endRow + 1} ↔ {f.right.startRow + 1}–{f.right.endRow + 1}
          </button>
        ))}
      </div>
      <div className="pair-view">
        {([["left", data.left, left], ["right", data.right, right]] as const).map(([which, side, ref]) => (
          <div key={which} className="pair-side">
            <h2 id={`pair-name-${which}`} data-testid={`name-${which}`}>{name(side.submissionId)}</h2>
            <p className="muted">
              {languageName(side.language)} · submitted <DateTime value={side.createdAtMs} mode="auto" />
            </p>
            <Pastes side={side} />
            <Code side={side} fragments={data.fragments} which={which} paneRef={ref} />
          </div>
        ))}
      </div>
      <MarkForm key={pairId} reportId={reportId} pair={{ ...data, id: pairId }} />
    </>
  );
}

export default function PairPage({ reportId, pairId }: { reportId: string; pairId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.similarity.pair.queryOptions({ reportId, pairId }));
  return (
    <Page title={"Similar pair"} width="wide">
        <div className="page-heading">
          <h1 className="page-title">Side by side</h1>
          <p>
            <Link href={`/similarity/${reportId}`} className="text-link">
              Back to the report
            </Link>
          </p>
        </div>
        <QueryState query={query} loading="Loading the pair..." error="Failed to fetch the pair">
          {(data) => <Loaded reportId={reportId} pairId={pairId} data={data} />}
        </QueryState>
      </Page>
  );
}
