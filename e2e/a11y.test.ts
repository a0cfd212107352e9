/**
 * WCAG 2.1 AA on every screen, checked by axe-core in Debian's Chromium
 * against the real server with real data (a11y-seed.ts): every route of the
 * client, read from the client's own route table (client/src, each
 * `<Route path="...">`), so a new route without a URL here fails the test
 * instead of going unchecked; visited signed out, as a student and as staff
 * (site admin, course owner, contest jury), in the light and the dark theme;
 * zero violations of the wcag2a, wcag2aa, wcag21a and wcag21aa rules.
 * Each route's page is checked once it has settled (no "Loading..." left).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { PY_AC, PY_WA, seed, type Seeded } from "./a11y-seed.ts";
import { axeViolations, formatFindings } from "./axe.ts";
import { ensureClientBuilt, launchBrowser, ROOT, setEditorCode, startServer, type TestServer } from "./harness.ts";

const PORT = 3370;
const SLOW = 600_000;

/** Every `<Route path="...">` of the client's sources (the route table), in file order. */
export function clientRoutePatterns(dir = join(ROOT, "client", "src")): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...clientRoutePatterns(path));
    else if (path.endsWith(".tsx")) for (const m of readFileSync(path, "utf8").matchAll(/<Route\s+path="([^"]+)"/g)) out.push(m[1]!);
  }
  return [...new Set(out)];
}

/** The URL visited for each route pattern, from the seeded data; a route missing here fails the coverage test. */
function urlsFor(d: Seeded): Record<string, string[]> {
  const sim = `/similarity/${d.reportId}`;
  return {
    "/": ["/"],
    "/signin": ["/signin"],
    "/signup": ["/signup"],
    "/forgot-password": ["/forgot-password"],
    // Without a link's token (the page says to ask for one) and with one (the form; the token is checked on submit).
    "/reset-password": ["/reset-password", "/reset-password?token=a11y-not-a-real-token"],
    "/auth/complete": ["/auth/complete"],
    // A deep-link flow exists only inside an LMS launch: the page's own "not found" state is what a visitor can reach.
    "/lti/deep-link/:id": ["/lti/deep-link/no-such-flow"],
    "/account": ["/account"],
    "/problems": ["/problems"],
    "/solve/:id": [`/solve/${d.problemId}`, `/solve/${d.problemId}?assignment=${d.assignmentId}`, `/solve/${d.problemId}?contest=${d.contestId}`],
    "/my-submissions": ["/my-submissions"],
    "/my-submissions/:problemId": [`/my-submissions/${d.problemId}`],
    "/admin": ["/admin"],
    "/courses": ["/courses"],
    "/join/:code": [`/join/${d.inviteCode}`],
    "/courses/:id/settings": [`/courses/${d.courseId}/settings`],
    "/courses/:id/assignments/new": [`/courses/${d.courseId}/assignments/new`],
    "/courses/:id": [`/courses/${d.courseId}`],
    "/assignments/:id/edit": [`/assignments/${d.assignmentId}/edit`],
    "/assignments/:id/similarity": [`/assignments/${d.assignmentId}/similarity`],
    "/contests/:id/similarity": [`/contests/${d.contestId}/similarity`],
    "/similarity/:reportId/pairs/:pairId": [`${sim}/pairs/${d.pairId}`],
    "/similarity/:reportId": [sim],
    "/assignments/:id/gradebook": [`/assignments/${d.assignmentId}/gradebook`],
    "/assignments/:id": [`/assignments/${d.assignmentId}`],
    "/contests": ["/contests"],
    "/contests/new": ["/contests/new"],
    "/contests/:id/scoreboard": [`/contests/${d.contestId}/scoreboard`, `/contests/${d.contestId}/scoreboard?projector`],
    "/contests/:id/reveal": [`/contests/${d.contestId}/reveal`],
    "/contests/:id/balloons": [`/contests/${d.contestId}/balloons`],
    "/contests/:id": [`/contests/${d.contestId}`],
    "/about": ["/about"],
    "/contact": ["/contact"],
    "/privacy": ["/privacy"],
    "/terms": ["/terms"],
    "/accessibility": ["/accessibility"],
    // The catch-all route (no path): the not-found page.
    "*": ["/no-such-page"],
  };
}

let server: TestServer;
let browser: Browser;
let data: Seeded;

