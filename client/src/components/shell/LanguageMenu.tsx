/**
 * The language menu (issue 34 §3): a native select labelled "Language" (in
 * the active language; the label is for assistive technology, a globe icon
 * shows it) listing every interface language by its own name ("Deutsch",
 * "العربية"), each option with its `lang` so a screen reader speaks it in
 * that language; the active one is the selected option. Choosing one
 * switches the whole interface once its messages are loaded, and is
 * remembered in this browser and, when signed in, on the account
 * (useLocaleChoice). A native select: the platform's own keyboard, screen
 * reader and phone pickers, no widget code on the first paint.
 *
 * Pointing at the menu or moving the focus into it (before it opens: mouse,
 * touch and keyboard all pass through one of these) fetches every other
 * language's messages for the screen, so the switch after a choice needs no
 * request (decision 069); a person who never opens it fetches none.
 *
 * On every page in the site header (inside the folded menu on phones); the
 * sign-in page can place one too: `<LanguageMenu />` (optionally `className`).
 */
import { useT } from "../../i18n/index.tsx";
import { common } from "../../i18n/catalog/common/index.ts";
import { useLocaleChoice } from "../../i18n/useLocaleChoice.ts";
import { isLocaleTag, LOCALE_INFO, PSEUDO_LOCALE } from "../../../../src/i18n/locales.ts";
import { Select } from "../../kit/Field.tsx";
import "./LanguageMenu.css";

function GlobeIcon() {
  return (
    <svg className="language-menu-icon" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
    </svg>
  );
}

export function LanguageMenu({ className }: { className?: string }) {
  const t = useT(common);
  const { locale, options, switching, choose, prefetch } = useLocaleChoice();
  return (
    <div className={`language-menu${className ? ` ${className}` : ""}`} onPointerEnter={prefetch} onFocus={prefetch}>
      <GlobeIcon />
      <Select
        label={t("language.label")}
        hideLabel
        value={locale}
        aria-busy={switching || undefined}
        onChange={(e) => {
          const tag = e.target.value;
          if (isLocaleTag(tag) && tag !== PSEUDO_LOCALE) void choose(tag);
        }}
      >
        {locale === PSEUDO_LOCALE && (
          <option value={PSEUDO_LOCALE} lang={PSEUDO_LOCALE} translate="no">
            {LOCALE_INFO[PSEUDO_LOCALE].autonym}
          </option>
        )}
        {options.map((o) => (
          <option key={o.tag} value={o.tag} lang={o.tag} dir={o.dir} translate="no">
            {o.autonym}
          </option>
        ))}
      </Select>
      <span className="sr-only" role="status">
        {switching ? t("language.switching") : ""}
      </span>
    </div>
  );
}
