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

type Contest = RouterOutputs["contests"]["byId"];

const seenKey = (id: string) => `contest-clarifications-seen:${id}`;

export function Clarifications({ contest }: { contest: Contest }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const notice = useNotice();
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
      error: "Could not send",
      success: jury ? "Announced to every team." : "Sent to the jury.",
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
    await notice.run(() => client.contests.clarify.mutate({ id: contest.id, replyToId: questionId, text: reply, ...(toAll ? { toAll: true } : {}) }), { error: "Could not answer" });
    setAnswers((a) => ({ ...a, [questionId]: "" }));
    await refresh();
  };
  const labelOf = (pid: string | null) => contest.problems.find((p) => p.problemId === pid)?.label ?? "General";

  return (
    <section className="card" aria-labelledby="clar-title" onMouseEnter={jury ? undefined : markSeen} onFocus={jury ? undefined : markSeen}>
      <h2 id="clar-title">
        Clarifications{" "}
        {unseen > 0 && (
          <span className="badge" data-testid="clarification-badge">
            {unseen}
            <span className="sr-only">{jury ? " unanswered" : " new"}</span>
          </span>
        )}
      </h2>
      <ul className="clar-list">
        {list.map((c) => (
          <li key={c.id} className={c.fromTeamId ? "clar-question" : "clar-answer"} data-testid="clarification">
            <span className="muted">
              {c.fromTeamId ? `${c.fromTeamName ?? "A team"} asks` : c.toTeamId ? "Jury answers you" : "Jury, to all"} · {labelOf(c.problemId)}
            </span>
            <p>{c.text}</p>
            {jury && c.fromTeamId && !c.answered && (
              <div className="clar-reply">
                <TextField label="Answer" value={answers[c.id] ?? ""} onChange={(e) => setAnswers((a) => ({ ...a, [c.id]: e.target.value }))} />
                <button type="button" className="btn btn-primary btn-sm" onClick={() => void answer(c.id, false)}>
                  Answer the team
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => void answer(c.id, true)}>
                  Answer all
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {(contest.role === "participant" || jury) && (
        <form onSubmit={send} className="clar-form">
          <Select label="About" value={problemId} onChange={(e) => setProblemId(e.target.value)}>
            <option value="">General</option>
            {contest.problems.map((p) => (
              <option key={p.problemId} value={p.problemId}>
                {p.label}. {p.title}
              </option>
            ))}
          </Select>
          <TextArea label={jury ? "Announcement" : "Question"} required value={text} onChange={(e) => setText(e.target.value)} rows={2} />
          <button type="submit" className="btn btn-primary btn-sm">
            {jury ? "Announce" : "Ask the jury"}
          </button>
        </form>
      )}
      <FormMessage notice={notice.notice} />
    </section>
  );
}

export type { Contest };
