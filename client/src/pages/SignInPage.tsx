/**
 * Sign in: stores the token, shows the server's message (or
 * "Login successful!") and goes to /problems; on failure the server's message,
 * else "Login failed.".
 */
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { useMutation } from "@tanstack/react-query";
import { AuthLayout } from "../components/AuthLayout.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useAuth } from "../lib/auth.tsx";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { FormMessage, type FormNotice } from "../components/FormMessage.tsx";

export function SignInPage() {
  const trpc = useTRPC();
  const { login } = useAuth();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [message, setMessage] = useState<FormNotice | null>(null);
  const mutation = useMutation(trpc.auth.login.mutationOptions());

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setMessage(null);
    try {
      const res = await mutation.mutateAsync({ email, password });
      setMessage({ kind: "success", text: res.message || "Login successful!" });
      login(res.token, res.user);
      navigate("/problems");
    } catch (err) {
      setMessage({ kind: "error", text: serverMessageOf(err) ?? "Login failed." });
    }
  }

  return (
    <AuthLayout>
      <h1 className="auth-title">Welcome Back</h1>
      <p className="auth-subtitle muted">Sign in to continue solving.</p>
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="signin-email">Email Address</label>
          <input id="signin-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" placeholder="you@example.com" />
        </div>
        <div className="field">
          <label htmlFor="signin-password">Password</label>
          <input id="signin-password" type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={mutation.isPending}>
          {mutation.isPending && <Spinner />} Sign In
        </button>
        <FormMessage notice={message} />
      </form>
      <p className="auth-switch">
        Don't have an account? <Link href="/signup">Sign up</Link>
      </p>
    </AuthLayout>
  );
}
