/**
 * The messages of the password flows (subject, text and HTML: src/mail/compose.ts).
 */
import { compose, type ComposedMail } from "../mail/compose.ts";

/** The reset link itself. */
export function resetMail(firstName: string, link: string): ComposedMail {
  return compose("Reset your password", [
    `Hello ${firstName},`,
    "Someone (we hope you) asked to reset the password of your account. Open this link within an hour to choose a new one; it works once:",
    { link, label: "Choose a new password" },
    "If you did not ask, ignore this message: your password stays as it is.",
  ]);
}

/** Words for a way in, from `external_identities.provider` (`oidc:<id>`, `ldap:<id>`, `header`, `lti:<id>`). */
export function describeWayIn(provider: string): string {
  if (provider.startsWith("oidc:")) return `your campus sign-in (${provider.slice(5)}) on the sign-in page`;
  if (provider.startsWith("ldap:")) return `your directory account (${provider.slice(5)}), with the sign-in form's directory choice`;
  if (provider.startsWith("header")) return "your campus sign-in portal, which signs you in to this site";
  if (provider.startsWith("lti:")) return "the link in your course's learning platform (LMS)";
  return provider;
}

/** For an account without a password: how it signs in instead. */
export function useYourWayInMail(firstName: string, providers: string[], signInUrl: string): ComposedMail {
  const ways = [...new Set(providers.map(describeWayIn))];
  return compose("How to sign in", [
    `Hello ${firstName},`,
    "Someone (we hope you) asked to reset the password of your account, but your account has no password here: you sign in through",
    ...ways.map((w) => `- ${w}`),
    "Its password is kept by your school, not by this site; ask your school's help desk if you lost it.",
    { link: signInUrl, label: "Sign in" },
  ]);
}

/** After a password change or reset: so an owner who did not make it can react. */
export function passwordChangedMail(firstName: string, forgotUrl: string): ComposedMail {
  return compose("Your password was changed", [
    `Hello ${firstName},`,
    "The password of your account was just changed, and every other session of it was signed out.",
    "If this was not you, reset your password now and tell your site's administrator:",
    { link: forgotUrl, label: "Reset your password" },
  ]);
}
