/**
 * The activity picker of an LMS deep-linking launch (/lti/deep-link/:id): the
 * instructor picks one of the course's assignments or problems; the server
 * signs the LtiDeepLinkingResponse (lti.deepLinkRespond) and this page
 * form-posts it to the LMS's return URL, as Deep Linking 2.0 asks.
 */
import { Page } from "../components/shell/Page.tsx";
import { useMutation, useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/QueryState.tsx";
import { httpStatusOf, useTRPC } from "../lib/trpc.ts";
import { useNotice } from "../lib/notice.ts";
import { FormMessage } from "../components/FormMessage.tsx";
import { useT } from "../i18n/index.tsx";
import { lti } from "../i18n/catalog/lti/index.ts";

/** Posts the signed response to the platform (a real form submission: the platform answers with its own page). */
function postToPlatform(returnUrl: string, jwt: string): void {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = returnUrl;
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = "JWT";
  input.value = jwt;
  form.appendChild(input);
  document.body.appendChild(form);
  form.submit();
}

export default function DeepLinkPage({ id }: { id: string }) {
  const t = useT(lti);
  const trpc = useTRPC();
  const choices = useQuery(trpc.lti.deepLinkChoices.queryOptions({ id }));
  const respond = useMutation(trpc.lti.deepLinkRespond.mutationOptions());
  const { notice, run } = useNotice();
  const pick = async (input: { assignmentId: string } | { problemId: string }) => {
    const res = await run(() => respond.mutateAsync({ id, ...input }), { error: t("deepLink.failed") });
    if (res) postToPlatform(res.returnUrl, res.jwt);
  };
  return (
    <Page title={t("deepLink.documentTitle")}>
        {/* An unknown or expired flow shows only the not-found page (one heading), not this page's heading above it. */}
        {httpStatusOf(choices.error) !== 404 && (
          <div className="page-heading">
            <h1 className="page-title">{t("deepLink.title")}</h1>
            <p className="muted">{t("deepLink.intro")}</p>
          </div>
        )}
        <FormMessage notice={notice} />
        <QueryState query={choices} loading={t("deepLink.loading")} error={t("deepLink.expired")}>
          {(c) => (
            <>
              <section className="card" aria-labelledby="dl-assignments">
                <h2 id="dl-assignments">{t("deepLink.assignments")}</h2>
                {c.assignments.length === 0 ? (
                  <p className="muted">{t("deepLink.noAssignments")}</p>
                ) : (
                  <ul className="plain-list">
                    {c.assignments.map((a) => (
                      <li key={a.id}>
                        <button type="button" className="btn btn-ghost btn-sm" disabled={respond.isPending} onClick={() => void pick({ assignmentId: a.id })}>
                          {t("deepLink.add", { title: a.title })}
                        </button>{" "}
                        <span className="muted">{t("deepLink.points", { points: a.points })}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section className="card" aria-labelledby="dl-problems">
                <h2 id="dl-problems">{t("deepLink.problems")}</h2>
                {c.problems.length === 0 ? (
                  <p className="muted">{t("deepLink.noProblems")}</p>
                ) : (
                  <ul className="plain-list">
                    {c.problems.map((p) => (
                      <li key={p.id}>
                        <button type="button" className="btn btn-ghost btn-sm" disabled={respond.isPending} onClick={() => void pick({ problemId: p.id })}>
                          {t("deepLink.add", { title: p.title })}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </>
          )}
        </QueryState>
      </Page>
  );
}
