/**
 * Privacy Policy: information collected, use, how long it is kept, who sees what, taking it out and
 * deleting the account (what goes, what a course keeps without a name), security, cookies, policy
 * changes. The plain-words version of docs/privacy.md; keep the two saying the same.
 */
import { Link } from "wouter";
import { Page } from "../components/shell/Page.tsx";
import { WRAP_LONG_WORDS } from "./wrapLongWords.ts";
import { T, useT } from "../i18n/index.tsx";
import { site } from "../i18n/catalog/site/index.ts";

const strong = { 0: <strong /> };
const accountLink = { 0: <Link href="/account" /> };

export function PrivacyPage() {
  const t = useT(site);
  return (
    <Page title={t("privacy.docTitle")} width="bare">
      <article className="container prose" style={WRAP_LONG_WORDS}>
        <h1>{t("privacy.title")}</h1>
        <p className="muted">{t("privacy.intro")}</p>

        <h2>{t("privacy.collectTitle")}</h2>
        <ul>
          <li>
            <T ns={site} k="privacy.collectAccount" components={strong} />
          </li>
          <li>
            <T ns={site} k="privacy.collectWork" components={strong} />
          </li>
          <li>
            <T ns={site} k="privacy.collectMessages" components={strong} />
          </li>
          <li>
            <T ns={site} k="privacy.collectTechnical" components={strong} />
          </li>
        </ul>

        <h2>{t("privacy.useTitle")}</h2>
        <ul>
          <li>{t("privacy.useSignIn")}</li>
          <li>{t("privacy.useJudge")}</li>
          <li>{t("privacy.useReview")}</li>
          <li>{t("privacy.useMessages")}</li>
        </ul>

        <h2>{t("privacy.keepTitle")}</h2>
        <p>{t("privacy.keep")}</p>

        <h2>{t("privacy.seeTitle")}</h2>
        <ul>
          <li>{t("privacy.seeYou")}</li>
          <li>{t("privacy.seeStaff")}</li>
          <li>{t("privacy.seeJury")}</li>
          <li>{t("privacy.seePublic")}</li>
          <li>{t("privacy.seeAdmins")}</li>
        </ul>

        <h2>{t("privacy.exportTitle")}</h2>
        <p>
          <T ns={site} k="privacy.export" components={accountLink} />
        </p>

        <h2>{t("privacy.eraseTitle")}</h2>
        <p>
          <T ns={site} k="privacy.erase" components={accountLink} />
        </p>
        <ul>
          <li>
            <T ns={site} k="privacy.eraseRemoved" components={strong} />
          </li>
          <li>
            <T ns={site} k="privacy.eraseKept" components={strong} />
          </li>
        </ul>
        <p>{t("privacy.eraseBackups")}</p>

        <h2>{t("privacy.securityTitle")}</h2>
        <p>{t("privacy.security")}</p>

        <h2>{t("privacy.cookiesTitle")}</h2>
        <p>{t("privacy.cookies")}</p>

        <h2>{t("privacy.choicesTitle")}</h2>
        <p>
          <T ns={site} k="privacy.choices" components={{ 0: <Link href="/contact" /> }} />
        </p>

        <h2>{t("privacy.changesTitle")}</h2>
        <p>{t("privacy.changes")}</p>
      </article>
    </Page>
  );
}
