/**
 * Locale-switch benchmark → the "Client: switching the interface language"
 * section of docs/benchmarks.md (issue 34's goal: a switch renders in under
 * 100 ms; decision 069).
 *
 * Production build served by src/server.ts over loopback, Chromium headless
 * through playwright-core, signed in as a student on /problems (the header,
 * the problem list, the difficulty tabs). A switch is timed inside the page
 * from the language menu's `change` event to the animation frame after the
 * header's "Problems" link reads in the new language (its messages loaded,
 * Lingui switched, React re-rendered, dates' locale loaded). Four kinds, each
 * in a fresh browser context (empty cache) per sample:
 *  - cold, as a person does it: the mouse moves onto the language menu (the
 *    page fetches every other language's messages for the screen then), and
 *    the language is chosen --choose-after ms later (default 300: a quick
 *    person opening the native list and clicking a name); also reported: when
 *    those prefetched chunks had all arrived, counted from the pointer's arrival;
 *  - cold, no menu first: the change with nothing fetched ahead (as an
 *    account's stored language is adopted at sign-in), after the same quiet
 *    --choose-after ms from the content shown: the catalogue chunks and dayjs
 *    locale fetched over loopback after the choice;
 *  - warm: back into the language after English;
 *  - baseline: the theme switch on the same page (the same whole-page
 *    re-render with no loading), timed the same way.
 * Medians and p90 (nearest rank) of `--runs` (default 15) per target language.
 *
 * Before and after: run it on the earlier build with `--json before.json`, then on
 * this one with `--before before.json --before-label "…"`: the section then has
 * both, measured in the same session.
 *
 * Usage: NODE_ENV=production bun run build && unshare -n bash -c 'ip link set lo up && bun scripts/bench-locale.ts [--runs 15] [--choose-after 300] [--json f] [--before f --before-label l] [--write]'
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Browser, Page } from "playwright-core";
import { ensureClientBuilt, launchBrowser, ROOT, startServer } from "../e2e/harness.ts";
import { median, ms, percentile, writeSection } from "./lib/bench-doc.ts";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "15" },
    "choose-after": { type: "string", default: "300" },
    write: { type: "boolean", default: false },
    port: { type: "string", default: "3396" },
    /** Writes the samples here (JSON), to be given as another run's --before. */
    json: { type: "string" },
    /** A --json file of an earlier build measured by this script in the same session: its medians and p90 are written beside these. */
    before: { type: "string" },
    /** What the --before build is, for the section ("main 60574de, before decision 069"). */
    "before-label": { type: "string", default: "the build before" },
  },
});
const RUNS = Number(args.runs);
const CHOOSE_AFTER_MS = Number(args["choose-after"]);
const TARGETS = ["de", "ja", "ar"] as const;