beforeAll(async () => {
  ensureClientBuilt();
  server = await startServer(PORT);
  browser = await launchBrowser();
  data = await seed(server);
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A browser context for one person and theme: the token and the theme stored as the client keeps them. */
async function contextFor(token: string | null, dark: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 }, colorScheme: dark ? "dark" : "light", reducedMotion: "reduce" });
  await context.addInitScript(
    ([t, d]) => {
      if (t) localStorage.setItem("token", t);
      localStorage.setItem("darkMode", JSON.stringify(d));
    },
    [token, dark] as const,
  );
  return context;
}

/** Waits until the page shows no loading text and its editor (if any) is up; gives up quietly after 15 s (axe then sees what is there). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page
    .waitForFunction(() => !/Loading[^\n]*\.\.\./.test(document.body.innerText) && !document.querySelector(".editor-loading"), undefined, { timeout: 15_000 })
    .catch(() => undefined);
  // Animations (card fade-ins) finish before colours are measured.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

describe("every route is in the list", () => {
  test("each <Route path> of the client has a URL to check (a new route must be added to urlsFor)", () => {
    const patterns = clientRoutePatterns();
    expect(patterns.length).toBeGreaterThan(20);
    const known = urlsFor({ staff: {}, student: {} } as Seeded);
    expect(patterns.filter((p) => !(p in known))).toEqual([]);
  });
});

const PEOPLE = ["signed out", "student", "staff"] as const;

describe("axe (WCAG 2.1 A and AA): zero violations on every route", () => {
  for (const who of PEOPLE) {
    for (const dark of [false, true]) {
      test(
        `${who}, ${dark ? "dark" : "light"} theme`,
        async () => {
          const token = who === "student" ? data.student.token : who === "staff" ? data.staff.token : null;
          const context = await contextFor(token, dark);
          const page = await context.newPage();
          const found: string[] = [];
          // A guarded route visited signed out ends on /signin: each page that is landed on is checked once.
          const checked = new Set<string>();
          try {
            const urls = urlsFor(data);
            for (const pattern of [...clientRoutePatterns(), "*"]) {
              for (const url of urls[pattern] ?? []) {
                await page.goto(url);
                await settle(page);
                const isDark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
                if (isDark !== dark) found.push(`${url}: the page is not in the ${dark ? "dark" : "light"} theme`);
                const landed = new URL(page.url());
                if (landed.pathname !== new URL(url, server.url).pathname && checked.has(landed.pathname + landed.search)) continue;
                checked.add(landed.pathname + landed.search);
                found.push(...formatFindings(`${who} ${dark ? "dark" : "light"} ${url} (at ${landed.pathname})`, await axeViolations(page)));
              }
            }
          } finally {
            await context.close();
          }
          if (found.length) console.error(found.join("\n"));
          expect(found).toEqual([]);
        },
        SLOW,
      );
    }
  }
});

describe("axe on the solving page's results (the output panel, verdicts, status line)", () => {
  for (const dark of [false, true]) {
    test(
      `after Run, a compile error, a wrong answer and an accepted submission, ${dark ? "dark" : "light"} theme`,
      async () => {
        const context = await contextFor(data.student.token, dark);
        const page = await context.newPage();
        const found: string[] = [];
        const check = async (what: string) => found.push(...formatFindings(`${dark ? "dark" : "light"} solve, ${what}`, await axeViolations(page)));
        try {
          // From the contest: while it runs, the server refuses the student's other submissions of its problem.
          await page.goto(`/solve/${data.problemId}?contest=${data.contestId}`);
          await page.getByLabel("Language").selectOption("py");
          const status = page.getByTestId("run-status");
          const statusSays = async (text: string) =>
            status
              .filter({ hasText: text })
              .waitFor({ timeout: 60_000 })
              .catch(async () => {
                throw new Error(`the status line never said "${text}"; it says "${await status.innerText()}"`);
              });
          await setEditorCode(page, PY_WA);
          await page.getByRole("button", { name: "Run Code" }).click();
          await statusSays("Sample test failed");
          await check("a failed Run");
          await page.getByRole("button", { name: "Submit Code" }).click();
          await statusSays("Wrong Answer on");
          await check("a Wrong Answer");
          await setEditorCode(page, "print(\n");
          await page.getByRole("button", { name: "Submit Code" }).click();
          await statusSays("Compilation Error");
          await check("a compile error");
          await setEditorCode(page, PY_AC);
          await page.getByRole("button", { name: "Submit Code" }).click();
          await statusSays("Accepted, ");
          await check("Accepted");
          await page.goto(`/my-submissions/${data.problemId}`);
          await settle(page);
          await check("the history after these submissions");
        } finally {
          await context.close();
        }
        if (found.length) console.error(found.join("\n"));
        expect(found).toEqual([]);
      },
      SLOW,
    );
  }
});
