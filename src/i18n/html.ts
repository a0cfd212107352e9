/**
 * The client's page in the language the request asks for (issue 34 §3): the
 * server writes the Accept-Language pick into index.html's `<html>` element
 * (`lang`, `dir`, and `data-negotiated-lang` for the client's start-up), so
 * the first paint already reads in the right direction; the client then
 * loads that language's messages (a choice stored in the browser or on the
 * account wins over it). Pages are cached per file version and language.
 */
import { statSync, readFileSync } from "node:fs";
import { LOCALE_INFO, negotiateLocale, parseAcceptLanguage, type LocaleTag } from "./locales.ts";

const HTML_OPEN = /<html\b[^>]*>/i;
const cache = new Map<string, { mtimeMs: number; byLocale: Map<LocaleTag, string> }>();

/** The `<html>` start tag for a locale. */
export function htmlStartTag(locale: LocaleTag): string {
  return `<html lang="${locale}" dir="${LOCALE_INFO[locale].dir}" data-negotiated-lang="${locale}">`;
}

/** index.html's text with its `<html>` tag for `locale` (the text is unchanged when it has no such tag). */
export function localizeIndexHtml(html: string, locale: LocaleTag): string {
  return html.replace(HTML_OPEN, htmlStartTag(locale));
}

/** The locale an Accept-Language header picks (English when it picks none). */
export function localeOfRequest(acceptLanguage: string | null | undefined): LocaleTag {
  return negotiateLocale(parseAcceptLanguage(acceptLanguage));
}

/** index.html at `path` for the request's Accept-Language, read once per file version and locale. */
export function indexHtmlFor(path: string, acceptLanguage: string | null | undefined): { html: string; locale: LocaleTag } {
  const locale = localeOfRequest(acceptLanguage);
  const mtimeMs = statSync(path).mtimeMs;
  let entry = cache.get(path);
  if (!entry || entry.mtimeMs !== mtimeMs) cache.set(path, (entry = { mtimeMs, byLocale: new Map() }));
  let html = entry.byLocale.get(locale);
  if (html === undefined) entry.byLocale.set(locale, (html = localizeIndexHtml(readFileSync(path, "utf8"), locale)));
  return { html, locale };
}
