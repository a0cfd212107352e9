/**
 * The signed-in user's account: who they are here, the identities linked to
 * the account (OpenID providers, directories, the campus proxy, the LMS), and
 * a "Link" button per OpenID provider not linked yet. Linking is a form POST
 * to /api/auth/oidc/:provider/link (the session cookie says who links; a POST
 * so another site cannot start it), which comes back through /auth/complete.
 * Then the e-mail address (../account-email/EmailSection.tsx), the public profile (../progress/ProfileSection.tsx), "Change password"
 * (../passwords/ChangePasswordSection.tsx), "Two-factor sign-in" and
 * "Where you're signed in", "Your data" and "Delete account" (../security/).
 */
import { Page } from "../components/shell/Page.tsx";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { useAuth } from "../lib/auth.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { ChangePasswordSection } from "../passwords/ChangePasswordSection.tsx";
import { ProfileSection } from "../progress/ProfileSection.tsx";
import { EmailSection } from "../account-email/EmailSection.tsx";
import { SessionsSection } from "../security/SessionsSection.tsx";
import { DataSection } from "../security/DataSection.tsx";
import { DeleteAccountSection } from "../security/DeleteAccountSection.tsx";
import { TwoFactorSection } from "../security/TwoFactorSection.tsx";
import { PreferencesSection } from "../notifications/PreferencesSection.tsx";
import { DateTime } from "../components/DateTime.tsx";
import { T, useT } from "../i18n/index.tsx";
import { account } from "../i18n/catalog/account/index.ts";

export default function AccountPage() {
  const t = useT(account);
  const trpc = useTRPC();
  const { user } = useAuth();
  const identities = useQuery(trpc.auth.identities.queryOptions());
  const providers = useQuery(trpc.auth.providers.queryOptions(undefined, { staleTime: Infinity }));
  return (
    <Page title={t("title")}>
        <div className="page-heading">
          <h1 className="page-title">{t("title")}</h1>
          {user && (
            <p className="muted">
              {user.firstName} {user.lastName} · {user.email}
            </p>
          )}
        </div>
        <section className="card" aria-labelledby="ways-in-title">
          <h2 id="ways-in-title">{t("methods.title")}</h2>
          <QueryState query={identities} loading={t("methods.loading")} error={t("methods.error")}>
            {({ identities: list }) => {
              const linked = new Set(list.map((i) => i.provider));
              const linkable = (providers.data?.oidc ?? []).filter((p) => !linked.has(`oidc:${p.id}`));
              return (
                <>
                  {list.length === 0 ? (
                    <p className="muted">{t("methods.passwordOnly")}</p>
                  ) : (
                    <ul className="plain-list" data-testid="identities">
                      {list.map((i) => (
                        <li key={`${i.provider}:${i.subject}`}>
                          <strong>{i.provider}</strong> {i.email && <span className="muted">({i.email})</span>}
                          {i.lastSignInAt && <span className="muted"> · <T ns={account} k="methods.lastUsed" components={{ 0: <DateTime value={i.lastSignInAt} mode="auto" /> }} /></span>}
                        </li>
                      ))}
                    </ul>
                  )}
                  {linkable.map((p) => (
                    <form key={p.id} method="post" action={`/api/auth/oidc/${p.id}/link?returnTo=/account`}>
                      <button type="submit" className="btn btn-ghost btn-sm">
                        {t("methods.link", { provider: p.name })}
                      </button>
                    </form>
                  ))}
                </>
              );
            }}
          </QueryState>
        </section>
        <EmailSection />
        <ProfileSection />
        <ChangePasswordSection />
        <TwoFactorSection />
        <SessionsSection />
        <PreferencesSection />
        <DataSection />
        <DeleteAccountSection />
      </Page>
  );
}
