/**
 * Contact Us. Unlike the original product's form, which only pretended to send,
 * the message is stored by the server (contact.send); the spec's success text
 * appears once it is stored, and the form is cleared. On failure the form
 * keeps what was typed and says why, so no message is lost.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { PublicLayout } from "../components/SiteChrome.tsx";
import { Spinner } from "../components/Loading.tsx";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";

const SUCCESS_VISIBLE_MS = 5000;

export function ContactPage() {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [message, setMessage] = useState("");
  const [success, setSuccess] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const send = useMutation(trpc.contact.send.mutationOptions());

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setSuccess(false);
    try {
      await send.mutateAsync({ name, email, message });
      setName("");
      setEmail("");
      setMessage("");
      setSuccess(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setSuccess(false), SUCCESS_VISIBLE_MS);
    } catch (err) {
      setError(serverMessageOf(err) ?? "Your message could not be sent. Please try again.");
    }
  }

  return (
    <PublicLayout>
      <section className="container narrow">
        <h1 className="page-title">Contact Us</h1>
        <p className="muted">Questions, feedback or a problem to report? Write to us and we will get back to you.</p>
        <form className="card form" onSubmit={onSubmit}>
          <div className="field">
            <label htmlFor="contact-name">Full Name</label>
            <input id="contact-name" name="name" required value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
          </div>
          <div className="field">
            <label htmlFor="contact-email">Email Address</label>
            <input id="contact-email" name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
          </div>
          <div className="field">
            <label htmlFor="contact-message">Message</label>
            <textarea id="contact-message" name="message" required rows={6} value={message} onChange={(e) => setMessage(e.target.value)} />
          </div>
          <button type="submit" className="btn btn-primary btn-block" disabled={send.isPending}>
            {send.isPending ? (
              <>
                <Spinner /> Sending...
              </>
            ) : (
              "Send Message"
            )}
          </button>
          {success && (
            <p className="alert alert-success" role="status">
              Your message has been sent successfully!
            </p>
          )}
          {error && (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          )}
        </form>
      </section>
    </PublicLayout>
  );
}
