/**
 * `/progress`: the signed-in user's own progress (`progress.mine`), with days
 * in the browser's time zone (lib/dates.ts `dateZone`). Private: only they see
 * it, unless they make a public profile on the account page.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { Page } from "../components/shell/Page.tsx";
import { QueryState } from "../components/QueryState.tsx";
import { dateZone } from "../lib/dates.ts";
import { useTRPC } from "../lib/trpc.ts";
import { T, useT } from "../i18n/index.tsx";
import { progressNs } from "../i18n/catalog/progress/index.ts";
import { ProgressView } from "./ProgressView.tsx";

export default function ProgressPage() {
  const t = useT(progressNs);
  const trpc = useTRPC();
  const query = useQuery(trpc.progress.mine.queryOptions({ tz: dateZone() }));
  return (
    <Page title={t("mine.title")} width="wide">
      <div className="page-heading">
        <h1 className="page-title">{t("mine.title")}</h1>
        <p className="muted">
          <T ns={progressNs} k="mine.private" components={{ 0: <Link href="/account#public-profile" /> }} />
        </p>
      </div>
      <QueryState query={query} loading={t("loading")} error={t("failed")}>
        {(progress) => (
          <>
            {progress.submissionsInYear === 0 && progress.solved === 0 && progress.attempted === 0 && (
              <p className="alert alert-info">
                <T ns={progressNs} k="mine.empty" components={{ 0: <Link href="/problems" /> }} />
              </p>
            )}
            <ProgressView progress={progress} />
          </>
        )}
      </QueryState>
    </Page>
  );
}
