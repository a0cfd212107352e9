/**
 * A participant's entry into a contest that asks for one (a proctor's password, one session or lock-down;
 * decision 081): the rules that apply, then, inside their window, Enter (with the proctor's password when one
 * is set). Until then the contest's problems stay hidden from them. A refusal shows the server's message,
 * which names the rule.
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TextField } from "../kit/index.ts";
import { serverMessageOf, useTRPC, type RouterOutputs } from "../lib/trpc.ts";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { exam } from "../i18n/catalog/exam/index.ts";
import { RuleList } from "../courses/exam/ExamPanel.tsx";

type Contest = RouterOutputs["contests"]["byId"];

/** The rules a contest applies, in words (one sentence each). */
export function ContestRules({ contest: c }: { contest: Contest }) {
  const t = useT(exam);
  const x = c.exam;
  return (
    <RuleList
      rules={[
        x.passwordRequired ? t("rules.passwordContest") : null,
        x.addressRestricted ? t("rules.address") : null,
        x.sebRequired ? t("rules.seb") : null,
        x.oneSession ? t("rules.oneSession") : null,
        x.lockDown ? t("rules.lockDownContest") : null,
      ]}
    />
  );
}

/** @param inWindow whether the participant's window is open now (before it Enter is not offered; after it the panel says so). */
export function ContestEntry({ contest: c, inWindow }: { contest: Contest; inWindow: boolean }) {
  const t = useT(exam);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const enter = useMutation(trpc.contests.enter.mutationOptions());
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  async function onEnter(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await enter.mutateAsync({ id: c.id, ...(c.exam.passwordRequired ? { password } : {}) });
      await queryClient.invalidateQueries();
    } catch (err) {
      setError(serverMessageOf(err) ?? t("enter.failed"));
    }
  }
  return (
    <section className="card exam-panel" aria-labelledby="contest-entry-title">
      <h2 id="contest-entry-title">{t("enter.title")}</h2>
      <ContestRules contest={c} />
      {c.exam.enteredAt ? (
        <p data-testid="contest-entered">
          <T ns={exam} k="enter.done" components={{ 0: <DateTime value={c.exam.enteredAt} /> }} />
        </p>
      ) : !inWindow ? (
        <p className="muted">{t("enter.notNow")}</p>
      ) : (
        <form onSubmit={onEnter} className="exam-start" noValidate>
          <p>{t("enter.explain")}</p>
          {c.exam.passwordRequired && (
            <TextField label={t("start.password")} type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} required />
          )}
          {error && (
            <p role="alert" className="form-error" data-testid="exam-error">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={enter.isPending}>
            {t("enter.button")}
          </button>
        </form>
      )}
    </section>
  );
}
