/**
 * Validation messages in the request's language (issue 34 §6, decision 068).
 * A 400 keeps its stable `code` (BAD_INPUT) and its field path (the schema's
 * name, e.g. `hiddenTestCases.2.input`); only the human part after "field: "
 * follows the reader's locale. English is left exactly as the schema wrote it.
 *
 * Catalogue: ./validation/<locale>.json (ICU MessageFormat; numbers are
 * formatted for the locale, lists of allowed values joined with the locale's
 * "or"). An issue is translated when it is
 * - one of the shared wordings of src/lib/fields.ts and the routers' schemas
 *   ("Required", "Must be text", "At most 200 characters", "At most 64 KiB",
 *   "Must be cpp, java or py", ...), recognised by their exact English text; or
 * - one of zod's own messages (too small / too big / invalid type / invalid
 *   option / invalid format / unrecognized keys), recognised as zod's English
 *   default for that issue and worded from the issue's own numbers and values.
 * Any other message (one built with details, such as a package's file and
 * line) stays as written.
 */
import { z, type ZodError } from "zod";
import { catalogue, intlLocale, type MessageValues } from "./catalogue.ts";
import { PSEUDO_LOCALE, SOURCE_LOCALE, isLocaleTag, type AnyLocaleTag, type LocaleTag } from "./locales.ts";
import ar from "./validation/ar.json";
import de from "./validation/de.json";
import en from "./validation/en.json";
import es from "./validation/es.json";
import fr from "./validation/fr.json";
import ja from "./validation/ja.json";
import ko from "./validation/ko.json";
import ptBR from "./validation/pt-BR.json";
import ru from "./validation/ru.json";
import zhCN from "./validation/zh-CN.json";

export type ValidationKey = keyof typeof en;
/** One issue of a ZodError. */
export type ZodIssue = ZodError["issues"][number];

/** The catalogues by locale (for the catalogue tests). */
export const VALIDATION_CATALOGUES: Record<LocaleTag, Record<ValidationKey, string>> = { en, ar, de, es, fr, ja, ko, "pt-BR": ptBR, ru, "zh-CN": zhCN };

const text = catalogue<ValidationKey>(VALIDATION_CATALOGUES);

/** English wordings without placeholders → their key ("Required" → required). */
const EXACT = new Map<string, ValidationKey>(
  (Object.entries(en) as [ValidationKey, string][]).filter(([, m]) => !m.includes("{")).map(([k, m]) => [m, k]),
);

type Found = { key: ValidationKey; values?: MessageValues; options?: string[] };
const n = (s: string) => Number(s);
const TOKEN = "[\\w.+-]+";

/** English wordings with a number or a list in them, as the schemas write them (`At most ${max} characters`, `Must be ${listInWords(xs)}`). */
const PATTERNS: { re: RegExp; found: (m: RegExpExecArray) => Found }[] = [
  { re: /^At most (\d+) characters$/, found: (m) => ({ key: "maxChars", values: { max: n(m[1]!) } }) },
  { re: /^At least (\d+) characters$/, found: (m) => ({ key: "minChars", values: { min: n(m[1]!) } }) },
  { re: /^Password should be at least (\d+) characters long$/, found: (m) => ({ key: "passwordMinChars", values: { min: n(m[1]!) } }) },
  { re: /^At most (\d+) KiB$/, found: (m) => ({ key: "maxKiB", values: { amount: n(m[1]!) } }) },
  { re: /^At most (\d+) MiB$/, found: (m) => ({ key: "maxMiB", values: { amount: n(m[1]!) } }) },
  { re: /^At most (\d+) bytes$/, found: (m) => ({ key: "maxBytes", values: { amount: n(m[1]!) } }) },
  { re: /^At most (\d+) ms$/, found: (m) => ({ key: "maxMs", values: { max: n(m[1]!) } }) },
  { re: /^At most (\d+) problems$/, found: (m) => ({ key: "maxProblems", values: { max: n(m[1]!) } }) },
  { re: /^At most (\d+) items$/, found: (m) => ({ key: "maxItems", values: { max: n(m[1]!) } }) },
  { re: /^At most (-?\d+(?:\.\d+)?)$/, found: (m) => ({ key: "maxNumber", values: { max: n(m[1]!) } }) },
  { re: /^At least (-?\d+(?:\.\d+)?)$/, found: (m) => ({ key: "minNumber", values: { min: n(m[1]!) } }) },
  { re: /^Must be more than (-?\d+(?:\.\d+)?)$/, found: (m) => ({ key: "moreThan", values: { min: n(m[1]!) } }) },
  { re: /^Must be less than (-?\d+(?:\.\d+)?)$/, found: (m) => ({ key: "lessThan", values: { max: n(m[1]!) } }) },
  // listInWords: "Must be cpp, java or py", "Must be hour or day" (two options at least; "Must be text" is exact above).
  { re: new RegExp(`^Must be (${TOKEN}(?:, ${TOKEN})* or ${TOKEN})$`), found: (m) => ({ key: "oneOf", options: m[1]!.split(/, | or /) }) },
  // Comma lists: "Must be one of c, cpp, py", "Must be one of: a, b", "One of en, ar, de".
  { re: new RegExp(`^(?:Must be one of:? |One of )(${TOKEN}(?:, ${TOKEN})+)$`), found: (m) => ({ key: "oneOf", options: m[1]!.split(", ") }) },
];

const zodEnglish = z.locales.en().localeError as unknown as (issue: ZodIssue) => string | { message: string } | undefined;

