/**
 * One contest: its clock (a countdown to the start, then the time left), the
 * problems with labels and colours (opened in the solving page, which submits
 * into the contest), what the visitor can do now (./NextStep.tsx: sign in,
 * register, wait), registration, the team's submissions or, for the jury,
 * every submission with rejudge, the clarifications, and the jury's controls
 * (unfreeze, finalize, the reveal, the balloon list).
 */
import { TextField } from "../kit/index.ts";
import { Page } from "../components/shell/Page.tsx";
import { useState, type FormEvent } from "react";
import { Link } from "wouter";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { useNow } from "../courses/useNow.ts";
import { useNotice } from "../lib/notice.ts";
import { useAuth } from "../lib/auth.tsx";
import { httpStatusOf, useTRPC, useTRPCClient } from "../lib/trpc.ts";
import { languageName } from "../lib/languages.ts";
import { VerdictBadge } from "../components/VerdictBadge.tsx";
import { Clarifications, type Contest } from "./Clarifications.tsx";
import { ContestRoles } from "./ContestRoles.tsx";
import { clock, contestClock, windowOf } from "./format.ts";
import { groupedReasons, juryActionReasons, type JuryAction } from "./jury-actions.ts";
import { HiddenFromGuest, NextStep, problemsHiddenKey } from "./NextStep.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { contests } from "../i18n/catalog/contests/index.ts";
import { ContestEntry } from "./ContestEntry.tsx";
import { ExamAccessLog } from "../courses/exam/ExamAccessLog.tsx";

function Register({ contest, onDone }: { contest: Contest; onDone: () => void }) {
  const client = useTRPCClient();
  const notice = useNotice();
  const t = useT(contests);
  const [f, setF] = useState({ teamName: "", organization: "", code: "", teamCode: "" });
  const over = contest.phase === "over";
  const submit = async (e: FormEvent, virtual = false) => {
    e.preventDefault();
    const body = virtual
      ? { id: contest.id, virtual: true }
      : f.teamCode
        ? { id: contest.id, teamCode: f.teamCode }
        : { id: contest.id, ...(f.teamName ? { teamName: f.teamName } : {}), ...(f.organization ? { organization: f.organization } : {}), ...(f.code ? { code: f.code } : {}) };
    if (await notice.run(() => client.contests.register.mutate(body), { error: t("register.error") })) onDone();
  };
  if (over) {
    return (
      <form className="card" onSubmit={(e) => void submit(e, true)}>
        <p>{t("register.overText")}</p>
        <button type="submit" className="btn btn-primary btn-sm">
          {t("register.virtual")}
        </button>
        <FormMessage notice={notice.notice} />
      </form>
    );
  }
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-label={t("register.title")}>
      <h2>{t("register.title")}</h2>
      <TextField label={t("register.teamName")} description={t("register.teamNameHelp")} value={f.teamName} onChange={set("teamName")} />
      <TextField label={t("register.organization")} value={f.organization} onChange={set("organization")} />
      {contest.registration === "code" && <TextField label={t("register.code")} value={f.code} onChange={set("code")} />}
      <TextField label={t("register.teamCode")} value={f.teamCode} onChange={set("teamCode")} />
      <button type="submit" className="btn btn-primary btn-sm">
        {t("register.submit")}
      </button>
      <FormMessage notice={notice.notice} />
    </form>
  );
}

