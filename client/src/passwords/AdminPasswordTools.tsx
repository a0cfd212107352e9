/**
 * The admin page's password tools: a "Reset link" button per account (a
 * one-time link, valid an hour, shown once to hand over when the site sends no
 * mail), and the mail outbox (counts, and the messages that failed for good).
 */
import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { TextField } from "../kit/index.ts";
import { serverMessageOf, useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { admin } from "../i18n/catalog/admin/index.ts";

/** The kinds of mail the site sends (src/mail/outbox.ts callers), each with its name; another kind shows its code. */
const MAIL_KIND_KEYS = { "password-reset": "mail.kindPasswordReset", "password-changed": "mail.kindPasswordChanged", "password-sso": "mail.kindPasswordSso" } as const;

export function ResetLinkButton({ userId, email }: { userId: string; email: string }) {
  const t = useT(admin);
  const trpc = useTRPC();
  const mutation = useMutation(trpc.admin.resetLink.mutationOptions());
  const [shown, setShown] = useState<{ url: string; expiresAt: string } | null>(null);
  return (
    <div>
      <button type="button" className="btn btn-ghost btn-sm" aria-label={t("resetLink.label", { email })} disabled={mutation.isPending} onClick={async () => setShown(await mutation.mutateAsync({ userId }))}>
        {t("resetLink.button")}
      </button>
      {shown && (
        <div role="status">
          <TextField
            id={`reset-link-${userId}`}
            label={
              <T ns={admin} k="resetLink.until" values={{ when: <DateTime value={shown.expiresAt} withZone /> }} />
            }
            inputClassName="mono"
            dir="ltr"
            readOnly
            value={shown.url}
            onFocus={(e) => e.currentTarget.select()}
          />
        </div>
      )}
      {mutation.isError && (
        <p role="alert" className="error-text">
          {serverMessageOf(mutation.error) ?? t("resetLink.failed")}
        </p>
      )}
    </div>
  );
}

export function MailOutboxSection() {
  const t = useT(admin);
  const trpc = useTRPC();
  const mail = useQuery(trpc.admin.mail.queryOptions());
  return (
    <section className="card" aria-labelledby="mail-title">
      <h2 id="mail-title">{t("mail.title")}</h2>
      <QueryState query={mail} loading={t("mail.loading")} error={t("mail.error")}>
        {(m) => (
          <>
            <p data-testid="mail-counts">
              {t("mail.counts", { sent: m.sent, queued: m.queued, failed: m.failed })}
            </p>
            {m.failures.length > 0 && (
              <ul className="plain-list">
                {m.failures.map((f) => (
                  <li key={f.id}>
                    <span className="muted">
                      <DateTime value={f.createdAt} />
                    </span>{" "}
                    {t("mail.failure", {
                      kind: f.kind in MAIL_KIND_KEYS ? t(MAIL_KIND_KEYS[f.kind as keyof typeof MAIL_KIND_KEYS]) : f.kind,
                      to: f.to,
                      attempts: f.attempts,
                      error: f.lastError ?? t("mail.unknownError"),
                    })}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
