/**
 * Screenshots of every screen, in light and dark mode, at desktop and phone
 * width, taken in Debian's Chromium against a real server with a fresh
 * database: `bun e2e/screenshots.ts [outDir]` (default docs/screenshots).
 * Files are named `<screen>-<light|dark>-<desktop|phone>.png`; the phone is
 * 360 px wide, the narrowest width the client is made for.
 *
 * The history screen shows three submissions made through the API before any
 * picture is taken (accepted, wrong answer, compile error), so all four
 * variants show the same data; the solving screens submit and review as a
 * second user, whose submissions do not show up there. The script fails if
 * any page logs a console error.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { ensureClientBuilt, launchBrowser, ROOT, startServer } from "./harness.ts";

const PORT = 3312;
const outDir = resolve(process.argv[2] ?? join(ROOT, "docs", "screenshots"));
const VIEWPORTS = { desktop: { width: 1366, height: 900 }, phone: { width: 360, height: 780 } } as const;
type Device = keyof typeof VIEWPORTS;
const AUTHOR = { firstName: "Grace", lastName: "Hopper", email: "grace@example.com", password: "compiler-pioneer" };
const SOLVER = { firstName: "Katherine", lastName: "Johnson", email: "katherine@example.com", password: "orbital-mechanics" };
const CPP = `#include <bits/stdc++.h>
using namespace std;

int main() {
    long long a, b;
    cin >> a >> b;
    cout << a + b << "\\n";
    return 0;
}
`;
const PY_WRONG = "a, b = map(int, input().split())\nprint(a - b)\n";
const CPP_BROKEN = "#include <iostream>\nint main() {\n    long long a, b;\n    std::cin >> a >> b\n    std::cout << a + b;\n}\n";

async function api<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function signUpAndIn(base: string, user: typeof AUTHOR): Promise<string> {
  await api(base, "/api/auth/register", user);
  const { token } = await api<{ token: string }>(base, "/api/auth/login", { email: user.email, password: user.password });
  return token;
}

/** Submits through the REST door and waits until judged (GET /api/submissions lists it with a verdict). */
async function submitAndWait(base: string, token: string, problemId: string, language: string, code: string): Promise<void> {
  await api(base, "/api/submissions", { problemId, language, code }, token);
  for (let i = 0; i < 300; i++) {
    const res = await fetch(`${base}/api/submissions/${problemId}`, { headers: { Authorization: `Bearer ${token}` } });
    const list = (await res.json()) as { status?: string; verdict?: string | null }[];
    if (list.every((s) => s.verdict)) return;
    await Bun.sleep(200);
  }
  throw new Error("submission not judged within 60 s");
}

interface Shot {
  name: string;
  path: string;
  /** Whose token the page gets; none for a guest. */
  as?: "author" | "solver";
  /** Only at this width (a state that exists only there). */
  only?: Device;
  /** Whole page rather than the first screenful. */
  fullPage?: boolean;
  act?: (page: Page) => Promise<void>;
}

