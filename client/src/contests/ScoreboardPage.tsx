/**
 * The live scoreboard: read once, then kept current by the scoreboardUpdates
 * subscription (no reload). `?projector` shows it full width in large type for
 * a wall; the theme toggle switches light and dark. Frozen for everyone but
 * the jury during the freeze (the server decides what each viewer gets).
 */
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "wouter";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { Page } from "../components/shell/Page.tsx";
import { useDocumentTitle } from "../components/shell/useDocumentTitle.ts";
import { useNow } from "../courses/useNow.ts";
import { useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { contestClock } from "./format.ts";
import { ScoreboardTable, type Board } from "./Scoreboard.tsx";
import { applyDelta, isDelta } from "../../../src/contests/board-delta.ts";
import { useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";

export default function ScoreboardPage({ contestId }: { contestId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [params] = useSearchParams();
  const projector = params.has("projector");
  const now = useNow(1000);
  const t = useT(contests);
  const contest = useQuery(trpc.contests.byId.queryOptions({ id: contestId }));
  const first = useQuery({ ...trpc.contests.scoreboard.queryOptions({ id: contestId }), refetchOnWindowFocus: false });
  const [board, setBoard] = useState<Board | null>(null);
  const [live, setLive] = useState<"connecting" | "live" | "offline">("connecting");

  useEffect(() => {
    if (!first.data) return;
    setBoard(first.data);
    const sub = client.contests.scoreboardUpdates.subscribe(
      { id: contestId, version: first.data.version },
      {
        onStarted: () => setLive("live"),
        // A delta (the rows that changed and the new order) applies to the board held; one that
        // does not fit it (never expected: the server follows this subscription's version) reloads.
        onData: (b) => {
          if (!isDelta(b)) return setBoard(b as Board);
          setBoard((held) => {
            const next = held ? applyDelta(held, b) : null;
            if (!next) void first.refetch();
            return next ?? held;
          });
        },
        onError: () => setLive("offline"),
      },
    );
    return () => sub.unsubscribe();
  }, [client, contestId, first.data]);

  const c = contest.data;
  const clock = c ? contestClock(c.startsAt, c.endsAt, now, t) : null;
  const title = c ? t("scoreboard.documentTitle", { title: c.title }) : t("scoreboard.title");
  useDocumentTitle(title);
  const body = (
      <>
        <div className="page-heading sb-heading">
          <h1 className="page-title">{c ? c.title : t("scoreboard.title")}</h1>
          <p className="sb-status">
            {clock && <strong data-testid="contest-clock">{clock.text}</strong>}
            {board?.frozen && (
              <span className="state-badge state-late" data-testid="frozen-badge">
                {t("scoreboard.frozen")}
              </span>
            )}
            <span className={`live-dot live-${live}`} aria-hidden="true" />
            <span className="sr-only">{t("scoreboard.live", { state: live })}</span>
            {!projector && (
              <>
                <Link href={`/contests/${contestId}/scoreboard?projector`} className="text-link">
                  {t("scoreboard.projector")}
                </Link>{" "}
                <Link href={`/contests/${contestId}`} className="text-link">
                  {t("nav.backToContest")}
                </Link>
              </>
            )}
          </p>
        </div>
        <QueryState query={first} loading={t("scoreboard.loading")} error={t("scoreboard.error")}>
          {() => (board ? <ScoreboardTable board={board} /> : null)}
        </QueryState>
      </>
  );
  // The projector view fills the screen for an audience: no site header.
  if (projector)
    return (
      <div className="page scoreboard-page projector">
        <main id="main" tabIndex={-1} className="page-main container-wide">
          {body}
        </main>
      </div>
    );
  return (
    <Page title={title} width="wide" pageClassName="scoreboard-page">
      {body}
    </Page>
  );
}
