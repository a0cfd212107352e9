/**
 * `/u/:handle`: a public profile (`progress.profile`), open to anyone: the
 * handle and the progress on public problems, never a name or an e-mail
 * address. A handle nobody has and a private one both show "Page not found"
 * (the server answers both with the same 404).
 */
import { useQuery } from "@tanstack/react-query";
import { Page } from "../components/shell/Page.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { dateZone } from "../lib/dates.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useAuth } from "../lib/auth.tsx";
import { useT } from "../i18n/index.tsx";
import { progressNs } from "../i18n/catalog/progress/index.ts";
import { ProgressView } from "./ProgressView.tsx";

export default function ProfilePage({ handle }: { handle: string }) {
  const t = useT(progressNs);
  const trpc = useTRPC();
  const { status } = useAuth();
  const query = useQuery({ ...trpc.progress.profile.queryOptions({ handle, tz: dateZone() }), retry: false });
  return (
    <Page title={query.data ? t("profile.title", { handle: query.data.handle }) : null} width="wide">
      <QueryState query={query} loading={t("loading")} error={t("failed")}>
        {(profile) => (
          <>
            <div className="page-heading">
              <h1 className="page-title">{t("profile.title", { handle: profile.handle })}</h1>
              <p className="muted">{t("profile.publicOnly")}</p>
            </div>
            <ProgressView progress={profile.progress} linkProblems={status === "authenticated"} />
          </>
        )}
      </QueryState>
    </Page>
  );
}
