/**
 * The e-mails' words in the recipient's language (issue 34 §6): the
 * catalogues ./mail/<locale>.json (ICU MessageFormat, compiled once at start
 * by Lingui's compiler, formatted by a Lingui instance per language; keys
 * checked by ./mail-text.test.ts). The language is the account's stored
 * choice, else the language of the request that caused the mail, else English.
 */
import { setupI18n, type I18n, type Messages } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { isLocaleTag, LOCALE_TAGS, PSEUDO_LOCALE, SOURCE_LOCALE, type LocaleTag } from "./locales.ts";
import ar from "./mail/ar.json";
import de from "./mail/de.json";
import en from "./mail/en.json";
import es from "./mail/es.json";
import fr from "./mail/fr.json";
import ja from "./mail/ja.json";
import ko from "./mail/ko.json";
import ptBR from "./mail/pt-BR.json";
import ru from "./mail/ru.json";
import zhCN from "./mail/zh-CN.json";

export type MailKey = keyof typeof en;

const SOURCES: Record<LocaleTag, Record<string, string>> = { en, ar, de, es, fr, ja, ko, "pt-BR": ptBR, ru, "zh-CN": zhCN };

function compiled(messages: Record<string, string>): Messages {
  const out: Messages = {};
  for (const [key, message] of Object.entries(messages)) out[key] = compileMessage(message);
  return out;
}

const english = compiled(en);
const instances = new Map<LocaleTag, I18n>(
  LOCALE_TAGS.map((tag) => {
    const i18n = setupI18n({ locale: tag, messages: { [tag]: { ...english, ...compiled(SOURCES[tag]) } } });
    return [tag, i18n] as const;
  }),
);

/** The language a mail is written in: the account's choice when it is one of ours, else the request's, else English. */
export function mailLocale(accountLocale: string | null | undefined, requestLocale?: string | null): LocaleTag {
  for (const tag of [accountLocale, requestLocale]) if (isLocaleTag(tag) && tag !== PSEUDO_LOCALE) return tag;
  return SOURCE_LOCALE;
}

/** One message of the mail catalogue in `locale`, with its placeholders filled. */
export function mailText(locale: LocaleTag, key: MailKey, values?: Record<string, string>): string {
  return instances.get(locale)!._(key, values);
}
