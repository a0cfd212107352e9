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
import { T, useT } from "../i18n/index.tsx";
import { similarity } from "../i18n/catalog/similarity/index.ts";
import { MARK_KEYS, usePercent } from "./format.ts";

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
  const t = useT(similarity);
  if (!side.pastes?.length) return null;
  return (
    <p className="muted" data-testid="pastes">
      {t("pastes.label")}{" "}
      {side.pastes.map((p, i) => (
        <span key={i}>
          {i > 0 && t("pastes.separator")}
          <T ns={similarity} k="pastes.paste" values={{ count: p.chars, when: <DateTime value={p.atMs} /> }} />
        </span>
      ))}
    </p>
  );
}

function MarkForm({ reportId, pair }: { reportId: string; pair: Pair & { id: string } }) {
  const t = useT(similarity);
  const client = useTRPCClient();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [status, setStatus] = useState<"" | "reviewed" | "dismissed" | "flagged">(pair.mark?.status ?? "");
  const [note, setNote] = useState(pair.mark?.note ?? "");
  /** The mark just saved ("" when cleared), shown as a status until the next save. */
  const [saved, setSaved] = useState<"" | "reviewed" | "dismissed" | "flagged" | null>(null);
  const save = async () => {
    await client.similarity.mark.mutate({ reportId, pairId: pair.id, status: status || null, note });
    setSaved(status);
    await qc.invalidateQueries({ queryKey: trpc.similarity.byId.queryKey({ reportId }) });
  };
  return (
    <section className="card" aria-label={t("mark.section")}>
      <h2>{t("mark.title")}</h2>
      <RadioGroup
        label={t("mark.section")}
        inline
        value={status}
        onChange={setStatus}
        options={(["", "reviewed", "dismissed", "flagged"] as const).map((s) => ({ value: s, label: t(MARK_KEYS[s]) }))}
      />
      <TextArea label={t("mark.note")} description={t("mark.noteHelp")} rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      <button type="button" className="btn btn-primary btn-sm" onClick={save}>
        {t("mark.save")}
      </button>
      {saved !== null && (
        <span role="status" className="muted">
          {" "}
          {saved ? t("mark.saved", { status: saved }) : t("mark.cleared")}
        </span>
      )}
    </section>
  );
}

function Loaded({ reportId, pairId, data }: { reportId: string; pairId: string; data: Pair }) {
  const t = useT(similarity);
  const percent = usePercent();
  const trpc = useTRPC();
  const report = useQuery(trpc.similarity.byId.queryOptions({ reportId }));
  const [hidden, setHidden] = useAnonymous();
  const left = useRef<HTMLDivElement>(null);
  const right = useRef<HTMLDivElement>(null);
  const name = namer(report.data?.programs ?? [data.left, data.right], hidden, t);
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
        {data.pair ? <strong>{t("pair.similar", { percent: percent(data.pair.similarity) })}</strong> : null} · {t("pair.fragments", { count: data.fragments.length })} ·{" "}
        <Checkbox label={t("names.hide")} checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
      </div>
      <div className="fragment-list" role="group" aria-label={t("pair.fragmentList")}>
        {data.fragments.map((f, i) => (
          <button type="button" key={i} className={`btn btn-ghost btn-sm fragment-${i % COLOURS}`} onClick={() => show(i)}>
            {t("pair.fragmentLines", { leftFrom: f.left.startRow + 1, leftTo: f.left.endRow + 1, rightFrom: f.right.startRow + 1, rightTo: f.right.endRow + 1 })}
          </button>
        ))}
      </div>
      <div className="pair-view">
        {([["left", data.left, left], ["right", data.right, right]] as const).map(([which, side, ref]) => (
          <div key={which} className="pair-side">
            <h2 id={`pair-name-${which}`} data-testid={`name-${which}`}>{name(side.submissionId)}</h2>
            <p className="muted">
              <T ns={similarity} k="pair.submitted" values={{ language: languageName(side.language), when: <DateTime value={side.createdAtMs} mode="auto" /> }} />
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
  const t = useT(similarity);
  const trpc = useTRPC();
  const query = useQuery(trpc.similarity.pair.queryOptions({ reportId, pairId }));
  return (
    <Page title={t("pair.pageTitle")} width="wide">
        <div className="page-heading">
          <h1 className="page-title">{t("pair.title")}</h1>
          <p>
            <Link href={`/similarity/${reportId}`} className="text-link">
              {t("pair.back")}
            </Link>
          </p>
        </div>
        <QueryState query={query} loading={t("pair.loading")} error={t("pair.error")}>
          {(data) => <Loaded reportId={reportId} pairId={pairId} data={data} />}
        </QueryState>
      </Page>
  );
}
