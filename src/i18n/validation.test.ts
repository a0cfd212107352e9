/**
 * Validation and success messages in the request's language (decision 068):
 * a 400 keeps its code and the schema's field path and says the rest in the
 * Accept-Language's language through src/i18n/validation/<locale>.json; English
 * stays exactly as the schemas write it; a message built with details stays as
 * written; success messages follow the same language; ANSWER_LOCALES=en
 * answers in English whatever the request asks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { z } from "zod";
import { createApp } from "../app.ts";
import { emailField, idField, instantField, requiredBlock, requiredText, textBlock } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";
import { problemBody, request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { LOCALE_TAGS } from "./locales.ts";
import { issueMessage, recognise, type ZodIssue } from "./validation.ts";

/** The first issue `schema` finds in `value`. */
function issueOf(schema: z.ZodType, value: unknown): ZodIssue {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected a failure");
  return r.error.issues[0]!;
}

const SHARED: [string, z.ZodType, unknown][] = [
  ["Required (missing)", requiredText(200), undefined],
  ["Required (blank)", requiredText(200), "   "],
  ["Must be text", requiredText(200), 5],
  ["At most 200 characters", requiredText(200), "x".repeat(201)],
  ["At most 64 KiB", requiredBlock(65536), "x".repeat(65537)],
  ["At most 16 MiB", textBlock(16 << 20), "x".repeat((16 << 20) + 1)],
  ["Must be a valid email address", emailField(), "nope"],
  ["At most 64 characters", idField(), "x".repeat(65)],
  ["ISO date-time", instantField(), "yesterday"],
  ["Must be hour or day", z.enum(["hour", "day"], { error: "Must be hour or day" }), "week"],
  ["listInWords", z.enum(["cpp", "java", "py"], { error: `Must be ${listInWords(["cpp", "java", "py"])}` }), "go"],
  ["zod: too small number", z.number().min(3), 1],
  ["zod: too big array", z.array(z.string()).max(2), ["a", "b", "c"]],
  ["zod: invalid option", z.enum(["a", "b"]), "c"],
  ["zod: missing", z.object({ a: z.string() }), {}],
  ["zod: not an integer", z.number().int(), 1.5],
  ["zod: unknown key", z.object({}).strict(), { extra: 1 }],
];

describe("an issue's words", () => {
  test.each(SHARED)("%s: English exactly as written, every other locale translated", (_name, schema, value) => {
    const issue = issueOf(schema, value);
    expect(issueMessage(issue, "en")).toBe(issue.message);
    expect(recognise(issue)).toBeDefined();
    for (const locale of LOCALE_TAGS.filter((l) => l !== "en")) {
      const text = issueMessage(issue, locale);
      expect(text.length, locale).toBeGreaterThan(0);
      expect(text, `${locale}: ${issue.message}`).not.toBe(issue.message);
    }
  });

  test("numbers in the locale's digits and grouping, lists with its 'or', plural forms", () => {
    expect(issueMessage(issueOf(requiredText(200), "x".repeat(201)), "de")).toBe("Höchstens 200 Zeichen");
    expect(issueMessage(issueOf(z.string().max(20000, { error: "At most 20000 characters" }), "x".repeat(20001)), "de")).toBe("Höchstens 20.000 Zeichen");
    expect(issueMessage(issueOf(z.string().max(20000, { error: "At most 20000 characters" }), "x".repeat(20001)), "ar")).toBe("الحد الأقصى 20,000 حرف");
    expect(issueMessage(issueOf(requiredText(64), "x".repeat(65)), "ru")).toBe("Не более 64 символов");
    expect(issueMessage(issueOf(requiredText(21), "x".repeat(22)), "ru")).toBe("Не более 21 символа");
    expect(issueMessage(issueOf(z.enum(["hour", "day"], { error: "Must be hour or day" }), "x"), "fr")).toBe("Doit être hour ou day");
    expect(issueMessage(issueOf(z.enum(["a", "b", "c"]), "x"), "es")).toBe("Debe ser a, b o c");
    expect(issueMessage(issueOf(requiredText(10), undefined), "ja")).toBe("必須項目です");
    expect(issueMessage(issueOf(requiredText(10), "x".repeat(11)), "en-XA")).toBe("[Åţ ɱöšţ 10 çĥáŕáçţéŕš]");
  });

  test("a message built with details, or one the catalogue does not know, stays as written", () => {
    const detailed = issueOf(z.string().refine(() => false, { error: "output validator: exit code 3 on data/secret/1.in" }), "x");
    expect(recognise(detailed)).toBeUndefined();
    expect(issueMessage(detailed, "de")).toBe("output validator: exit code 3 on data/secret/1.in");
    const almost = issueOf(z.string().refine(() => false, { error: "Must be pass-fail when the whole problem is pass-fail" }), "x");
    expect(issueMessage(almost, "de")).toBe("Must be pass-fail when the whole problem is pass-fail");
  });
});

