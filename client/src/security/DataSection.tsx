/**
 * The account page's "Your data": a download of everything of the user's (GET /api/account/export,
 * src/account-data/export.ts). A plain link: the session cookie authenticates it, and the browser
 * saves the zip as it streams.
 */
import { useT } from "../i18n/index.tsx";
import { security } from "../i18n/catalog/security/index.ts";

export function DataSection() {
  const t = useT(security);
  return (
    <section className="card" aria-labelledby="your-data-title">
      <h2 id="your-data-title">{t("data.title")}</h2>
      <p className="muted">{t("data.about")}</p>
      <a className="btn btn-ghost" href="/api/account/export" download>
        {t("data.download")}
      </a>
    </section>
  );
}
