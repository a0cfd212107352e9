/**
 * A contest's clarifications: a team's questions and the answers and
 * announcements it may read, with a badge for answers not yet seen (kept in
 * this browser); the jury's queue of unanswered questions with an answer box
 * (to the team or to all) and an announcement box.
 */
import { Select, TextArea, TextField } from "../kit/index.ts";
import { useState, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC, useTRPCClient, type RouterOutputs } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";

type Contest = RouterOutputs["contests"]["byId"];

const seenKey = (id: string) => `contest-clarifications-seen:${id}`;

export function Clarifications({ contest }: { contest: Contest }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const notice = useNotice();
  const t = useT(contests);
  const jury = contest.role === "jury";
  const query = useQuery({ ...trpc.contests.clarifications.queryOptions({ id: contest.id }), refetchInterval: 10_000 });
  const [text, setText] = useState("");
  const [problemId, setProblemId] = useState("");
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [seen, setSeen] = useState<Set<string>>(() => new Set(JSON.parse(localStorage.getItem(seenKey(contest.id)) ?? "[]") as string[]));
  const list = query.data ?? [];
  const incoming = list.filter((c) => c.fromTeamId === null);
  const unseen = jury ? list.filter((c) => c.fromTeamId !== null && !c.answered).length : incoming.filter((c) => !seen.has(c.id)).length;

  const markSeen = () => {
    const next = new Set([...seen, ...incoming.map((c) => c.id)]);
    localStorage.setItem(seenKey(contest.id), JSON.stringify([...next]));
    setSeen(next);
  };

  const refresh = () => qc.invalidateQueries({ queryKey: trpc.contests.clarifications.queryKey({ id: contest.id }) });
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const done = await notice.run(() => client.contests.clarify.mutate({ id: contest.id, text, ...(problemId ? { problemId } : {}), ...(jury ? { toAll: true } : {}) }), {
      error: t("clar.sendError"),
      success: jury ? t("clar.announced") : t("clar.sent"),
      successMs: 4000,
    });
    if (done) {
      setText("");
      await refresh();
    }
  };
  const answer = async (questionId: string, toAll: boolean) => {
    const reply = answers[questionId]?.trim();
    if (!reply) return;
    await notice.run(() => client.contests.clarify.mutate({ id: contest.id, replyToId: questionId, text: reply, ...(toAll ? { toAll: true } : {}) }), { error: t("clar.answerError") });
    setAnswers((a) => ({ ...a, [questionId]: "" }));
    await refresh();
  };
  const labelOf = (pid: string | null) => contest.problems.find((p) => p.problemId === pid)?.label ?? t("clar.general");

  return (
    <section className="card" aria-labelledby="clar-title" onMouseEnter={jury ? undefined : markSeen} onFocus={jury ? undefined : markSeen}>
      <h2 id="clar-title">
        {t("clar.title")}{" "}
        {unseen > 0 && (
          <span className="badge" data-testid="clarification-badge">
            <T ns={contests} k={jury ? "clar.badgeUnanswered" : "clar.badgeNew"} values={{ count: unseen }} components={{ 0: <span className="sr-only" /> }} />
          </span>
        )}
      </h2>
      <ul className="clar-list">
        {list.map((c) => (
          <li key={c.id} className={c.fromTeamId ? "clar-question" : "clar-answer"} data-testid="clarification">
            <span className="muted">
              {c.fromTeamId ? (c.fromTeamName ? t("clar.teamAsks", { team: c.fromTeamName }) : t("clar.aTeamAsks")) : c.toTeamId ? t("clar.juryAnswersYou") : t("clar.juryToAll")} · {labelOf(c.problemId)}
            </span>
            <p>{c.text}</p>
            {jury && c.fromTeamId && !c.answered && (
              <div className="clar-reply">
                <TextField label={t("clar.answer")} value={answers[c.id] ?? ""} onChange={(e) => setAnswers((a) => ({ ...a, [c.id]: e.target.value }))} />
                <button type="button" className="btn btn-primary btn-sm" onClick={() => void answer(c.id, false)}>
                  {t("clar.answerTeam")}
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => void answer(c.id, true)}>
                  {t("clar.answerAll")}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {(contest.role === "participant" || jury) && (
        <form onSubmit={send} className="clar-form">
          <Select label={t("clar.about")} value={problemId} onChange={(e) => setProblemId(e.target.value)}>
            <option value="">{t("clar.general")}</option>
            {contest.problems.map((p) => (
              <option key={p.problemId} value={p.problemId}>
                {t("clar.option", { label: p.label, title: p.title })}
              </option>
            ))}
          </Select>
          <TextArea label={jury ? t("clar.announcement") : t("clar.question")} required value={text} onChange={(e) => setText(e.target.value)} rows={2} />
          <button type="submit" className="btn btn-primary btn-sm">
            {jury ? t("clar.announce") : t("clar.ask")}
          </button>
        </form>
      )}
      <FormMessage notice={notice.notice} />
    </section>
  );
}

export type { Contest };
