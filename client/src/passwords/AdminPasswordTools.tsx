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

export function ResetLinkButton({ userId, email }: { userId: string; email: string }) {
  const trpc = useTRPC();
  const mutation = useMutation(trpc.admin.resetLink.mutationOptions());
  const [shown, setShown] = useState<{ url: string; expiresAt: string } | null>(null);
  return (
    <div>
      <button type="button" className="btn btn-ghost btn-sm" aria-label={`Make a password reset link for ${email}`} disabled={mutation.isPending} onClick={async () => setShown(await mutation.mutateAsync({ userId }))}>
        Reset link
      </button>
      {shown && (
        <div role="status">
          <TextField
            id={`reset-link-${userId}`}
            label={
              <>
                One-time link until <DateTime value={shown.expiresAt} withZone />
              </>
            }
            inputClassName="mono"
            readOnly
            value={shown.url}
            onFocus={(e) => e.currentTarget.select()}
          />
        </div>
      )}
      {mutation.isError && (
        <p role="alert" className="error-text">
          {serverMessageOf(mutation.error) ?? "Failed to make a link"}
        </p>
      )}
    </div>
  );
}

export function MailOutboxSection() {
  const trpc = useTRPC();
  const mail = useQuery(trpc.admin.mail.queryOptions());
  return (
    <section className="card" aria-labelledby="mail-title">
      <h2 id="mail-title">Mail</h2>
      <QueryState query={mail} loading="Loading the mail outbox..." error="Failed to fetch the mail outbox">
        {(m) => (
          <>
            <p data-testid="mail-counts">
              {m.sent} sent · {m.queued} waiting · {m.failed} failed
            </p>
            {m.failures.length > 0 && (
              <ul className="plain-list">
                {m.failures.map((f) => (
                  <li key={f.id}>
                    <span className="muted">
                      <DateTime value={f.createdAt} />
                    </span> {f.kind} to {f.to} after {f.attempts} attempts: {f.lastError ?? "unknown error"}
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
