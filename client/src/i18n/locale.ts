/**
 * The active interface language (issue 34 §3): which one, how it was chosen,
 * and switching it.
 *
 * At start (`initialLocale`): `?lang=<tag>` in the address (kept), else the
 * choice stored in this browser, else the server's pick from Accept-Language
 * (it writes `<html lang>` into index.html, src/i18n/html.ts), else
 * navigator.languages. A signed-in account's stored choice then wins
 * (lib/auth.tsx calls `adoptAccountLocale`), so it follows the user to any browser.
 *
 * `activateLocale` fetches every namespace in use and the dates' dayjs locale
 * first (at once), then switches Lingui, the dates and `<html lang dir>`
 * together (./switch.ts: one change, the page renders once); numbers in
 * Arabic use Latin digits, as code and outputs do. `prefetchOtherLocales`
 * fetches them ahead for every language on offer (the language menu, when
 * opened), so the switch after a choice needs no request.
 */
import { i18n } from "@lingui/core";
import { isLocaleTag, LOCALE_INFO, LOCALE_TAGS, negotiateLocale, PSEUDO_LOCALE, SOURCE_LOCALE, type AnyLocaleTag } from "../../../src/i18n/locales.ts";
import { fetchDateLocale } from "../lib/date-locale.ts";
import { setDateLocale } from "../lib/dates.ts";
import { addLocalePart, prefetchLocale, switchLocale } from "./switch.ts";

// The dates follow the words: the dayjs locale is fetched with the messages and selected in the same moment.
addLocalePart({ fetch: (tag) => fetchDateLocale(tag === PSEUDO_LOCALE ? "en" : tag).then((name) => () => setDateLocale(name)) });

const STORAGE_KEY = "codearena.locale";

/** The tag the interface is in now. */
export function activeLocale(): AnyLocaleTag {
  return isLocaleTag(i18n.locale) ? i18n.locale : SOURCE_LOCALE;
}

/** The `Intl` locales for a tag: Arabic with Latin digits; the pseudo-locale formats as English. */
export function intlLocales(tag: AnyLocaleTag): string[] {
  if (tag === "ar") return ["ar-u-nu-latn"];
  if (tag === PSEUDO_LOCALE) return ["en"];
  return [tag];
}

function storedChoice(): AnyLocaleTag | null {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return isLocaleTag(v) ? v : null;
  } catch {
    return null;
  }
}

/** Remembers a choice in this browser (the account keeps it too, when signed in). */
export function storeChoice(tag: AnyLocaleTag): void {
  try {
    localStorage.setItem(STORAGE_KEY, tag);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/** True when this browser holds an explicit choice (menu or `?lang=`), rather than a negotiated language. */
export function hasStoredChoice(): boolean {
  return storedChoice() !== null;
}

/** The language to start in (see the module's comment). A `?lang=` choice is stored. */
export function initialLocale(): AnyLocaleTag {
  const fromUrl = new URLSearchParams(location.search).get("lang");
  if (isLocaleTag(fromUrl)) {
    storeChoice(fromUrl);
    return fromUrl;
  }
  const stored = storedChoice();
  if (stored) return stored;
  const fromServer = document.documentElement.getAttribute("data-negotiated-lang");
  if (isLocaleTag(fromServer)) return fromServer;
  return negotiateLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

const listeners = new Set<(tag: AnyLocaleTag) => void>();

/** Calls `fn` after every switch (the dates' formatter and `<html>` follow through here); returns the unsubscribe. */
export function onLocaleChange(fn: (tag: AnyLocaleTag) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Loads what the tag needs (what is not fetched yet, all at once), then
 * switches to it in one render; synchronously when everything was fetched
 * before (`prefetchOtherLocales`). Never rejects (a failed load reads
 * English). When another switch is asked for before this one is ready, the
 * later one wins.
 */
export async function activateLocale(tag: AnyLocaleTag): Promise<void> {
  await switchLocale(tag, intlLocales(tag), () => {
    const html = document.documentElement;
    html.lang = tag;
    html.dir = LOCALE_INFO[tag].dir;
    for (const fn of listeners) fn(tag);
  });
}

/**
 * Fetches, without showing them, the messages (of the namespaces defined so
 * far) and dayjs locale of every language on offer but the active one: the
 * language menu calls it when a person points at it or focuses it. Once per
 * language (later calls share the requests).
 */
export function prefetchOtherLocales(): void {
  const active = activeLocale();
  for (const tag of LOCALE_TAGS) if (tag !== active) void prefetchLocale(tag);
}

/** Set when this page load was opened with `?lang=`: that choice wins over the account's for this visit. */
let chosenInAddress = false;
/** Marks the address's `?lang=` as this visit's choice (main.tsx, at start). */
export function markAddressChoice(): void {
  chosenInAddress = isLocaleTag(new URLSearchParams(location.search).get("lang"));
}

/**
 * Reconciles this browser with a signed-in account (after `auth.me`): the
 * account's stored language wins and is remembered here; an account without
 * one takes this browser's explicit choice (`save`, never the pseudo-locale).
 */
export async function adoptAccountLocale(accountLocale: string | null | undefined, save: (tag: string) => Promise<unknown>): Promise<void> {
  if (chosenInAddress) return;
  if (isLocaleTag(accountLocale) && accountLocale !== PSEUDO_LOCALE) {
    storeChoice(accountLocale);
    if (accountLocale !== activeLocale()) await activateLocale(accountLocale);
    return;
  }
  const stored = storedChoice();
  if (stored && stored !== PSEUDO_LOCALE) await save(stored).catch((err) => console.warn("Could not store the language on the account", err));
}
