/**
 * The account page's "Change password" section: the current password and the
 * new one typed twice, to `auth.changePassword`. Every other session of the
 * account is signed out; this one stays.
 */
import { TextField } from "../kit/index.ts";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { FormMessage } from "../components/FormMessage.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useNotice } from "../lib/notice.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useT } from "../i18n/index.tsx";
import { auth } from "../i18n/catalog/auth/index.ts";

const MIN_CHARS = 8;

export function ChangePasswordSection() {
  const t = useT(auth);
  const trpc = useTRPC();
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const [again, setAgain] = useState("");
  const { notice, run, show } = useNotice();
  const mutation = useMutation(trpc.auth.changePassword.mutationOptions());
  const status = useQuery(trpc.auth.passwordStatus.queryOptions());

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (newPassword !== again) return show("error", t("change.differ"));
    const res = await run(() => mutation.mutateAsync({ currentPassword, newPassword }), { success: (r) => r.message, error: t("change.failed") });
    if (res) {
      setCurrent("");
      setNew("");
      setAgain("");
    }
  }

  return (
    <section className="card" aria-labelledby="change-password-title">
      <h2 id="change-password-title">{t("change.title")}</h2>
      {status.data?.hasPassword === false ? (
        <p className="muted">{t("change.noPassword")}</p>
      ) : (
        <form className="form" onSubmit={onSubmit}>
          <TextField id="current-password" label={t("change.current")} type="password" required value={currentPassword} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
          <TextField id="new-password" label={t("field.newPassword")} description={t("change.newHint", { min: MIN_CHARS })} type="password" required minLength={MIN_CHARS} value={newPassword} onChange={(e) => setNew(e.target.value)} autoComplete="new-password" />
          <TextField id="new-password-again" label={t("field.newPasswordAgain")} type="password" required minLength={MIN_CHARS} value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" />
          <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending && <Spinner />} {t("change.submit")}
          </button>
          <FormMessage notice={notice} />
        </form>
      )}
    </section>
  );
}
