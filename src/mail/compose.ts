/**
 * A message as the outbox stores it: a subject, a plain-text part and an HTML
 * part made from the same paragraphs (text escaped; a link is a paragraph of
 * its own). Pure functions, no I/O.
 */

import { LOCALE_INFO, type LocaleTag } from "../i18n/locales.ts";

/** One paragraph of a message: text, or a link shown with its URL. */
export type Paragraph = string | { link: string; label: string };

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * Builds both parts from paragraphs; the HTML part carries `locale`'s `lang` and `dir`.
 * @example compose("Reset", ["Hello", { link: "https://x/reset?token=t", label: "Choose a new password" }])
 */
export function compose(subject: string, paragraphs: Paragraph[], locale: LocaleTag = "en"): ComposedMail {
  const text = paragraphs.map((p) => (typeof p === "string" ? p : `${p.label}:\n${p.link}`)).join("\n\n") + "\n";
  const body = paragraphs
    .map((p) =>
      typeof p === "string"
        ? `<p>${escapeHtml(p)}</p>`
        : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.label)}</a><br>${escapeHtml(p.link)}</p>`,
    )
    .join("\n");
  const html = `<!doctype html>\n<html lang="${locale}" dir="${LOCALE_INFO[locale].dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body>\n${body}\n</body></html>\n`;
  return { subject, text, html };
}
