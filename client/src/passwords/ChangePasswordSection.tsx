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

const MIN_CHARS = 8;

export function ChangePasswordSection() {
  const trpc = useTRPC();
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const [again, setAgain] = useState("");
  const { notice, run, show } = useNotice();
  const mutation = useMutation(trpc.auth.changePassword.mutationOptions());
  const status = useQuery(trpc.auth.passwordStatus.queryOptions());

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (newPassword !== again) return show("error", "The two new passwords differ.");
    const res = await run(() => mutation.mutateAsync({ currentPassword, newPassword }), { success: (r) => r.message, error: "The password could not be changed." });
    if (res) {
      setCurrent("");
      setNew("");
      setAgain("");
    }
  }

  return (
    <section className="card" aria-labelledby="change-password-title">
      <h2 id="change-password-title">Change password</h2>
      {status.data?.hasPassword === false ? (
        <p className="muted">This account has no password here: you sign in through your campus account (above). A site administrator can give you a link to set one.</p>
      ) : (
        <form className="form" onSubmit={onSubmit}>
          <TextField id="current-password" label="Current password" type="password" required value={currentPassword} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
          <TextField id="new-password" label="New password" description={`At least ${MIN_CHARS} characters. Your other sessions are signed out.`} type="password" required minLength={MIN_CHARS} value={newPassword} onChange={(e) => setNew(e.target.value)} autoComplete="new-password" />
          <TextField id="new-password-again" label="New password again" type="password" required minLength={MIN_CHARS} value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" />
          <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending && <Spinner />} Change password
          </button>
          <FormMessage notice={notice} />
        </form>
      )}
    </section>
  );
}
