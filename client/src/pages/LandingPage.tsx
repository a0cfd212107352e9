/**
 * Landing page: hero, key features, difficulty sections (the menu's anchors), footer.
 * "Get Started" leads a guest to sign-up and a signed-in user to the problems; the
 * languages named are the server's (../components/LanguageNames.tsx).
 */
import { Link } from "wouter";
import { LanguageNames } from "../components/LanguageNames.tsx";
import { Page } from "../components/shell/Page.tsx";
import { WRAP_LONG_WORDS } from "./wrapLongWords.ts";
import { useAuth } from "../lib/auth.tsx";
import { T, useT } from "../i18n/index.tsx";
import { site } from "../i18n/catalog/site/index.ts";
import { ErasedNotice } from "../security/ErasedNotice.tsx";

/** Each difficulty's section: its anchor and filter value (`id`) and its messages. */
const LEVELS = [
  { id: "easy", badge: "landing.easy.badge", title: "landing.easy.title", text: "landing.easy.text", browse: "landing.easy.browse" },
  { id: "medium", badge: "landing.medium.badge", title: "landing.medium.title", text: "landing.medium.text", browse: "landing.medium.browse" },
  { id: "hard", badge: "landing.hard.badge", title: "landing.hard.title", text: "landing.hard.text", browse: "landing.hard.browse" },
] as const;

export function LandingPage() {
  const t = useT(site);
  const { status } = useAuth();
  return (
    <Page title={null} width="flush">
      <ErasedNotice />
      <section className="hero" style={WRAP_LONG_WORDS}>
        <div className="container hero-inner">
          <h1 className="hero-title">
            {t("landing.heroTitle")}
            <br />
            <span className="accent-text">{t("landing.heroAccent")}</span>
          </h1>
          <p className="hero-text">{t("landing.heroText")}</p>
          <Link href={status === "authenticated" ? "/problems" : "/signup"} className="btn btn-primary btn-lg">
            {t("landing.getStarted")}
          </Link>
        </div>
      </section>

      <section className="section" aria-labelledby="features-heading" style={WRAP_LONG_WORDS}>
        <div className="container">
          <h2 id="features-heading" className="section-title">
            {t("landing.featuresTitle")}
          </h2>
          <div className="feature-grid">
            <article className="card feature-card">
              <div className="feature-icon" aria-hidden="true">
                {"</>"}
              </div>
              <h3>{t("landing.languagesTitle")}</h3>
              <p className="muted">
                <T ns={site} k="landing.languagesText" components={{ 0: <LanguageNames conjunction="or" /> }} />
              </p>
            </article>
            <article className="card feature-card">
              <div className="feature-icon" aria-hidden="true">
                ▶
              </div>
              <h3>{t("landing.liveTitle")}</h3>
              <p className="muted">{t("landing.liveText")}</p>
            </article>
          </div>
        </div>
      </section>

      <section id="problems" className="section section-alt" aria-labelledby="levels-heading" style={WRAP_LONG_WORDS}>
        <div className="container">
          <h2 id="levels-heading" className="section-title">
            {t("landing.levelsTitle")}
          </h2>
          <p className="section-subtitle muted">{t("landing.levelsSubtitle")}</p>
          <div className="level-grid">
            {LEVELS.map((level) => (
              <article key={level.id} id={level.id} className={`card level-card level-${level.id}`}>
                <span className={`badge badge-${level.id}`}>{t(level.badge)}</span>
                <h3>{t(level.title)}</h3>
                <p className="muted">{t(level.text)}</p>
                <Link href={`/problems?difficulty=${level.id}`} className="text-link">
                  {t(level.browse)}
                </Link>
              </article>
            ))}
          </div>
        </div>
      </section>
    </Page>
  );
}
