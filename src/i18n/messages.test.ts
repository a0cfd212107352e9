/**
 * The server's error messages in the reader's language (issue 34 §6): every
 * catalogue has exactly src/errors.ts's codes, each a non-empty text that
 * keeps a leading field name ("currentPassword: ") as it is; the REST door
 * and tRPC answer a code's own message in the Accept-Language's language with
 * the same stable `code`, and leave a message built with details as written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ERRORS } from "../errors.ts";
import { createApp } from "../app.ts";
import { request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { ERROR_CATALOGUE_LOCALES, localizedErrorMessage, requestLocale } from "./messages.ts";

describe.each(ERROR_CATALOGUE_LOCALES)("errors/%s.json", (locale) => {
  const catalogue = JSON.parse(readFileSync(join(import.meta.dir, "errors", `${locale}.json`), "utf8")) as Record<string, unknown>;
  test("has exactly the error codes, each translated", () => {
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(ERRORS).sort());
    for (const [code, message] of Object.entries(catalogue)) {
      expect(typeof message === "string" && message.trim() !== "", `${locale} ${code}`).toBe(true);
      const prefix = /^([A-Za-z_]+): /.exec(ERRORS[code as keyof typeof ERRORS].message)?.[1];
      if (prefix) expect((message as string).startsWith(`${prefix}: `), `${locale} ${code} keeps "${prefix}: "`).toBe(true);
    }
  });
});

test("the request's language: Accept-Language with q-values, English by default", () => {
  expect(requestLocale(undefined)).toBe("en");
  expect(requestLocale("fr-CA,fr;q=0.9,en;q=0.5")).toBe("fr");
  expect(requestLocale("xx, de;q=0.2, ja;q=0.8")).toBe("ja");
  expect(requestLocale("pt-PT")).toBe("pt-BR");
  // The client in the pseudo-locale sends en-XA: its errors are accented, as its own words are.
  expect(requestLocale("en-XA")).toBe("en-XA");
  expect(localizedErrorMessage("UNAUTHENTICATED", ERRORS.UNAUTHENTICATED.message, "en-XA")).toBe("[Åûţĥéñţîçáţîöñ ŕéǫûîŕéð]");
});

test("only a code's own message is translated", () => {
  expect(localizedErrorMessage("INVALID_CREDENTIALS", ERRORS.INVALID_CREDENTIALS.message, "de")).not.toBe(ERRORS.INVALID_CREDENTIALS.message);
  expect(localizedErrorMessage("BAD_INPUT", "package: data/secret/1.in: empty", "de")).toBe("package: data/secret/1.in: empty");
  expect(localizedErrorMessage("INVALID_CREDENTIALS", ERRORS.INVALID_CREDENTIALS.message, "en")).toBe(ERRORS.INVALID_CREDENTIALS.message);
});

describe("through the doors", () => {
  let t: TestServices;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    t = await createTestServices();
    app = createApp(t.services);
  });
  afterAll(() => t.cleanup());

  test("REST: a wrong password in German and Japanese, the same code; English without Accept-Language", async () => {
    const body = { email: "nobody@example.com", password: "not-the-password" };
    const de = await request(app, "POST", "/api/auth/login", { body, headers: { "accept-language": "de-DE,de;q=0.9" } });
    const ja = await request(app, "POST", "/api/auth/login", { body, headers: { "accept-language": "ja" } });
    const en = await request(app, "POST", "/api/auth/login", { body });
    expect([de.status, de.body.code, ja.body.code]).toEqual([401, "INVALID_CREDENTIALS", "INVALID_CREDENTIALS"]);
    expect(en.body.message).toBe(ERRORS.INVALID_CREDENTIALS.message);
    const catalogue = (l: string) => JSON.parse(readFileSync(join(import.meta.dir, "errors", `${l}.json`), "utf8")) as Record<string, string>;
    expect(de.body.message).toBe(catalogue("de").INVALID_CREDENTIALS!);
    expect(ja.body.message).toBe(catalogue("ja").INVALID_CREDENTIALS!);
  });

  test("tRPC: a problem not found, in Russian, with its code in data.app", async () => {
    const me = await signUp(app);
    const res = await request(app, "GET", `/trpc/problems.byId?input=${encodeURIComponent(JSON.stringify({ id: "no-such-problem" }))}`, { token: me.token, headers: { "accept-language": "ru" } });
    expect(res.status).toBe(404);
    const ru = JSON.parse(readFileSync(join(import.meta.dir, "errors", "ru.json"), "utf8")) as Record<string, string>;
    expect(res.body.error.message).toBe(ru.PROBLEM_NOT_FOUND!);
    expect(res.body.error.data.app.kind).toBe("PROBLEM_NOT_FOUND");
  });
});
