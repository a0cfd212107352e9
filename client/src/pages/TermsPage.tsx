/** Terms of Service: use license, user conduct, disclaimer, limitations, governing law. */
import { Page } from "../components/shell/Page.tsx";
import { WRAP_LONG_WORDS } from "./wrapLongWords.ts";
import { useT } from "../i18n/index.tsx";
import { site } from "../i18n/catalog/site/index.ts";

export function TermsPage() {
  const t = useT(site);
  return (
    <Page title={t("terms.docTitle")} width="bare">
      <article className="container prose" style={WRAP_LONG_WORDS}>
        <h1>{t("terms.title")}</h1>
        <p className="muted">{t("terms.intro")}</p>

        <h2>{t("terms.licenseTitle")}</h2>
        <p>{t("terms.license")}</p>

        <h2>{t("terms.conductTitle")}</h2>
        <ul>
          <li>{t("terms.conductCode")}</li>
          <li>{t("terms.conductTests")}</li>
          <li>{t("terms.conductContent")}</li>
          <li>{t("terms.conductAccount")}</li>
        </ul>
        <p>{t("terms.conductEnforcement")}</p>

        <h2>{t("terms.disclaimerTitle")}</h2>
        <p>{t("terms.disclaimer")}</p>

        <h2>{t("terms.limitationsTitle")}</h2>
        <p>{t("terms.limitations")}</p>

        <h2>{t("terms.lawTitle")}</h2>
        <p>{t("terms.law")}</p>

        <h2>{t("terms.changesTitle")}</h2>
        <p>{t("terms.changes")}</p>
      </article>
    </Page>
  );
}
