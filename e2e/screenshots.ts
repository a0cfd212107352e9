/**
 * Screenshots of every screen, in light and dark mode, at desktop and phone
 * width, taken in Debian's Chromium against a real server with a fresh
 * database: `bun e2e/screenshots.ts [outDir]` (default docs/screenshots).
 * Files are named `<screen>-<light|dark>-<desktop|phone>.png`.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { ensureClientBuilt, launchBrowser, ROOT, startServer } from "./harness.ts";

const PORT = 3312;
const outDir = resolve(process.argv[2] ?? join(ROOT, "docs", "screenshots"));
const VIEWPORTS = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;
const USER = { firstName: "Grace", lastName: "Hopper", email: "grace@example.com", password: "compiler-pioneer" };
const CPP = `#include <bits/stdc++.h>
using namespace std;

int main() {
    long long a, b;
    cin >> a >> b;
    cout << a + b << "\\n";
    return 0;
}
`;

async function api<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

ensureClientBuilt();
mkdirSync(outDir, { recursive: true });
const server = await startServer(PORT);
const browser = await launchBrowser();
try {
  await api(server.url, "/api/auth/register", USER);
  const { token } = await api<{ token: string }>(server.url, "/api/auth/login", { email: USER.email, password: USER.password });
  const problems = (await (await fetch(`${server.url}/api/problems`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    _id: string;
    title: string;
  }[];
  const sum = problems.find((p) => p.title === "Sum of Two Numbers")!;
  // Two judged submissions for the history screen: one accepted, one wrong.
  await api(server.url, "/api/submissions", { problemId: sum._id, language: "cpp", code: CPP }, token);
  await api(server.url, "/api/submissions", { problemId: sum._id, language: "py", code: "a, b = map(int, input().split())\nprint(a - b)\n" }, token);

  const shots: { name: string; path: string; signedIn: boolean; act?: (page: Page) => Promise<void> }[] = [
    { name: "landing", path: "/", signedIn: false },
    { name: "signin", path: "/signin", signedIn: false },
    { name: "signup", path: "/signup", signedIn: false },
    { name: "about", path: "/about", signedIn: false },
    { name: "contact", path: "/contact", signedIn: false },
    { name: "privacy", path: "/privacy", signedIn: false },
    { name: "terms", path: "/terms", signedIn: false },
    { name: "not-found", path: "/no-such-page", signedIn: false },
    { name: "problems", path: "/problems", signedIn: true, act: (p) => p.getByTestId("problem-card").first().waitFor() },
    {
      name: "problem-form",
      path: "/problems",
      signedIn: true,
      act: async (p) => {
        await p.getByRole("button", { name: "Create Problem" }).click();
        await p.getByRole("dialog").waitFor();
      },
    },
    {
      name: "solve",
      path: `/solve/${sum._id}`,
      signedIn: true,
      act: async (p) => {
        await p.locator(".monaco-editor").waitFor({ timeout: 30_000 });
        await p.getByRole("button", { name: "Submit Code" }).click();
        await p.getByText("Submission saved.").waitFor({ timeout: 60_000 });
      },
    },
    {
      name: "ai-review",
      path: `/solve/${sum._id}`,
      signedIn: true,
      act: async (p) => {
        await p.locator(".monaco-editor").waitFor({ timeout: 30_000 });
        await p.getByRole("button", { name: "AI Review" }).click();
        await p.getByText("Review completed successfully").waitFor({ timeout: 60_000 });
        await p.getByRole("region", { name: "AI Code Review" }).scrollIntoViewIfNeeded();
      },
    },
    { name: "my-submissions", path: `/my-submissions/${sum._id}`, signedIn: true, act: (p) => p.getByTestId("submission-card").first().waitFor() },
  ];

  for (const theme of ["light", "dark"] as const) {
    for (const [device, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ baseURL: server.url, viewport, reducedMotion: "reduce" });
      await context.addInitScript(
        ([dark, t, problemId, code]) => {
          localStorage.setItem("darkMode", dark);
          if (t) localStorage.setItem("token", t);
          localStorage.setItem(`code:${problemId}:cpp`, code);
        },
        [theme === "dark" ? "true" : "false", "", sum._id, CPP] as const,
      );
      for (const shot of shots) {
        const page = await context.newPage();
        if (shot.signedIn) await page.addInitScript((t) => localStorage.setItem("token", t), token);
        else await page.addInitScript(() => localStorage.removeItem("token"));
        await page.goto(shot.path);
        await page.waitForLoadState("networkidle");
        await shot.act?.(page);
        const inDialogOrPanel = shot.name === "problem-form" || shot.name === "ai-review";
        if (!inDialogOrPanel) await page.evaluate(() => window.scrollTo(0, 0));
        const file = join(outDir, `${shot.name}-${theme}-${device}.png`);
        await page.screenshot({ path: file, fullPage: !inDialogOrPanel && shot.name !== "solve" });
        console.log(file);
        await page.close();
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
