/**
 * The language switch's fetching (decision 069), with Lingui itself and
 * namespaces whose loaders are held until the test answers them: nothing of
 * another language is fetched until asked for; a prefetch fetches a
 * language's namespaces and parts all at once without changing what is
 * shown; a switch after it happens in the same call with one Lingui change
 * (one render); a cold switch requests everything in parallel and changes
 * once; the last switch asked for wins; a failed chunk reads English; a
 * namespace defined but not read yet is left out of all that and reads
 * English until first read.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { i18n } from "@lingui/core";
import { translate } from "./index.tsx";
import { defineNamespace, noteUse } from "./namespace.ts";
import { addLocalePart, isLocaleReady, prefetchLocale, switchLocale } from "./switch.ts";

const TAGS = ["de", "ja", "fr", "es", "ko"] as const;

/** Loader calls by "<namespace>/<tag>", each answered when the test says (or failed). */
const calls: string[] = [];
const held = new Map<string, { answer: () => void; fail: () => void }>();

function heldLoaders(ns: string, words: Record<string, string>): Record<string, () => Promise<unknown>> {
  return Object.fromEntries(
    TAGS.map((tag) => [
      `./${tag}.json`,
      () =>
        new Promise((resolve, reject) => {
          calls.push(`${ns}/${tag}`);
          held.set(`${ns}/${tag}`, { answer: () => resolve(Object.fromEntries(Object.entries(words).map(([k, v]) => [k, `${v} (${tag})`]))), fail: () => reject(new Error("chunk failed")) });
        }),
    ]),
  );
}

/** Answers every held loader (or those whose key matches). */
function answer(match: RegExp = /./): void {
  for (const [key, h] of [...held]) {
    if (!match.test(key)) continue;
    held.delete(key);
    h.answer();
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

// A part besides the messages (as the dates' dayjs locale is), held the same way.
const applied: string[] = [];
addLocalePart({
  fetch: (tag) =>
    new Promise((resolve) => {
      calls.push(`part/${tag}`);
      held.set(`part/${tag}`, { answer: () => resolve(() => applied.push(tag)), fail: () => resolve(() => {}) });
    }),
});

let changes = 0;
i18n.on("change", () => changes++);

const header = defineNamespace("switchtest-header", { hello: "Hello", bye: "Goodbye" }, heldLoaders("header", { hello: "Hallo", bye: "Tschüss" }));
const page = defineNamespace("switchtest-page", { title: "Problems" }, heldLoaders("page", { title: "Aufgaben" }));
// Defined (its chunk evaluated) but not read by anything on the screen yet.
const aside = defineNamespace("switchtest-aside", { note: "Note" }, heldLoaders("aside", { note: "Notiz" }));
// The screen reads these two (as useT does when it renders).
noteUse(header);
noteUse(page);

beforeEach(() => {
  calls.length = 0;
  changes = 0;
});

afterAll(async () => {
  const back = switchLocale("en", ["en"]);
  answer();
  await back;
});

describe("the language switch", () => {
  test("defining namespaces while English is shown fetches no other language", () => {
    expect(i18n.locale).toBe("en");
    expect(calls).toEqual([]);
    expect(header.isFetched("de") || page.isFetched("de") || aside.isFetched("de")).toBe(false);
  });

  test("a prefetch asks for every namespace and part of that language at once, and changes nothing shown", async () => {
    const done = prefetchLocale("de");
    // Every request is out before any has been answered: no waterfall.
    expect(calls.sort()).toEqual(["header/de", "page/de", "part/de"]);
    expect(isLocaleReady("de")).toBe(false);
    answer(/\/de$/);
    await done;
    expect(isLocaleReady("de")).toBe(true);
    expect(changes).toBe(0);
    expect(i18n.locale).toBe("en");
    expect(applied).toEqual([]);
    expect(i18n._("switchtest-header.hello")).toBe("Hello");
    // Asking again shares what was fetched: no new request.
    await prefetchLocale("de");
    expect(calls.filter((c) => c.endsWith("/de")).length).toBe(3);
  });

  test("the switch after a prefetch happens within the call, with one change", async () => {
    const switched = switchLocale("de", ["de"]);
    expect(i18n.locale).toBe("de");
    expect(changes).toBe(1);
    expect(applied).toEqual(["de"]);
    expect(i18n._("switchtest-header.hello")).toBe("Hallo (de)");
    expect(i18n._("switchtest-page.title")).toBe("Aufgaben (de)");
    expect(await switched).toBe(true);
    expect(calls).toEqual([]);
    expect(changes).toBe(1);
    expect(header.isLoaded("de")).toBe(true);
  });

  test("a cold switch requests every namespace and part in parallel, then changes once", async () => {
    const switched = switchLocale("ja", ["ja"]);
    expect(calls.sort()).toEqual(["header/ja", "page/ja", "part/ja"]);
    expect(i18n.locale).toBe("de");
    answer(/^page\/ja$/);
    await flush();
    answer(/^part\/ja$/);
    await flush();
    expect(changes).toBe(0); // nothing shown changes while a part is missing
    answer(/^header\/ja$/);
    expect(await switched).toBe(true);
    expect(changes).toBe(1);
    expect(i18n.locale).toBe("ja");
    expect(i18n._("switchtest-header.bye")).toBe("Tschüss (ja)");
  });

  test("the last switch asked for wins, whichever chunks arrive first", async () => {
    const first = switchLocale("fr", ["fr"]);
    const second = switchLocale("es", ["es"]);
    answer(/\/es$/);
    expect(await second).toBe(true);
    answer(/\/fr$/);
    expect(await first).toBe(false);
    expect(i18n.locale).toBe("es");
    expect(changes).toBe(1);
  });

  test("a chunk that fails to load reads English, never an id", async () => {
    const switched = switchLocale("ko", ["ko"]);
    held.get("header/ko")!.fail();
    held.delete("header/ko");
    answer(/\/ko$/);
    expect(await switched).toBe(true);
    expect(i18n.locale).toBe("ko");
    expect(i18n._("switchtest-header.hello")).toBe("Hello");
    expect(i18n._("switchtest-page.title")).toBe("Aufgaben (ko)");
  });

  test("a namespace not read yet is not fetched ahead, reads English after a switch, and loads when first read", async () => {
    expect(aside.isFetched("de")).toBe(false);
    expect(calls).toEqual([]);
    const back = switchLocale("de", ["de"]); // fetched before: immediate
    expect(i18n.locale).toBe("de");
    await back;
    expect(calls).toEqual([]);
    expect(translate(aside, "note")).toBe("Note");
    expect(calls).toEqual(["aside/de"]);
    answer(/^aside\/de$/);
    await aside.load("de");
    expect(translate(aside, "note")).toBe("Notiz (de)");
  });
});
