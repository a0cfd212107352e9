/**
 * The messages of the password flows (subject, text and HTML: src/mail/compose.ts),
 * in the recipient's language (src/i18n/mail-text.ts).
 */
import { compose, type ComposedMail } from "../mail/compose.ts";
import { mailText, type MailKey } from "../i18n/mail-text.ts";
import type { LocaleTag } from "../i18n/locales.ts";

/** The reset link itself. */
export function resetMail(firstName: string, link: string, locale: LocaleTag = "en"): ComposedMail {
  const t = (key: MailKey, values?: Record<string, string>) => mailText(locale, key, values);
  return compose(
    t("reset.subject"),
    [t("hello", { firstName }), t("reset.body"), { link, label: t("reset.link") }, t("reset.ignore")],
    locale,
  );
}

/** Words for a way in, from `external_identities.provider` (`oidc:<id>`, `ldap:<id>`, `header`, `lti:<id>`). */
export function describeWayIn(provider: string, locale: LocaleTag = "en"): string {
  if (provider.startsWith("oidc:")) return mailText(locale, "wayIn.oidc", { provider: provider.slice(5) });
  if (provider.startsWith("ldap:")) return mailText(locale, "wayIn.ldap", { provider: provider.slice(5) });
  if (provider.startsWith("header")) return mailText(locale, "wayIn.header");
  if (provider.startsWith("lti:")) return mailText(locale, "wayIn.lti");
  return provider;
}

/** For an account without a password: how it signs in instead. */
export function useYourWayInMail(firstName: string, providers: string[], signInUrl: string, locale: LocaleTag = "en"): ComposedMail {
  const t = (key: MailKey, values?: Record<string, string>) => mailText(locale, key, values);
  const ways = [...new Set(providers.map((p) => describeWayIn(p, locale)))];
  return compose(
    t("wayIn.subject"),
    [t("hello", { firstName }), t("wayIn.body"), ...ways.map((w) => `- ${w}`), t("wayIn.school"), { link: signInUrl, label: t("wayIn.link") }],
    locale,
  );
}

/** After a password change or reset: so an owner who did not make it can react. */
export function passwordChangedMail(firstName: string, forgotUrl: string, locale: LocaleTag = "en"): ComposedMail {
  const t = (key: MailKey, values?: Record<string, string>) => mailText(locale, key, values);
  return compose(
    t("changed.subject"),
    [t("hello", { firstName }), t("changed.body"), t("changed.ifNotYou"), { link: forgotUrl, label: t("changed.link") }],
    locale,
  );
}
