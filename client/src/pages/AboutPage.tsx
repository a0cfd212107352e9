/** About Us: mission text and the features list. */
import { LanguageNames } from "../components/LanguageNames.tsx";
import { Page } from "../components/shell/Page.tsx";
import { WRAP_LONG_WORDS } from "./wrapLongWords.ts";
import { T, useT } from "../i18n/index.tsx";
import { site } from "../i18n/catalog/site/index.ts";

const strong = { 0: <strong /> };

export function AboutPage() {
  const t = useT(site);
  return (
    <Page title={t("about.docTitle")} width="bare">
      <article className="container prose" style={WRAP_LONG_WORDS}>
        <h1>{t("about.title")}</h1>
        <h2>{t("about.missionTitle")}</h2>
        <p>{t("about.mission1")}</p>
        <p>{t("about.mission2")}</p>
        <h2>{t("about.offerTitle")}</h2>
        <ul>
          <li>
            <T ns={site} k="about.offerProblems" components={strong} />
          </li>
          <li>
            <T ns={site} k="about.offerLanguages" components={{ 0: <strong />, 1: <LanguageNames /> }} />
          </li>
          <li>
            <T ns={site} k="about.offerExecution" components={strong} />
          </li>
          <li>
            <T ns={site} k="about.offerHistory" components={strong} />
          </li>
          <li>
            <T ns={site} k="about.offerReview" components={strong} />
          </li>
        </ul>
        <p className="muted">{t("about.beta")}</p>
      </article>
    </Page>
  );
}