/** Times, in the page, a change of the header's language menu to `tag` until a frame after the "Problems" link changed. */
function timeSwitch(page: Page, tag: string): Promise<number> {
  return page.evaluate(
    (tag) =>
      new Promise<number>((resolve, reject) => {
        const select = document.querySelector<HTMLSelectElement>("header select");
        const link = document.querySelector('header nav a[href="/problems"]');
        if (!select || !link) return reject(new Error("no language menu or Problems link in the header"));
        const before = link.textContent;
        const t0 = performance.now();
        (window as unknown as { __choiceAt: number }).__choiceAt = t0;
        select.value = tag;
        select.dispatchEvent(new Event("change", { bubbles: true }));
        const check = () => {
          if (document.documentElement.lang === tag && link.isConnected && link.textContent !== before) requestAnimationFrame(() => resolve(performance.now() - t0));
          else if (performance.now() - t0 > 10_000) reject(new Error(`no switch to ${tag} within 10 s`));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    tag,
  );
}

/** Times the theme switch (the baseline): click to the frame after <html> changed its class. */
function timeTheme(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const button = document.querySelector<HTMLButtonElement>("header .theme-toggle, header button[aria-pressed]");
        if (!button) return reject(new Error("no theme switch in the header"));
        const before = document.documentElement.className;
        const t0 = performance.now();
        button.click();
        const check = () => {
          if (document.documentElement.className !== before) requestAnimationFrame(() => resolve(performance.now() - t0));
          else if (performance.now() - t0 > 10_000) reject(new Error("no theme switch within 10 s"));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
}

/** A fresh browser context on /problems as the student, the problem list shown: English, nothing of another language fetched. */
async function openProblems(browser: Browser, url: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1366, height: 900 }, locale: "en-US" });
  await context.addInitScript((t) => localStorage.setItem("token", t), token);
  const page = await context.newPage();
  await page.goto("/problems");
  await page.locator("[data-testid=problem-card]").first().waitFor({ timeout: 60_000 });
  return page;
}

interface Sample {
  /** Cold, chosen CHOOSE_AFTER_MS after the pointer reached the menu. */
  menu: number;
  /** When the chunks fetched on the pointer's arrival had all arrived, ms after it. */
  prefetched: number;
  /** How many scripts were fetched on the pointer's arrival. */
  prefetchedChunks: number;
  /** Cold, no menu intent first. */
  pure: number;
  warm: number;
  theme: number;
}

async function sample(browser: Browser, url: string, token: string, tag: string): Promise<Sample> {
  const a = await openProblems(browser, url, token);
  let pure: number, warm: number, theme: number;
  try {
    // The same quiet time after the content as the menu's kind below has, without pointing at the menu.
    await a.waitForTimeout(CHOOSE_AFTER_MS);
    pure = await timeSwitch(a, tag);
    await timeSwitch(a, "en");
    warm = await timeSwitch(a, tag);
    await timeSwitch(a, "en"); // leaves the account in English for the next sample
    theme = await timeTheme(a);
  } finally {
    await a.context().close();
  }
  const b = await openProblems(browser, url, token);
  try {
    await b.evaluate(() => {
      const w = window as unknown as { __menuAt: number | null };
      w.__menuAt = null;
      const at = () => (w.__menuAt ??= performance.now());
      const menu = document.querySelector("header .language-menu")!;
      menu.addEventListener("pointerover", at, { capture: true });
      menu.addEventListener("focusin", at, { capture: true });
    });
    await b.locator("header select").hover();
    await b.waitForTimeout(CHOOSE_AFTER_MS);
    const menu = await timeSwitch(b, tag);
    const fetched = await b.evaluate(() => {
      const w = window as unknown as { __menuAt: number; __choiceAt: number };
      const during = performance
        .getEntriesByType("resource")
        .filter((e): e is PerformanceResourceTiming => e.name.endsWith(".js") && e.startTime >= w.__menuAt && e.startTime < w.__choiceAt) as PerformanceResourceTiming[];
      return { ms: Math.max(0, ...during.map((e) => e.responseEnd - w.__menuAt)), chunks: during.length };
    });
    await timeSwitch(b, "en");
    return { menu, prefetched: fetched.ms, prefetchedChunks: fetched.chunks, pure, warm, theme };
  } finally {
    await b.context().close();
  }
}

async function main(): Promise<void> {
  ensureClientBuilt();
  const loadAtStart = loadavg();
  const server = await startServer(Number(args.port));
  let browser: Browser | null = null;
  try {
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ firstName: "Bench", lastName: "Locale", email: "bench-locale@example.com", password: "bench-locale-1" }),
    });
    if (reg.status !== 200) throw new Error(`register: HTTP ${reg.status} ${await reg.text()}`);
    const { token } = (await reg.json()) as { token: string };
    browser = await launchBrowser();
    for (const tag of TARGETS) await sample(browser, server.url, token, tag); // warm-up
    const results: Record<string, Sample[]> = {};
    for (let i = 0; i < RUNS; i++) {
      for (const tag of TARGETS) {
        const s = await sample(browser, server.url, token, tag);
        (results[tag] ??= []).push(s);
        console.log(`bench-locale: ${tag} menu-cold ${ms(s.menu)} (prefetched ${s.prefetchedChunks} chunks in ${ms(s.prefetched)}) pure-cold ${ms(s.pure)} warm ${ms(s.warm)} theme ${ms(s.theme)}`);
      }
    }
    const cell = (v: number[]) => `${ms(median(v))} / ${ms(percentile(v, 90))}`;
    const of = (tag: string, k: keyof Sample) => results[tag]!.map((s) => s[k]);
    const rows = TARGETS.map(
      (tag) => `| ${tag} | ${cell(of(tag, "menu"))} | ${cell(of(tag, "pure"))} | ${cell(of(tag, "warm"))} | ${cell(of(tag, "theme"))} | ${cell(of(tag, "prefetched"))} (${median(of(tag, "prefetchedChunks"))} scripts) |`,
    );
    const all = (k: keyof Sample) => TARGETS.flatMap((t) => of(t, k));
    if (args.json) writeFileSync(args.json, JSON.stringify({ results, at: new Date().toISOString(), load: loadavg() }));
    const before = args.before ? (JSON.parse(readFileSync(args.before, "utf8")) as { results: Record<string, Sample[]>; at: string; load: number[] }) : null;
    const beforeRows = before
      ? TARGETS.map((tag) => {
          const b = (k: keyof Sample) => before.results[tag]!.map((s) => s[k]);
          return `| ${tag} | ${cell(b("menu"))} | ${cell(b("pure"))} | ${cell(b("warm"))} | ${cell(b("theme"))} |`;
        })
      : [];
    const beforeAll = (k: keyof Sample) => (before ? TARGETS.flatMap((t) => before.results[t]!.map((s) => s[k])) : []);
    const verdict = (v: number[]) => `median **${ms(median(v))}**, p90 ${ms(percentile(v, 90))} (goal < 100 ms: ${median(v) < 100 ? "met" : "not met"})`;
    const loadAtEnd = loadavg();
    const section = [
      "## Client: switching the interface language (scripts/bench-locale.ts)",
      "",
      `Production build over loopback, Chromium ${browser.version()} headless through playwright-core, signed in as a student on /problems. A switch is timed in the page from the language menu's change to the animation frame after the header's "Problems" link reads in the new language. Cold, menu opened first: a fresh page in English; the mouse moves onto the language menu (which fetches every other language's messages for the screen and their dayjs locales, decision 069) and the language is chosen ${CHOOSE_AFTER_MS} ms later (a quick person opening the list and clicking a name); "prefetch done" is when those chunks had all arrived, from the pointer's arrival. Cold, no menu first: the change with nothing fetched ahead, as when an account's stored language is adopted at sign-in (its catalogue chunks and dayjs locale fetched over loopback, all at once), after the same ${CHOOSE_AFTER_MS} ms of quiet from the problem list shown. (The first measurement, 133 ms, switched right after a theme switch, whose work was still under way.) Warm: back into the language after English. Baseline: the theme switch on the same page after those (a whole-page re-render with nothing to load), timed the same way. Each sample fresh browser contexts (empty caches); median / p90 (nearest rank) of ${RUNS} per language.`,
      "",
      "| language | cold, menu opened first | cold, no menu first | warm | baseline: theme switch | prefetch done (scripts fetched) |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      `Over the three languages: cold with the menu opened first ${verdict(all("menu"))}; cold with no menu first ${verdict(all("pure"))}; warm median ${ms(median(all("warm")))}.`,
      "",
      ...(before
        ? [
            `Before: ${args["before-label"]}, measured by this same script just before (${before.at.slice(11, 16)} UTC, load ${before.load.map((l) => l.toFixed(2)).join(", ")}; pointing at its menu fetched nothing, so its two cold kinds are the same path). Median / p90:`,
            "",
            "| language | cold, menu opened first | cold, no menu first | warm | baseline: theme switch |",
            "| --- | ---: | ---: | ---: | ---: |",
            ...beforeRows,
            "",
            `Over the three languages before: cold with the menu opened first ${verdict(beforeAll("menu"))}; cold with no menu first ${verdict(beforeAll("pure"))}; warm median ${ms(median(beforeAll("warm")))}.`,
            "",
          ]
        : []),
      `Load average (1, 5, 15 min) at start ${loadAtStart.map((l) => l.toFixed(2)).join(", ")}, at the end ${loadAtEnd.map((l) => l.toFixed(2)).join(", ")}. Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model.trim()}), Bun ${Bun.version}. Reproduce: \`NODE_ENV=production bun run build && unshare -n bash -c 'ip link set lo up && bun scripts/bench-locale.ts --write'\`.`,
      "",
    ].join("\n");
    console.log(section);
    if (args.write) writeSection(join(ROOT, "docs", "benchmarks.md"), "## Client: switching the interface language", section);
  } finally {
    await browser?.close();
    await server.stop();
  }
}

await main();
