/**
 * The interface language on the server (issue 34 §3): PUT /api/auth/locale
 * stores the account's choice (auth.me then answers it, so it follows the
 * user to any browser), refuses a tag the interface does not speak (400
 * naming `locale`) and a caller signed out (401); the Accept-Language
 * negotiation (src/i18n/locales.ts) and index.html's `<html lang dir>` for it
 * (src/i18n/html.ts), through the real client handler (src/static.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { createApp } from "../app.ts";
import { request, signUp } from "../../tests/api.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { htmlStartTag, indexHtmlFor, localeOfRequest, localizeIndexHtml } from "../i18n/html.ts";
import { isLocaleTag, LOCALE_TAGS, negotiateLocale, parseAcceptLanguage } from "../i18n/locales.ts";
import { serveClient } from "../static.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
});
afterAll(() => t.cleanup());

describe("PUT /api/auth/locale", () => {
  test("200 for pt-BR, and auth.me then answers user.locale pt-BR (REST and tRPC)", async () => {
    const { token } = await signUp(app);
    const before = await request(app, "GET", "/api/auth/me", { token });
    expect(before.status).toBe(200);
    expect(before.body.user.locale ?? null).toBeNull();
    const res = await request(app, "PUT", "/api/auth/locale", { token, body: { locale: "pt-BR" } });
    expect([res.status, res.body.locale]).toEqual([200, "pt-BR"]);
    const me = await request(app, "GET", "/api/auth/me", { token });
    expect([me.status, me.body.user.locale]).toEqual([200, "pt-BR"]);
    const viaTrpc = await request(app, "GET", "/trpc/auth.me", { token });
    expect(viaTrpc.status).toBe(200);
    expect(JSON.stringify(viaTrpc.body)).toContain('"locale":"pt-BR"');
    // A later choice replaces it.
    expect((await request(app, "PUT", "/api/auth/locale", { token, body: { locale: "ar" } })).status).toBe(200);
    expect((await request(app, "GET", "/api/auth/me", { token })).body.user.locale).toBe("ar");
  });

  test.each([["xx"], ["en-XA"], ["PT-BR"], [""], [42]])("400 naming locale for %p, and the stored choice is kept", async (locale) => {
    const { token } = await signUp(app);
    expect((await request(app, "PUT", "/api/auth/locale", { token, body: { locale: "ja" } })).status).toBe(200);
    const res = await request(app, "PUT", "/api/auth/locale", { token, body: { locale } });
    expect([res.status, res.body.field]).toEqual([400, "locale"]);
    expect((await request(app, "GET", "/api/auth/me", { token })).body.user.locale).toBe("ja");
  });

  test("400 naming locale when it is missing", async () => {
    const { token } = await signUp(app);
    const res = await request(app, "PUT", "/api/auth/locale", { token, body: {} });
    expect([res.status, res.body.field]).toEqual([400, "locale"]);
  });

  test("401 signed out (no token, and a forged one)", async () => {
    expect((await request(app, "PUT", "/api/auth/locale", { body: { locale: "pt-BR" } })).status).toBe(401);
    expect((await request(app, "PUT", "/api/auth/locale", { token: "not.a.token", body: { locale: "pt-BR" } })).status).toBe(401);
  });
});

describe("Accept-Language (src/i18n/locales.ts)", () => {
  test("parseAcceptLanguage orders by q-value, ties in header order, drops q=0 and malformed ranges", () => {
    expect(parseAcceptLanguage("fr;q=0.5, de-DE, en;q=0.8, ja;q=0")).toEqual(["de-DE", "en", "fr"]);
    expect(parseAcceptLanguage("ko;q=0.7,ru;q=0.7,zh-CN;q=0.9")).toEqual(["zh-CN", "ko", "ru"]);
    expect(parseAcceptLanguage("es ; q = 0.3 , pt-BR")).toEqual(["pt-BR", "es"]);
    expect(parseAcceptLanguage("*;q=0.1, <script>, ar, abcdefghij-DE")).toEqual(["ar", "*"]);
    expect(parseAcceptLanguage("")).toEqual([]);
    expect(parseAcceptLanguage(null)).toEqual([]);
    // Bounded: at most 32 ranges are read.
    expect(parseAcceptLanguage(Array.from({ length: 100 }, () => "de").join(",")).length).toBe(32);
  });

  test("negotiateLocale: exact tag first, else by language, else English; never the pseudo-locale", () => {
    expect(negotiateLocale(["de-DE", "en"])).toBe("de");
    expect(negotiateLocale(["pt-PT"])).toBe("pt-BR");
    expect(negotiateLocale(["zh-TW"])).toBe("zh-CN");
    expect(negotiateLocale(["zh-cn"])).toBe("zh-CN");
    expect(negotiateLocale(["sv", "nl", "ar-EG"])).toBe("ar");
    expect(negotiateLocale(["sv", "*"])).toBe("en");
    expect(negotiateLocale(["en-XA"])).toBe("en");
    expect(negotiateLocale([])).toBe("en");
    expect(localeOfRequest("sv;q=0.9, ja;q=0.8, ko;q=0.85")).toBe("ko");
    expect(localeOfRequest(undefined)).toBe("en");
    for (const tag of LOCALE_TAGS) expect(isLocaleTag(tag)).toBe(true);
    expect(isLocaleTag("en-XA")).toBe(true);
    expect(isLocaleTag("xx")).toBe(false);
  });
});

describe("index.html's <html lang dir> (src/i18n/html.ts)", () => {
  const PAGE = '<!doctype html>\n<html lang="en">\n<head><title>CodeArena</title></head><body><div id="root"></div></body></html>\n';

  test("Arabic is right to left; the rest of the page is unchanged", () => {
    expect(htmlStartTag("ar")).toBe('<html lang="ar" dir="rtl" data-negotiated-lang="ar">');
    const html = localizeIndexHtml(PAGE, "ar");
    expect(html).toContain('<html lang="ar" dir="rtl" data-negotiated-lang="ar">');
    expect(html.replace(htmlStartTag("ar"), '<html lang="en">')).toBe(PAGE);
    expect(localizeIndexHtml(PAGE, "de")).toContain('<html lang="de" dir="ltr" data-negotiated-lang="de">');
  });

  test("the served page follows the request's Accept-Language, per file version", async () => {
    const dir = mkdtempSync(join(tmpdir(), "oj-locale-"));
    try {
      const index = join(dir, "index.html");
      writeFileSync(index, PAGE);
      expect(indexHtmlFor(index, "ar-SA,ar;q=0.9,en;q=0.5")).toMatchObject({ locale: "ar" });
      const client = new Hono().get("*", serveClient(dir));
      const arabic = await client.request("/problems", { headers: { "accept-language": "ar;q=0.9, en;q=0.1" } });
      expect(arabic.status).toBe(200);
      expect(arabic.headers.get("vary")).toContain("Accept-Language");
      expect(await arabic.text()).toContain('<html lang="ar" dir="rtl"');
      const german = await client.request("/", { headers: { "accept-language": "de-DE,de;q=0.9" } });
      expect(await german.text()).toContain('<html lang="de" dir="ltr"');
      const none = await client.request("/");
      expect(await none.text()).toContain('<html lang="en" dir="ltr"');
      // A new build of the page is read again (the cache is per file version).
      writeFileSync(index, PAGE.replace("CodeArena", "CodeArena 2"));
      const later = new Date(Date.now() + 5000);
      (await import("node:fs")).utimesSync(index, later, later);
      expect(indexHtmlFor(index, "ar").html).toContain("CodeArena 2");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