/** True when `issue.message` is zod's own English for the issue (no schema wrote its own). */
function isZodDefault(issue: ZodIssue): boolean {
  if (issue.code === "invalid_type") return issue.message.startsWith(`Invalid input: expected ${issue.expected}, received `);
  const made = zodEnglish(issue);
  return (typeof made === "string" ? made : made?.message) === issue.message;
}

const TYPE_KEYS: Record<string, ValidationKey> = { string: "text", number: "number", int: "wholeNumber", boolean: "boolean", object: "object", array: "list", date: "dateTime" };
const SIZED_ITEMS = new Set(["array", "set", "map"]);
const NUMERIC = new Set(["number", "int", "bigint"]);

/** Zod's own issue, worded from its numbers and values. */
function fromZod(issue: ZodIssue): Found | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (/received (undefined|null)$/.test(issue.message)) return { key: "required" };
      return TYPE_KEYS[issue.expected] ? { key: TYPE_KEYS[issue.expected]! } : undefined;
    case "too_small": {
      if (issue.exact) return undefined;
      const min = Number(issue.minimum);
      if (issue.origin === "string") return { key: "minChars", values: { min } };
      if (SIZED_ITEMS.has(issue.origin)) return { key: "minItems", values: { min } };
      if (NUMERIC.has(issue.origin)) return issue.inclusive ? { key: "minNumber", values: { min } } : { key: "moreThan", values: { min } };
      return undefined;
    }
    case "too_big": {
      if (issue.exact) return undefined;
      const max = Number(issue.maximum);
      if (issue.origin === "string") return { key: "maxChars", values: { max } };
      if (issue.origin === "file") return { key: "maxBytes", values: { amount: max } };
      if (SIZED_ITEMS.has(issue.origin)) return { key: "maxItems", values: { max } };
      if (NUMERIC.has(issue.origin)) return issue.inclusive ? { key: "maxNumber", values: { max } } : { key: "lessThan", values: { max } };
      return undefined;
    }
    case "invalid_value":
      return { key: "oneOf", options: issue.values.map(String) };
    case "invalid_format":
      return issue.format === "email" ? { key: "email" } : issue.format === "url" ? { key: "url" } : issue.format === "datetime" ? { key: "dateTime" } : { key: "format" };
    case "unrecognized_keys":
      return { key: "unknownFields", values: { count: issue.keys.length, names: issue.keys.join(", ") } };
    default:
      return undefined;
  }
}

/** What a wording says in catalogue terms (an exact one or a pattern's), undefined for one the catalogue does not know. */
function recogniseText(message: string): Found | undefined {
  const exact = EXACT.get(message);
  if (exact) return { key: exact };
  for (const p of PATTERNS) {
    const m = p.re.exec(message);
    if (m) return p.found(m);
  }
  return undefined;
}

/** What an issue's message says, in catalogue terms; undefined for a message the catalogue does not know. */
export function recognise(issue: ZodIssue): Found | undefined {
  return recogniseText(issue.message) ?? (isZodDefault(issue) ? fromZod(issue) : undefined);
}

const lists = new Map<string, Intl.ListFormat>();
/** "a, b or c" in the locale's words (Intl's disjunction list). */
function orList(locale: LocaleTag, options: string[]): string {
  let f = lists.get(locale);
  if (!f) lists.set(locale, (f = new Intl.ListFormat(intlLocale(locale), { type: "disjunction" })));
  return f.format(options);
}

function worded(found: Found, locale: AnyLocaleTag): string {
  const tag: LocaleTag = locale === PSEUDO_LOCALE ? SOURCE_LOCALE : (locale as LocaleTag);
  const values = found.options ? { ...found.values, options: orList(tag, found.options) } : found.values;
  return text(locale, found.key, values);
}

/**
 * A BAD_INPUT message written by hand as `field: wording` (`body: Malformed JSON`, `code: At most 64 KiB`) for a
 * reader of `locale`: the field path as it is, the wording from the catalogue when it is one it knows; undefined
 * otherwise (English included: the message stays as written).
 */
export function fieldMessage(message: string, locale: AnyLocaleTag): string | undefined {
  if (locale === SOURCE_LOCALE) return undefined;
  const m = /^([\w.]+): ([^]*)$/.exec(message);
  const found = m ? recogniseText(m[2]!) : undefined;
  return found ? `${m![1]}: ${worded(found, locale)}` : undefined;
}

/** Worded messages by locale and English message; at most WORDED_MAX (a zod message may name a client's keys). */
const worded_ = new Map<string, string>();
const WORDED_MAX = 1024;

/**
 * An issue's message for a reader of `locale` (without the field path): the
 * schema's English as it is for English, the catalogue's words otherwise when
 * the message is one it knows, else the message as written.
 * @example issueMessage({ code: "too_big", origin: "string", maximum: 200, message: "At most 200 characters", ... }, "de") // "Höchstens 200 Zeichen"
 */
export function issueMessage(issue: ZodIssue, locale: AnyLocaleTag | string | null | undefined): string {
  if (!isLocaleTag(locale) || locale === SOURCE_LOCALE) return issue.message;
  // Everything the words depend on is in the English message (the numbers, the values, zod's own wording), so
  // the answer is remembered per locale and message: a schema's 400 is worded once, then looked up.
  const key = `${locale}\u0000${issue.message}`;
  let text = worded_.get(key);
  if (text === undefined) {
    const found = recognise(issue);
    text = found ? worded(found, locale) : issue.message;
    if (worded_.size >= WORDED_MAX) worded_.clear();
    worded_.set(key, text);
  }
  return text;
}
