/**
 * The messages of the e-mail address flows (subject, text and HTML:
 * src/mail/compose.ts), in the recipient's language (src/i18n/mail-text.ts).
 */
import { compose, type ComposedMail } from "../../mail/compose.ts";
import { mailText, type MailKey } from "../../i18n/mail-text.ts";
import type { LocaleTag } from "../../i18n/locales.ts";

function words(locale: LocaleTag) {
  return (key: MailKey, values?: Record<string, string>) => mailText(locale, key, values);
}

/** The verification link, to the account's address (after sign-up, or asked again from the account page). */
export function verifyMail(firstName: string, link: string, locale: LocaleTag = "en"): ComposedMail {
  const t = words(locale);
  return compose(t("verify.subject"), [t("hello", { firstName }), t("verify.body"), { link, label: t("verify.link") }, t("verify.ignore")], locale);
}

/** The confirmation link of an address change, to the NEW address. */
export function confirmChangeMail(firstName: string, newEmail: string, link: string, locale: LocaleTag = "en"): ComposedMail {
  const t = words(locale);
  return compose(
    t("emailChange.subject"),
    [t("hello", { firstName }), t("emailChange.body", { newEmail }), { link, label: t("emailChange.link") }, t("emailChange.ignore")],
    locale,
  );
}

/** The notice to the OLD address that a change was asked for, and how to secure the account. */
export function changeNoticeMail(firstName: string, newEmail: string, forgotUrl: string, locale: LocaleTag = "en"): ComposedMail {
  const t = words(locale);
  return compose(
    t("emailNotice.subject"),
    [t("hello", { firstName }), t("emailNotice.body", { newEmail }), t("emailNotice.ifNotYou"), { link: forgotUrl, label: t("emailNotice.link") }],
    locale,
  );
}