ensureClientBuilt();
mkdirSync(outDir, { recursive: true });
const server = await startServer(PORT);
const browser = await launchBrowser();
const consoleErrors: string[] = [];
try {
  const tokens = { author: await signUpAndIn(server.url, AUTHOR), solver: await signUpAndIn(server.url, SOLVER) };
  const problems = (await (await fetch(`${server.url}/api/problems`, { headers: { Authorization: `Bearer ${tokens.author}` } })).json()) as {
    _id: string;
    title: string;
  }[];
  const sum = problems.find((p) => p.title === "Sum of Two Numbers")!;
  // One problem of the author's own, so the list shows Edit and Delete and the edit form has hidden tests.
  await api(
    server.url,
    "/api/problems",
    {
      title: "Double It",
      description: "Read an integer n and print 2n.",
      inputFormat: "One integer n.",
      outputFormat: "One integer: 2n.",
      constraints: "|n| <= 10^9",
      sampleInput: "21\n",
      sampleOutput: "42\n",
      difficulty: "easy",
      timeLimitMs: 1000,
      memoryLimitKib: 128 * 1024,
      checker: "tokens",
      hiddenTestCases: [
        { input: "5\n", expectedOutput: "10\n" },
        { input: "-7\n", expectedOutput: "-14\n" },
      ],
    },
    tokens.author,
  );
  // Oldest first: the history lists the newest on top.
  await submitAndWait(server.url, tokens.author, sum._id, "cpp", CPP);
  await submitAndWait(server.url, tokens.author, sum._id, "py", PY_WRONG);
  await submitAndWait(server.url, tokens.author, sum._id, "cpp", CPP_BROKEN);

  const editorReady = async (p: Page) => {
    await p.locator(".monaco-editor .view-lines").getByText("cin >> a >> b;").waitFor({ timeout: 30_000 });
  };
  const shots: Shot[] = [
    { name: "landing", path: "/", fullPage: true },
    {
      name: "landing-menu",
      path: "/",
      only: "phone",
      act: async (p) => {
        await p.getByRole("button", { name: "Open menu" }).click();
        await p.getByRole("navigation", { name: "Mobile" }).waitFor();
      },
    },
    { name: "signin", path: "/signin", fullPage: true },
    { name: "signup", path: "/signup", fullPage: true },
    { name: "about", path: "/about", fullPage: true },
    { name: "contact", path: "/contact", fullPage: true },
    { name: "privacy", path: "/privacy", fullPage: true },
    { name: "terms", path: "/terms", fullPage: true },
    { name: "not-found", path: "/no-such-page", fullPage: true },
    { name: "problems", path: "/problems", as: "author", fullPage: true, act: (p) => p.getByTestId("problem-card").first().waitFor() },
    {
      name: "problem-form",
      path: "/problems",
      as: "author",
      act: async (p) => {
        await p.getByRole("button", { name: "Create Problem" }).click();
        await p.getByRole("dialog").waitFor();
      },
    },
    {
      name: "problem-edit",
      path: "/problems",
      as: "author",
      act: async (p) => {
        await p.getByRole("button", { name: "Edit Double It" }).click();
        const dialog = p.getByRole("dialog", { name: "Edit Problem" });
        await dialog.waitFor();
        // Scrolled to the end: limits, checker and the hidden test cases.
        await dialog.evaluate((d) => (d.scrollTop = d.scrollHeight));
      },
    },
    {
      name: "solve",
      path: `/solve/${sum._id}`,
      as: "solver",
      fullPage: true,
      act: async (p) => {
        await editorReady(p);
        await p.getByRole("button", { name: "Submit Code" }).click();
        await p.getByText("Submission saved.").waitFor({ timeout: 60_000 });
      },
    },
    {
      name: "solve-run",
      path: `/solve/${sum._id}`,
      as: "solver",
      fullPage: true,
      act: async (p) => {
        await editorReady(p);
        await p.getByLabel("Custom Input (optional)").fill("40 2");
        await p.getByRole("button", { name: "Run Code" }).click();
        await p.getByText("Sample test passed", { exact: true }).waitFor({ timeout: 60_000 });
      },
    },
    {
      name: "ai-review",
      path: `/solve/${sum._id}`,
      as: "solver",
      fullPage: true,
      act: async (p) => {
        await editorReady(p);
        await p.getByRole("button", { name: "AI Review" }).click();
        await p.getByText("Review completed successfully").waitFor({ timeout: 60_000 });
      },
    },
    {
      name: "my-submissions",
      path: `/my-submissions/${sum._id}`,
      as: "author",
      fullPage: true,
      act: async (p) => {
        await p.getByTestId("submission-row").nth(2).waitFor();
        await p.getByTestId("submission-row").nth(0).locator(".history-toggle").click();
        await p.getByTestId("submission-row").nth(0).getByRole("heading", { name: "Your Output" }).waitFor();
      },
    },
  ];

  let count = 0;
  for (const theme of ["light", "dark"] as const) {
    for (const [device, viewport] of Object.entries(VIEWPORTS) as [Device, (typeof VIEWPORTS)[Device]][]) {
      const context = await browser.newContext({ baseURL: server.url, viewport, reducedMotion: "reduce" });
      await context.addInitScript(
        ([dark, problemId, code]) => {
          localStorage.setItem("darkMode", dark);
          localStorage.setItem(`code:${problemId}:cpp`, code);
        },
        [theme === "dark" ? "true" : "false", sum._id, CPP] as const,
      );
      for (const shot of shots) {
        if (shot.only && shot.only !== device) continue;
        const page = await context.newPage();
        page.on("console", (msg) => {
          if (msg.type() === "error") consoleErrors.push(`${shot.name} (${theme}, ${device}): ${msg.text()}`);
        });
        page.on("pageerror", (err) => consoleErrors.push(`${shot.name} (${theme}, ${device}): ${err.message}`));
        const token = shot.as ? tokens[shot.as] : null;
        await page.addInitScript((t) => (t ? localStorage.setItem("token", t) : localStorage.removeItem("token")), token);
        await page.goto(shot.path);
        await page.waitForLoadState("networkidle");
        await shot.act?.(page);
        if (shot.fullPage) await page.evaluate(() => window.scrollTo(0, 0));
        const file = join(outDir, `${shot.name}-${theme}-${device}.png`);
        await page.screenshot({ path: file, fullPage: shot.fullPage ?? false });
        console.log(file);
        count++;
        await page.close();
      }
      await context.close();
    }
  }
  if (consoleErrors.length > 0) throw new Error(`console errors while taking screenshots:\n${consoleErrors.join("\n")}`);
  console.log(`${count} screenshots in ${outDir}`);
} finally {
  await browser.close();
  await server.stop();
}
