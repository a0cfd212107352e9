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
import { WRAP_LONG_WORDS } from "./wrapLongWords.ts";
import { Spinner } from "../components/Loading.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useNotice } from "../lib/notice.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { useT } from "../i18n/index.tsx";
import { site } from "../i18n/catalog/site/index.ts";

const SUCCESS_VISIBLE_MS = 5000;

export function ContactPage() {
  const t = useT(site);
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
      { success: t("contact.sent"), successMs: SUCCESS_VISIBLE_MS, error: t("contact.failed") },
    );
  }

  return (
    <Page title={t("contact.docTitle")} width="bare">
      <section className="container narrow" style={WRAP_LONG_WORDS}>
        <h1 className="page-title">{t("contact.title")}</h1>
        <p className="muted">{t("contact.intro")}</p>
        <form className="card form" onSubmit={onSubmit}>
          <TextField id="contact-name" label={t("contact.name")} name="name" required value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
          <TextField id="contact-email" dir="ltr" label={t("contact.email")} name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
          <TextArea id="contact-message" label={t("contact.message")} name="message" required rows={6} value={message} onChange={(e) => setMessage(e.target.value)} />
          <button type="submit" className="btn btn-primary btn-block" disabled={send.isPending}>
            {send.isPending ? (
              <>
                <Spinner /> {t("contact.sending")}
              </>
            ) : (
              t("contact.send")
            )}
          </button>
          <FormMessage notice={notice} />
        </form>
      </section>
    </Page>
  );
}
