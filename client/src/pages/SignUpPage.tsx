/**
 * Registration: the server's register signs the new account in (a token, as
 * sign-in answers), so on success the token is kept and the page goes straight
 * on to its `next` (where a guarded page sent the guest from, validated by
 * src/lib/return-path.ts), else /problems; on failure the server's message,
 * else the error's own, else "Something went wrong.".
 */
import { TextField } from "../kit/index.ts";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { useNotice } from "../lib/notice.ts";
import { useAuth } from "../lib/auth.tsx";
import { signInHref, useNextParam } from "../lib/next.ts";

export function SignUpPage() {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const [form, setForm] = useState({ firstName: "", lastName: "", email: "", password: "" });
  const { notice: message, show, clear } = useNotice();
  const { login } = useAuth();
  const next = useNextParam();
  const register = useMutation(trpc.auth.register.mutationOptions());

  const update = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    clear();
    try {
      const res = await register.mutateAsync(form);
      show("success", res.message || "Registration successful!");
      login(res.token, res.user);
      navigate(next ?? "/problems", { replace: true });
    } catch (err) {
      // Any error's own message (a network failure's too), as the spec's sign-up form shows it.
      show("error", err instanceof Error && err.message ? err.message : "Something went wrong.");
    }
  }

  return (
    <AuthLayout title="Sign up">
      <h1 className="auth-title">Join Our Community</h1>
      <p className="auth-subtitle muted">Create your account to start coding.</p>
      <form className="form" onSubmit={onSubmit}>
        <div className="field-row">
          <TextField id="signup-first" label="First Name" required value={form.firstName} onChange={update("firstName")} autoComplete="given-name" placeholder="Ada" />
          <TextField id="signup-last" label="Last Name" required value={form.lastName} onChange={update("lastName")} autoComplete="family-name" placeholder="Lovelace" />
        </div>
        <TextField id="signup-email" label="Email Address" type="email" required value={form.email} onChange={update("email")} autoComplete="email" placeholder="you@example.com" />
        <TextField id="signup-password" label="Password" description="Password should be at least 8 characters long." type="password" required value={form.password} onChange={update("password")} autoComplete="new-password" />
        <button type="submit" className="btn btn-primary btn-block" disabled={register.isPending}>
          {register.isPending && <Spinner />} Create Account
        </button>
        <FormMessage notice={message} />
      </form>
      <p className="auth-switch">
        Already have an account? <Link href={next ? signInHref(next) : "/signin"}>Sign in</Link>
      </p>
    </AuthLayout>
  );
}
