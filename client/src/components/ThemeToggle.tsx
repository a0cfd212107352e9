/** The sun/moon button labelled "Toggle dark mode", on every page's header. */
import { useTheme } from "../lib/theme.tsx";
import { useT } from "../i18n/index.tsx";
import { common } from "../i18n/catalog/common/index.ts";

export function ThemeToggle() {
  const t = useT(common);
  const { dark, toggle } = useTheme();
  return (
    <button type="button" className="icon-button" onClick={toggle} aria-label={t("theme.toggle")} title={t("theme.toggle")} aria-pressed={dark}>
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}

export function SunIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <circle cx="12" cy="12" r="4.5" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

export function MoonIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
}
