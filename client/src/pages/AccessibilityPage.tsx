/**
 * The accessibility statement (EN 301 549 and the EU Web Accessibility
 * Directive ask for one): the standard the site meets, how it is tested,
 * what is known not to meet it yet, and how to report a barrier (the contact
 * form, which the server stores).
 */
import { Link } from "wouter";
import { Page } from "../components/shell/Page.tsx";
import { WRAP_LONG_WORDS } from "./wrapLongWords.ts";
import { T, useT } from "../i18n/index.tsx";
import { site } from "../i18n/catalog/site/index.ts";

const strong = { 0: <strong /> };

export function AccessibilityPage() {
  const t = useT(site);
  return (
    <Page title={t("a11y.docTitle")}>
      <article className="prose" style={WRAP_LONG_WORDS}>
        <h1>{t("a11y.title")}</h1>
        <p className="muted">{t("a11y.intro")}</p>

        <h2>{t("a11y.standardTitle")}</h2>
        <p>
          <T ns={site} k="a11y.standard" components={{ 0: <strong />, 1: <strong /> }} />
        </p>

        <h2>{t("a11y.testingTitle")}</h2>
        <ul>
          <li>
            <T ns={site} k="a11y.testAutomated" components={strong} />
          </li>
          <li>
            <T ns={site} k="a11y.testKeyboard" components={strong} />
          </li>
          <li>
            <T ns={site} k="a11y.testFrame" components={strong} />
          </li>
          <li>
            <T ns={site} k="a11y.testManual" components={strong} />
          </li>
        </ul>

        <h2>{t("a11y.limitsTitle")}</h2>
        <ul>
          <li>
            <T ns={site} k="a11y.limitEditor" components={{ 0: <kbd />, 1: <kbd />, 2: <kbd />, 3: <kbd /> }} />
          </li>
          <li>{t("a11y.limitStatements")}</li>
          <li>{t("a11y.limitSimilarity")}</li>
          <li>{t("a11y.limitExports")}</li>
        </ul>

        <h2>{t("a11y.reportTitle")}</h2>
        <p>
          <T ns={site} k="a11y.report" components={{ 0: <Link href="/contact" /> }} />
        </p>

        <h2>{t("a11y.aboutTitle")}</h2>
        <p className="muted">{t("a11y.about")}</p>
      </article>
    </Page>
  );
}
