/**
 * Contact Us. Unlike the original product's form, which only pretended to send,
 * the message is stored by the server (contact.send); the spec's success text
 * appears once it is stored, and the form is cleared. On failure the form
 * keeps what was typed and says why, so no message is lost.
 */
import { TextArea, TextField } from "../kit/index.ts";
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { Spinner } from "../components/Loading.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useNotice } from "../lib/notice.ts";
import { FormMessage } from "../components/FormMessage.tsx";

const SUCCESS_VISIBLE_MS = 5000;

export function ContactPage() {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [message, setMessage] = useState("");
  const { notice, run } = useNotice();

  const send = useMutation(trpc.contact.send.mutationOptions());

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await run(
      async () => {
        await send.mutateAsync({ name, email, message });
        setName("");
        setEmail("");
        setMessage("");
      },
      { success: "Your message has been sent successfully!", successMs: SUCCESS_VISIBLE_MS, error: "Your message could not be sent. Please try again." },
    );
  }

  return (
    <Page title="Contact us" width="bare">
      <section className="container narrow">
        <h1 className="page-title">Contact Us</h1>
        <p className="muted">Questions, feedback or a problem to report? Write to us and we will get back to you.</p>
        <form className="card form" onSubmit={onSubmit}>
          <TextField id="contact-name" label="Full Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
          <TextField id="contact-email" label="Email Address" name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
          <TextArea id="contact-message" label="Message" name="message" required rows={6} value={message} onChange={(e) => setMessage(e.target.value)} />
          <button type="submit" className="btn btn-primary btn-block" disabled={send.isPending}>
            {send.isPending ? (
              <>
                <Spinner /> Sending...
              </>
            ) : (
              "Send Message"
            )}
          </button>
          <FormMessage notice={notice} />
        </form>
      </section>
    </Page>
  );
}
