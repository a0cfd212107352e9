/**
 * The words of the server's successful answers that a person reads (issue 34
 * §6, decision 068): `message` of sign-up, sign-in, sign-out, password
 * changes, the contact form, a problem's deletion and the password-reset
 * request, and the gradebook CSV's header labels and "late" mark. Catalogue:
 * ./answers/<locale>.json (ICU MessageFormat); English is exactly the wording
 * these answers had before, so English clients and tests see no change.
 * Messages follow the request's language (Accept-Language); exports made for
 * one user (the gradebook CSV) follow their account's choice first (readerLocale).
 */
import { catalogue } from "./catalogue.ts";
import { readerLocale, type LocaleTag } from "./locales.ts";
import ar from "./answers/ar.json";
import de from "./answers/de.json";
import en from "./answers/en.json";
import es from "./answers/es.json";
import fr from "./answers/fr.json";
import ja from "./answers/ja.json";
import ko from "./answers/ko.json";
import ptBR from "./answers/pt-BR.json";
import ru from "./answers/ru.json";
import zhCN from "./answers/zh-CN.json";

export type AnswerKey = keyof typeof en;

/** The catalogues by locale (for the catalogue tests). */
export const ANSWER_CATALOGUES: Record<LocaleTag, Record<AnswerKey, string>> = { en, ar, de, es, fr, ja, ko, "pt-BR": ptBR, ru, "zh-CN": zhCN };

/**
 * One answer's words in `locale` (any tag that is not ours reads English; en-XA is accented).
 * @example answerText("de", "loggedOut") // "Abgemeldet"
 * @example answerText("en", "grades.score", { problem: "Add One", points: "100" }) // "Add One (100)"
 */
export const answerText = catalogue<AnswerKey>(ANSWER_CATALOGUES);

/**
 * The language of an export made for one user (the gradebook CSV): their account's choice, else the request's,
 * else English (readerLocale); always English when the server answers in one locale (ANSWER_LOCALES=en).
 */
export function exportLocale(answerLocales: "all" | "en", accountLocale: string | null | undefined, requestLocale: string | null | undefined): LocaleTag {
  return answerLocales === "en" ? "en" : readerLocale(accountLocale, requestLocale);
}
