/**
 * The server's words in the reader's language (issue 34 §6). Error answers
 * keep their stable `code` (API clients depend on it); their `message` is
 * the catalogue's text for that code in the request's language, when the
 * message is the code's own (a message built with details, such as a
 * package's file and line, stays as written). The request's language is its
 * Accept-Language (the client sends its interface language there).
 *
 * Catalogues: ./errors/<locale>.json, keys = src/errors.ts's codes, plain
 * text (no placeholders); ./messages.test.ts keeps them complete.
 */
import { ERRORS, type ErrorName } from "../errors.ts";
import { LOCALE_TAGS, negotiateLocale, parseAcceptLanguage, PSEUDO_LOCALE, SOURCE_LOCALE, type AnyLocaleTag, type LocaleTag } from "./locales.ts";
import { accent } from "./pseudo-text.ts";
import { fieldMessage } from "./validation.ts";
import ar from "./errors/ar.json";
import de from "./errors/de.json";
import es from "./errors/es.json";
import fr from "./errors/fr.json";
import ja from "./errors/ja.json";
import ko from "./errors/ko.json";
import ptBR from "./errors/pt-BR.json";
import ru from "./errors/ru.json";
import zhCN from "./errors/zh-CN.json";

const ERROR_MESSAGES: Record<Exclude<LocaleTag, "en">, Record<string, string>> = { ar, de, es, fr, ja, ko, "pt-BR": ptBR, ru, "zh-CN": zhCN };

/** Accept-Language headers seen → their locale; at most LOCALE_CACHE_MAX entries (a header is client-chosen text). */
const localeCache = new Map<string, AnyLocaleTag>();
const LOCALE_CACHE_MAX = 512;

/**
 * The interface language an Accept-Language header asks for ("en" without one); remembered per header value.
 * A header that asks first for the pseudo-locale (`en-XA`, as the client sends it) gets it: its error messages are accented too.
 */
export function requestLocale(acceptLanguage: string | null | undefined): AnyLocaleTag {
  if (!acceptLanguage) return SOURCE_LOCALE;
  let locale = localeCache.get(acceptLanguage);
  if (locale === undefined) {
    const ranges = parseAcceptLanguage(acceptLanguage);
    locale = ranges[0] === PSEUDO_LOCALE ? PSEUDO_LOCALE : negotiateLocale(ranges);
    if (localeCache.size >= LOCALE_CACHE_MAX) localeCache.clear();
    localeCache.set(acceptLanguage, locale);
  }
  return locale;
}

/**
 * An error's message for a reader of `locale`: the catalogue's translation
 * when `message` is the code's own English message; for a BAD_INPUT written
 * as `field: wording` with a wording the validation catalogue knows, the field
 * as it is and the wording translated (./validation.ts `fieldMessage`); else
 * `message` as it is.
 */
export function localizedErrorMessage(kind: string, message: string, locale: AnyLocaleTag): string {
  if (locale === SOURCE_LOCALE || !(kind in ERRORS)) return message;
  if (ERRORS[kind as ErrorName].message !== message) return (kind === "BAD_INPUT" && fieldMessage(message, locale)) || message;
  if (locale === PSEUDO_LOCALE) return `[${accent(message)}]`;
  return ERROR_MESSAGES[locale as Exclude<LocaleTag, "en">][kind] ?? message;
}

/** Every locale with an error catalogue (English is src/errors.ts itself). */
export const ERROR_CATALOGUE_LOCALES = LOCALE_TAGS.filter((l) => l !== SOURCE_LOCALE);
