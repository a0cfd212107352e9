/**
 * Locale-switch benchmark → the "Client: switching the interface language"
 * section of docs/benchmarks.md (issue 34's goal: a switch renders in under
 * 100 ms).
 *
 * Production build served by src/server.ts over loopback, Chromium headless
 * through playwright-core, signed in as a student on /problems (the header,
 * the problem list, the difficulty tabs). A switch is timed inside the page
 * from the language menu's `change` event to the animation frame after the
 * header's "Problems" link reads in the new language (its messages loaded,
 * Lingui switched, React re-rendered, dates' locale loaded): cold (the
 * locale's catalogue chunks fetched over loopback, as on a first switch) and
 * warm (switching back to a locale already loaded). Baseline, in the same
 * run and page: the theme switch (the same whole-page re-render with no
 * loading), timed the same way. Each sample is a fresh browser context
 * (cold cache); medians of `--runs` (default 9) per target language.
 *
 * Usage: NODE_ENV=production bun run build && unshare -n bash -c 'ip link set lo up && bun scripts/bench-locale.ts [--runs 9] [--write]'
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Browser, Page } from "playwright-core";
import { ensureClientBuilt, launchBrowser, ROOT, startServer } from "../e2e/harness.ts";
import { median, ms, writeSection } from "./lib/bench-doc.ts";

const { values: args } = parseArgs({ options: { runs: { type: "string", default: "9" }, write: { type: "boolean", default: false }, port: { type: "string", default: "3396" } } });
const RUNS = Number(args.runs);
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

async function sample(browser: Browser, url: string, token: string, tag: string): Promise<{ cold: number; warm: number; theme: number }> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1366, height: 900 }, locale: "en-US" });
  await context.addInitScript((t) => localStorage.setItem("token", t), token);
  try {
    const page = await context.newPage();
    await page.goto("/problems");
    await page.locator("[data-testid=problem-card]").first().waitFor({ timeout: 60_000 });
    const theme = await timeTheme(page);
    const cold = await timeSwitch(page, tag);
    await timeSwitch(page, "en");
    const warm = await timeSwitch(page, tag);
    await timeSwitch(page, "en"); // leaves the account in English for the next sample
    return { cold, warm, theme };
  } finally {
    await context.close();
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
    const results: Record<string, { cold: number[]; warm: number[]; theme: number[] }> = {};
    for (let i = 0; i < RUNS; i++) {
      for (const tag of TARGETS) {
        const s = await sample(browser, server.url, token, tag);
        const r = (results[tag] ??= { cold: [], warm: [], theme: [] });
        r.cold.push(s.cold);
        r.warm.push(s.warm);
        r.theme.push(s.theme);
        console.log(`bench-locale: ${tag} cold ${ms(s.cold)} warm ${ms(s.warm)} theme ${ms(s.theme)}`);
      }
    }
    const rows = TARGETS.map((tag) => {
      const r = results[tag]!;
      const [cold, warm, theme] = [median(r.cold), median(r.warm), median(r.theme)];
      return `| ${tag} | ${ms(cold)} | ${ms(warm)} | ${ms(theme)} | ${(cold / theme).toFixed(2)}× | ${Math.max(...r.cold).toFixed(1)} ms |`;
    });
    const allCold = median(TARGETS.flatMap((t) => results[t]!.cold));
    const loadAtEnd = loadavg();
    const section = [
      "## Client: switching the interface language (scripts/bench-locale.ts)",
      "",
      `Production build over loopback, ${browser.version()} headless through playwright-core, signed in as a student on /problems. A switch is timed in the page from the language menu's change to the animation frame after the header's "Problems" link reads in the new language; cold: the first switch into the language (its catalogue chunks and dayjs locale fetched over loopback); warm: back into it after English. Baseline: the theme switch on the same page (a whole-page re-render with nothing to load), timed the same way. Each sample a fresh browser context; medians of ${RUNS} per language.`,
      "",
      "| language | switch, cold | switch, warm | baseline: theme switch | cold / baseline | slowest cold |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      `Median cold switch over the three: **${ms(allCold)}** (goal < 100 ms: ${allCold < 100 ? "met" : "not met"}).`,
      "",
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
