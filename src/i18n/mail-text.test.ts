/** The e-mail catalogues (src/i18n/mail/<locale>.json) agree with English: keys, valid ICU, placeholders; a mail is written in its locale. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import { LOCALE_TAGS } from "./locales.ts";
import { mailLocale, mailText } from "./mail-text.ts";
import { resetMail } from "../accounts/password-mail.ts";

const read = (l: string) => JSON.parse(readFileSync(join(import.meta.dir, "mail", `${l}.json`), "utf8")) as Record<string, string>;
const en = read("en");
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe.each(LOCALE_TAGS.filter((l) => l !== "en"))("mail/%s.json", (locale) => {
  test("English's keys, valid ICU, the same placeholders", () => {
    const other = read(locale);
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const [key, message] of Object.entries(other)) {
      expect(() => compileMessageOrThrow(message), `${locale} ${key}`).not.toThrow();
      expect(placeholders(message), `${locale} ${key}`).toEqual(placeholders(en[key]!));
    }
  });
});

test("the account's language first, then the request's, then English; the mail says so in its HTML", () => {
  expect(mailLocale("ko", "de")).toBe("ko");
  expect(mailLocale(null, "de")).toBe("de");
  expect(mailLocale("xx", undefined)).toBe("en");
  expect(mailLocale("en-XA", "en-XA")).toBe("en");
  const mail = resetMail("Ada", "https://judge.example.edu/reset-password?token=t", "ru");
  expect(mail.subject).toBe(read("ru")["reset.subject"]!);
  expect(mail.text).toContain(mailText("ru", "hello", { firstName: "Ada" }));
  expect(mail.text).toContain("Ada");
  expect(mail.html).toContain('<html lang="ru" dir="ltr">');
});