describe("through the doors", () => {
  let t: TestServices;
  let app: ReturnType<typeof createApp>;
  let token: string;
  beforeAll(async () => {
    t = await createTestServices();
    app = createApp(t.services);
    token = (await signUp(app)).token;
  });
  afterAll(() => t.cleanup());

  const tooLong = problemBody({ title: "x".repeat(201) });

  test("REST: the same code and field; the words in German, English exactly as before", async () => {
    const de = await request(app, "POST", "/api/problems", { token, body: tooLong, headers: { "accept-language": "de-DE,de;q=0.9,en;q=0.8" } });
    expect(de.body).toMatchObject({ code: "BAD_INPUT", field: "title", message: "title: Höchstens 200 Zeichen", error: "title: Höchstens 200 Zeichen" });
    expect(de.status).toBe(400);
    const en = await request(app, "POST", "/api/problems", { token, body: tooLong });
    expect(en.body).toMatchObject({ code: "BAD_INPUT", field: "title", message: "title: At most 200 characters" });
    const enHeader = await request(app, "POST", "/api/problems", { token, body: tooLong, headers: { "accept-language": "en-GB" } });
    expect(enHeader.body.message).toBe("title: At most 200 characters");
    const nested = await request(app, "POST", "/api/problems", { token, body: problemBody({ hiddenTestCases: [{ input: 5, expectedOutput: "6\n" }] }), headers: { "accept-language": "ja" } });
    expect([nested.body.code, nested.body.field, nested.body.message]).toEqual(["BAD_INPUT", "hiddenTestCases.0.input", "hiddenTestCases.0.input: テキストで指定してください"]);
  });

  test("a message written by hand as `field: wording` with a wording the catalogue knows: the wording translated", async () => {
    const malformed = await request(app, "POST", "/api/problems", { token, rawBody: "{not json", headers: { "accept-language": "fr" } });
    expect([malformed.status, malformed.body.code, malformed.body.field, malformed.body.message]).toEqual([400, "BAD_INPUT", "body", "body: JSON mal formé"]);
    const list = await request(app, "POST", "/api/problems", { token, rawBody: "[1]", headers: { "accept-language": "ar" } });
    expect(list.body.message).toBe("body: يجب أن يكون كائن JSON");
    const en = await request(app, "POST", "/api/problems", { token, rawBody: "{not json" });
    expect(en.body.message).toBe("body: Malformed JSON");
  });

  test("tRPC: the same in Russian, with the field in data.app", async () => {
    const res = await request(app, "POST", "/trpc/problems.create", { token, body: tooLong, headers: { "accept-language": "ru" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("title: Не более 200 символов");
    expect(res.body.error.data.app).toEqual({ kind: "BAD_INPUT", field: "title" });
    const short = await request(app, "POST", "/trpc/auth.register", { body: { firstName: "A", lastName: "B", email: "short@example.com", password: "1234567" }, headers: { "accept-language": "ru" } });
    expect(short.body.error.message).toBe("password: Пароль должен содержать не менее 8 символов");
  });

  test("success messages in the request's language; English unchanged", async () => {
    const out = await request(app, "POST", "/api/auth/logout", { headers: { "accept-language": "de" } });
    expect(out.body.message).toBe("Abgemeldet");
    const contact = await request(app, "POST", "/api/contact", { body: { name: "Ana", email: "ana@example.com", message: "Olá" }, headers: { "accept-language": "pt-BR" } });
    expect(contact.body.message).toBe("Sua mensagem foi enviada!");
    const reg = await request(app, "POST", "/api/auth/register", { body: { firstName: "Kim", lastName: "Lee", email: "kim@example.com", password: "correct horse battery" }, headers: { "accept-language": "ko-KR" } });
    expect(reg.body.message).toBe("회원가입이 완료되었습니다! 로그인되었습니다.");
    const forgot = await request(app, "POST", "/api/auth/password/forgot", { body: { email: "kim@example.com" }, headers: { "accept-language": "zh-CN" } });
    expect(forgot.body.message).toBe("本站不发送邮件：请向管理员索取重置密码的链接。");
    const login = await request(app, "POST", "/api/auth/login", { body: { email: "kim@example.com", password: "correct horse battery" } });
    expect(login.body.message).toBe("Login successful!");
  });
});

describe("ANSWER_LOCALES=en: one locale", () => {
  let t: TestServices;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    t = await createTestServices({ env: { ANSWER_LOCALES: "en" } });
    app = createApp(t.services);
  });
  afterAll(() => t.cleanup());

  test("a German request reads English: validation, error codes' messages and success", async () => {
    const headers = { "accept-language": "de" };
    const bad = await request(app, "POST", "/api/contact", { body: { name: "x", email: "bad", message: "m" }, headers });
    expect(bad.body.message).toBe("email: Must be a valid email address");
    const wrong = await request(app, "POST", "/api/auth/login", { body: { email: "nobody@example.com", password: "not-the-password" }, headers });
    expect(wrong.body.message).toBe("Invalid email or password");
    const out = await request(app, "POST", "/trpc/auth.logout", { body: {}, headers });
    expect(out.body.result.data.message).toBe("Logged out");
  });
});
