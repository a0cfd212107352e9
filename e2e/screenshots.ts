/**
 * Screenshots of every screen, in light and dark mode, at desktop and phone
 * width, taken in Debian's Chromium against a real server with real data:
 * `bun e2e/screenshots.ts [outDir]` (default docs/screenshots). Files are
 * named `<screen>-<light|dark>-<desktop|phone>.png`; the phone is 360 px
 * wide, the narrowest width the client is made for.
 *
 * The data comes from e2e/a11y-seed.ts (a staff member, a student, a problem,
 * a course with an assignment, a running contest, judged submissions and a
 * similarity report) plus a third person in neither the course nor the
 * contest; the screens are listed in e2e/screenshot-screens.ts, and the
 * script refuses to start while a CLIENT_ROUTES pattern has no screen. It
 * fails if any page logs a console error (a screen marked `refused` may log
 * the browser's "Failed to load resource" for its deliberate 403/404).
 *
 * `SHOTS=<regex>` takes only the screens whose name matches, for iterating;
 * only a full run deletes the old pictures in outDir first.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { seed, signUp } from "./a11y-seed.ts";
import { ensureClientBuilt, launchBrowser, ROOT, startServer } from "./harness.ts";
import { type Device, screensFor, uncovered, type Viewer } from "./screenshot-screens.ts";

const PORT = 3312;
const outDir = resolve(process.argv[2] ?? join(ROOT, "docs", "screenshots"));
const VIEWPORTS: Record<Device, { width: number; height: number }> = { desktop: { width: 1366, height: 900 }, phone: { width: 360, height: 780 } };
const only = process.env.SHOTS ? new RegExp(process.env.SHOTS) : null;

const started = Date.now();
const missing = uncovered(screensFor({} as never));
if (missing.length > 0) throw new Error(`client routes without a screenshot (add them to e2e/screenshot-screens.ts): ${missing.join(", ")}`);

ensureClientBuilt();
mkdirSync(outDir, { recursive: true });
if (!only) for (const f of readdirSync(outDir)) if (f.endsWith(".png")) rmSync(join(outDir, f));
const server = await startServer(PORT);
const browser = await launchBrowser();
const consoleErrors: string[] = [];
/** Screens whose page is wider than the window (a sideways scroll of the whole page), with the widest culprits. */
const overflows: string[] = [];

/** In the page: when the document is wider than the window, the innermost elements reaching past its right edge outside any scroll pane (tag.class and right edge). */
function overflowing(): string[] {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  const clipped = (el: Element) => {
    // An absolutely placed element escapes a scroll pane that is not its containing block (roughly: treat it as unclipped).
    if (["absolute", "fixed"].includes(getComputedStyle(el).position)) return false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return true;
    return false;
  };
  const past = [...document.body.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el));
  return past
    .filter((el) => !past.some((other) => other !== el && el.contains(other)))
    .slice(0, 3)
    .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""} (${Math.round(el.getBoundingClientRect().right)} px)`);
}
try {
  const data = await seed(server);
  const solver = await signUp(server, { firstName: "Katherine", lastName: "Johnson", email: "katherine@uni.example", password: "orbital-mechanics" });
  const tokens: Record<Viewer, string | null> = { guest: null, staff: data.staff.token, student: data.student.token, solver: solver.token };
  const screens = screensFor(data).filter((s) => !only || only.test(s.name));
  console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s; ${screens.length} screens`);

  let count = 0;
  for (const theme of ["light", "dark"] as const) {
    for (const device of ["desktop", "phone"] as const) {
      const context = await browser.newContext({ baseURL: server.url, viewport: VIEWPORTS[device], colorScheme: theme, reducedMotion: "reduce" });
      await context.addInitScript((dark) => localStorage.setItem("darkMode", dark), theme === "dark" ? "true" : "false");
      for (const screen of screens) {
        if (screen.only && screen.only !== device) continue;
        const where = `${screen.name} (${theme}, ${device})`;
        const page = await context.newPage();
        page.on("console", (msg) => {
          if (msg.type() !== "error") return;
          if (screen.refused && msg.text().startsWith("Failed to load resource")) return;
          consoleErrors.push(`${where}: ${msg.text()}`);
        });
        page.on("pageerror", (err) => consoleErrors.push(`${where}: ${err.message}`));
        // Signed in as the client is after sign-in: the token in localStorage and the session cookie (live updates use it).
        const token = tokens[screen.as];
        await context.clearCookies();
        if (token) await context.addCookies([{ name: "oj_session", value: token, url: server.url }]);
        await page.addInitScript((t) => (t ? localStorage.setItem("token", t) : localStorage.removeItem("token")), token);
        await page.goto(screen.path);
        await page.waitForLoadState("networkidle");
        // Settled: no loading text left, animations (card fade-ins) finished.
        await page
          .waitForFunction(() => !/Loading[^\n]*\.\.\./.test(document.body.innerText) && !document.querySelector(".editor-loading"), undefined, { timeout: 15_000 })
          .catch(() => console.warn(`${where}: still loading after 15 s`));
        await screen.act?.(page);
        await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
        const wider = await page.evaluate(overflowing);
        if (wider.length > 0) overflows.push(`${where}: ${wider.join("; ")}`);
        if (!screen.screenful) {
          // The whole page as one tall window (not Chromium's full-page capture, which leaves a sticky footer mid-page).
          await page.evaluate(() => window.scrollTo(0, 0));
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          await page.setViewportSize({ width: VIEWPORTS[device].width, height: Math.max(VIEWPORTS[device].height, height) });
        }
        const file = join(outDir, `${screen.name}-${theme}-${device}.png`);
        await page.screenshot({ path: file, fullPage: !screen.screenful });
        count++;
        await page.close();
      }
      await context.close();
    }
  }
  if (overflows.length > 0) console.warn(`pages wider than the window:\n${overflows.join("\n")}`);
  if (consoleErrors.length > 0) throw new Error(`console errors while taking screenshots:\n${consoleErrors.join("\n")}`);
  console.log(`${count} screenshots of ${screens.length} screens in ${outDir} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await browser.close();
  await server.stop();
}
