/**
 * A student's exam panel on the assignment page (an assignment that needs Start): the rules that apply,
 * Start (with the proctor's password when one is set), then the clock of their window. A refusal shows the
 * server's message, which names the rule.
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TextField } from "../../kit/index.ts";
import { serverMessageOf, useTRPC, type RouterOutputs } from "../../lib/trpc.ts";
import { useT } from "../../i18n/index.tsx";
import { exam } from "../../i18n/catalog/exam/index.ts";
import { ExamClock } from "./ExamClock.tsx";

type Assignment = RouterOutputs["assignments"]["byId"];

/** Rules in words, one sentence each (those that apply; null: a rule that does not): an assignment's or a contest's. */
export function RuleList({ rules }: { rules: (string | null)[] }) {
  const shown = rules.filter((r): r is string => r !== null);
  if (!shown.length) return null;
  return (
    <ul className="exam-rules">
      {shown.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
}

/** The rules an exam applies, in words (one sentence each). */
export function ExamRules({ a }: { a: Assignment }) {
  const t = useT(exam);
  const x = a.exam;
  return (
    <RuleList
      rules={[
        x.timeLimitMinutes !== null ? t("rules.timed", { minutes: x.timeLimitMinutes }) : null,
        x.passwordRequired ? t("rules.password") : null,
        x.addressRestricted ? t("rules.address") : null,
        x.sebRequired ? t("rules.seb") : null,
        x.oneSession ? t("rules.oneSession") : null,
        x.lockDown ? t("rules.lockDown") : null,
      ]}
    />
  );
}

export function ExamPanel({ assignment: a }: { assignment: Assignment }) {
  const t = useT(exam);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.exam.status.queryOptions({ id: a.id }));
  const start = useMutation(trpc.exam.start.mutationOptions());
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  async function onStart(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await start.mutateAsync({ id: a.id, ...(a.exam.passwordRequired ? { password } : {}) });
      await queryClient.invalidateQueries();
    } catch (err) {
      setError(serverMessageOf(err) ?? t("start.failed"));
    }
  }
  const s = status.data;
  return (
    <section className="card exam-panel" aria-labelledby="exam-title">
      <h2 id="exam-title">{t("panel.title")}</h2>
      <ExamRules a={a} />
      {status.isError && (
        <p role="alert" className="form-error">
          {serverMessageOf(status.error) ?? t("panel.loadFailed")}
        </p>
      )}
      {s?.state === "open" && s.endsAt && <ExamClock endsAt={s.endsAt} onOver={() => void status.refetch()} />}
      {s?.state === "over" && <p>{t("panel.over")}</p>}
      {s?.state === "not-started" && (
        <form onSubmit={onStart} className="exam-start" noValidate>
          {s.timeLimitMinutes !== null && (
            <p>
              {s.extraTimePercent || s.extraMinutes
                ? t("start.withExtra", { minutes: s.timeLimitMinutes })
                : t("start.explain", { minutes: s.timeLimitMinutes })}
            </p>
          )}
          {a.exam.passwordRequired && (
            <TextField label={t("start.password")} type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} required />
          )}
          {error && (
            <p role="alert" className="form-error" data-testid="exam-error">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={start.isPending}>
            {t("start.button")}
          </button>
        </form>
      )}
    </section>
  );
}

/** The clock on the solving page: shown while the student's window is open. */
export function ExamBannerClock({ assignmentId }: { assignmentId: string }) {
  const trpc = useTRPC();
  const status = useQuery(trpc.exam.status.queryOptions({ id: assignmentId }));
  if (status.data?.state !== "open" || !status.data.endsAt) return null;
  return <ExamClock endsAt={status.data.endsAt} onOver={() => void status.refetch()} />;
}
