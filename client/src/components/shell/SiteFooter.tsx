/** The one site footer: what the site is, quick links, legal and support (the accessibility statement among them). */
import { Link } from "wouter";
import { yearOf } from "../../lib/dates.ts";
import { LanguageNames } from "../LanguageNames.tsx";
import { Brand } from "./SiteHeader.tsx";
import { T, useT } from "../../i18n/index.tsx";
import { common } from "../../i18n/catalog/common/index.ts";

export function SiteFooter() {
  const t = useT(common);
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div>
          <Brand />
          <p className="muted footer-blurb" style={{ overflowWrap: "anywhere" }}>
            <T ns={common} k="footer.blurb" components={{ 0: <LanguageNames /> }} />
          </p>
        </div>
        <nav aria-label={t("footer.quickLinks")}>
          <h2 className="footer-heading">{t("footer.quickLinks")}</h2>
          <ul>
            <li>
              <Link href="/about">{t("footer.aboutUs")}</Link>
            </li>
            <li>
              <Link href="/problems">{t("footer.browseProblems")}</Link>
            </li>
            <li>
              <Link href="/contests">{t("footer.contests")}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t("footer.legalNav")}>
          <h2 className="footer-heading">{t("footer.legalHeading")}</h2>
          <ul>
            <li>
              <Link href="/privacy">{t("footer.privacy")}</Link>
            </li>
            <li>
              <Link href="/terms">{t("footer.terms")}</Link>
            </li>
            <li>
              <Link href="/accessibility">{t("footer.accessibility")}</Link>
            </li>
            <li>
              <Link href="/contact">{t("footer.contact")}</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom muted" style={{ overflowWrap: "anywhere" }}>{t("footer.rights", { year: String(yearOf()) })}</div>
    </footer>
  );
}
