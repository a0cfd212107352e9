/**
 * The server's own catalogues besides the error codes (decision 068):
 * validation wordings (./validation/<locale>.json) and successful answers'
 * words (./answers/<locale>.json). Every locale has exactly English's keys,
 * each a message that compiles as ICU MessageFormat with the same arguments
 * (plain, number, plural) as English and no empty text; English keeps the
 * exact wording the answers had before (tests and API clients assert it).
 */
import { describe, expect, test } from "bun:test";
import { compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import { ANSWER_CATALOGUES, answerText } from "./answers.ts";
import { LOCALE_TAGS, type LocaleTag } from "./locales.ts";
import { VALIDATION_CATALOGUES } from "./validation.ts";

type Compiled = ReturnType<typeof compileMessageOrThrow>;

/** The message's arguments as `name` or `name:format` (plural, number...), sorted, from the compiled form. */
function argumentsOf(compiled: Compiled, out: string[] = []): string[] {
  if (typeof compiled === "string") return out;
  for (const token of compiled) {
    if (typeof token === "string") continue;
    const [name, format, cases] = token as [string, string?, Record<string, Compiled>?];
    out.push(format ? `${name}:${format}` : name);
    if (cases && typeof cases === "object") for (const c of Object.values(cases)) if (c !== undefined && typeof c !== "number") argumentsOf(c, out);
  }
  return out;
}
/** Arguments by name only, with their kind reduced to "a number" or "a text": `{max}` and `{max, number}` and `{max, plural, ...}` all take a number. */
const shape = (message: string) => [...new Set(argumentsOf(compileMessageOrThrow(message)).map((a) => a.split(":")[0]))].sort();

const namespaces = { validation: VALIDATION_CATALOGUES, answers: ANSWER_CATALOGUES } as Record<string, Record<LocaleTag, Record<string, string>>>;

for (const [ns, catalogues] of Object.entries(namespaces)) {
  describe.each(LOCALE_TAGS.filter((l) => l !== "en"))(`${ns}/%s.json`, (locale) => {
    const en = catalogues.en;
    const other = catalogues[locale];
    test("English's keys, valid ICU, the same arguments, every message translated", () => {
      expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
      for (const [key, message] of Object.entries(other)) {
        expect(() => compileMessageOrThrow(message), `${ns}/${locale} ${key}`).not.toThrow();
        expect(shape(message), `${ns}/${locale} ${key}`).toEqual(shape(en[key]!));
        expect(message.trim().length, `${ns}/${locale} ${key}`).toBeGreaterThan(0);
      }
      // A translation is not English left in place (the arguments-only messages such as "{problem} ({points})" aside).
      const untranslated = Object.keys(en).filter((k) => other[k] === en[k] && /[A-Za-z]{3}/.test(en[k]!.replace(/\{[^}]*\}/g, "")));
      expect(untranslated, `${ns}/${locale}`).toEqual([]);
    });
    test("plural messages name the locale's categories they need, and `other`", () => {
      const rules = new Intl.PluralRules(locale);
      const categories = rules.resolvedOptions().pluralCategories;
      for (const [key, message] of Object.entries(other)) {
        for (const m of message.matchAll(/\{\w+, plural,((?:[^{}]|\{[^{}]*\})*)\}/g)) {
          const named = [...m[1]!.matchAll(/(\w+) \{/g)].map((x) => x[1]!);
          expect(named, `${ns}/${locale} ${key}`).toContain("other");
          for (const c of named) expect(categories as string[], `${ns}/${locale} ${key}: ${c}`).toContain(c);
        }
      }
    });
  });
}

test("English answers are the exact wordings they were", () => {
  expect(answerText("en", "registered")).toBe("Registration successful! You are signed in.");
  expect(answerText("en", "loggedIn")).toBe("Login successful!");
  expect(answerText("en", "loggedOut")).toBe("Logged out");
  expect(answerText("en", "contactSent")).toBe("Your message has been sent successfully!");
  expect(answerText("en", "problemDeleted")).toBe("Problem deleted successfully!");
  expect(answerText("en", "grades.score", { problem: "Add One {x}", points: "1000" })).toBe("Add One {x} (1000)");
  expect(answerText("xx", "loggedOut")).toBe("Logged out");
  expect(answerText("en-XA", "loggedOut")).toBe("[Ļöĝĝéð öûţ]");
  expect(answerText("de", "grades.lateColumn", { problem: "Add One" })).toBe("Add One verspätet");
});