function Submissions({ contest }: { contest: Contest }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const t = useT(contests);
  const jury = contest.role === "jury";
  const query = useQuery({ ...trpc.contests.submissions.queryOptions({ id: contest.id }), refetchInterval: 5000 });
  const rejudge = async (submissionId: string) => {
    await client.contests.rejudge.mutate({ id: contest.id, submissionId });
    await qc.invalidateQueries({ queryKey: trpc.contests.submissions.queryKey({ id: contest.id }) });
  };
  return (
    <section className="card" aria-labelledby="subs-title">
      <h2 id="subs-title">{jury ? t("submissions.all") : t("submissions.team")}</h2>
      <QueryState query={query} loading={t("submissions.loading")} error={t("submissions.error")} isEmpty={(l) => l.length === 0} empty={<p className="muted">{t("submissions.empty")}</p>}>
        {(list) => (
          <div className="table-scroll">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t("submissions.time")}</th>
                  {jury && <th scope="col">{t("submissions.teamColumn")}</th>}
                  <th scope="col">{t("submissions.problem")}</th>
                  <th scope="col">{t("submissions.language")}</th>
                  <th scope="col">{t("submissions.verdict")}</th>
                  {jury && (
                    <th scope="col">
                      <span className="sr-only">{t("submissions.actions")}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {[...list].reverse().map((s) => (
                  <tr key={s.id} data-testid="contest-submission">
                    <td>{clock(s.contestTimeMs)}</td>
                    {jury && <td>{s.teamName ?? t("submissions.jury")}</td>}
                    <td>{s.label}</td>
                    <td>{languageName(s.language)}</td>
                    <td>
                      <VerdictBadge verdict={s.status === "done" ? s.verdict : null} />
                    </td>
                    {jury && (
                      <td>
                        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void rejudge(s.id)} disabled={s.status !== "done"}>
                          {t("submissions.rejudge")}
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </section>
  );
}

function JuryControls({ contest, onDone }: { contest: Contest; onDone: () => void }) {
  const client = useTRPCClient();
  const notice = useNotice();
  const t = useT(contests);
  const why = juryActionReasons(contest);
  const reasons = groupedReasons(why);
  const describedBy = (action: JuryAction) => reasons.find((r) => r.actions.includes(action))?.id;
  return (
    <section className="card" aria-label={t("jury.title")}>
      <h2>{t("jury.title")}</h2>
      {contest.registrationCode && (
        <p>
          <T ns={contests} k="jury.registrationCode" values={{ code: contest.registrationCode }} components={{ 0: <code /> }} />
        </p>
      )}
      <div className="card-actions">
        <Link href={`/contests/${contest.shortName}/balloons`} className="btn btn-ghost btn-sm">
          {t("jury.balloons")}
        </Link>
        {why.reveal === null ? (
          <Link href={`/contests/${contest.shortName}/reveal`} className="btn btn-ghost btn-sm">
            {t("jury.reveal")}
          </Link>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm" disabled aria-describedby={describedBy("reveal")}>
            {t("jury.reveal")}
          </button>
        )}
        <Link href={`/contests/${contest.id}/similarity`} className="btn btn-ghost btn-sm">
          {t("jury.similarity")}
        </Link>
        {/* A course's TA judges but does not change the contest: no unfreeze or finalize (the server refuses them too). */}
        <button type="button" className="btn btn-ghost btn-sm" disabled={why.unfreeze !== null} aria-describedby={describedBy("unfreeze")} onClick={() => void notice.run(() => client.contests.unfreeze.mutate({ id: contest.id }), { error: t("jury.unfreezeError"), success: t("jury.unfrozen") }).then(onDone)}>
          {t("jury.unfreeze")}
        </button>
        {/* Finalizing before the unfreeze is allowed: the public then gets the frozen board's awards until the unfreeze (decision 046). */}
        <button type="button" className="btn btn-ghost btn-sm" disabled={why.finalize !== null} aria-describedby={describedBy("finalize")} onClick={() => void notice.run(() => client.contests.finalize.mutate({ id: contest.id }), { error: t("jury.finalizeError"), success: contest.frozen ? t("jury.finalFrozen") : t("jury.final") }).then(onDone)}>
          {t("jury.finalize")}
        </button>
      </div>
      {reasons.length > 0 && (
        <ul className="plain-list muted jury-reasons" data-testid="jury-reasons">
          {reasons.map((r) => (
            <li key={r.id} id={r.id}>
              {t(r.key)}
            </li>
          ))}
        </ul>
      )}
      <FormMessage notice={notice.notice} />
    </section>
  );
}

export default function ContestPage({ contestId }: { contestId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const now = useNow(1000);
  const { status } = useAuth();
  const t = useT(contests);
  const query = useQuery({ ...trpc.contests.byId.queryOptions({ id: contestId }), refetchInterval: 30_000 });
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.contests.byId.queryKey({ id: contestId }) });
  // The server answers a guest 404 for a course contest (it does not say whether one exists): sign in and come back.
  const guestHidden = status === "unauthenticated" && query.isError && httpStatusOf(query.error) === 404;
  return (
    <Page title={query.data?.title ?? t("page.title")}>
      {guestHidden && <HiddenFromGuest />}
      {!guestHidden && (
        <QueryState query={query} loading={t("page.loading")} error={t("page.error")}>
          {(c) => {
            const mine = windowOf(c);
            const clk = contestClock(mine.startsAt, mine.endsAt, now, t);
            return (
              <>
                <div className="page-heading">
                  <h1 className="page-title">{c.title}</h1>
                  <p>
                    <strong className="countdown" data-testid="contest-clock">
                      {clk.text}
                    </strong>{" "}
                    {c.frozen && <span className="state-badge state-late">{t("page.frozen")}</span>}{" "}
                    <Link href={`/contests/${c.shortName}/scoreboard`} className="btn btn-primary btn-sm">
                      {t("page.scoreboard")}
                    </Link>{" "}
                    <Link href="/contests" className="text-link">
                      {t("page.allContests")}
                    </Link>
                  </p>
                  <p className="muted">
                    <DateTime value={c.startsAt} withZone /> · {t("page.length", { minutes: c.durationMinutes })} · {c.scoring === "icpc" ? t("page.icpc", { penalty: c.penaltyMinutes }) : "IOI"}
                    {c.freezesAt && (
                      <>
                        {" · "}
                        <T ns={contests} k="page.frozenFrom" components={{ 0: <DateTime value={c.freezesAt} withZone /> }} />
                      </>
                    )}
                  </p>
                </div>
                <NextStep contest={c} nowMs={now} register={<Register contest={c} onDone={refresh} />} />
                {c.role === "participant" && c.exam.needsEntry && (
                  <ContestEntry contest={c} inWindow={now >= Date.parse(mine.startsAt) && now < Date.parse(mine.endsAt)} />
                )}
                {c.team && (
                  <p className="card" data-testid="team">
                    {c.team.organization ? (
                      <T ns={contests} k="page.teamWithOrganization" values={{ name: c.team.name, organization: c.team.organization }} components={{ 0: <strong /> }} />
                    ) : (
                      <T ns={contests} k="page.team" values={{ name: c.team.name }} components={{ 0: <strong /> }} />
                    )}{" "}
                    · {c.team.members.map((m) => m.name).join(", ")}
                    {c.team.joinCode && (
                      <>
                        {" "}
                        · <T ns={contests} k="page.teamCode" values={{ code: c.team.joinCode }} components={{ 0: <code /> }} />
                      </>
                    )}
                  </p>
                )}
                <section className="card" aria-labelledby="problems-title">
                  <h2 id="problems-title">{t("page.problems")}</h2>
                  {c.problems.length === 0 ? (
                    <p className="muted">{t(problemsHiddenKey(c))}</p>
                  ) : (
                    <ul className="contest-problems">
                      {c.problems.map((p) => (
                        <li key={p.problemId}>
                          <span className="sb-balloon" style={p.color ? { background: p.color } : undefined} aria-hidden="true" />
                          <strong>{p.label}</strong>{" "}
                          {c.role === "participant" || c.role === "jury" ? <Link href={`/solve/${p.problemId}?contest=${c.shortName}`}>{p.title}</Link> : p.title}
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
                {c.role === "jury" && <JuryControls contest={c} onDone={refresh} />}
                {c.role === "jury" && (c.exam.needsEntry || c.exam.addressRestricted || c.exam.sebRequired) && <ExamAccessLog contestId={c.id} oneSession={c.exam.oneSession} />}
                <ContestRoles contest={c} />
                {(c.role === "participant" || c.role === "jury") && <Submissions contest={c} />}
                {(c.role === "participant" || c.role === "jury") && <Clarifications contest={c} />}
              </>
            );
          }}
        </QueryState>
      )}
    </Page>
  );
}
