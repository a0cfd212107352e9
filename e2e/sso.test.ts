/**
 * Campus sign-in in the browser: a student clicks "Sign in with Campus
 * account", signs in on the local OpenID Provider's own login page
 * (oidc-provider, tests/sso/oidc-peer.ts), lands on the problems signed in,
 * and sees the linked identity on the account page; another signs in through
 * the LDAP directory (slapd) chosen on the same sign-in form. Neither ever
 * makes a password here. A deep link opened signed out comes back through
 * the provider with its query.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startLdapPeer, LDAP_BASE, LDAP_SERVICE_DN, LDAP_SERVICE_PASSWORD, type LdapPeer } from "../tests/sso/ldap-peer.ts";
import { startOidcPeer, type OidcPeer } from "../tests/sso/oidc-peer.ts";
import { ensureClientBuilt, expectCleanPages, launchBrowser, openPage, startServer, type TestServer, type WatchedPage } from "./harness.ts";

const PORT = 3316;
const ORIGIN = `http://127.0.0.1:${PORT}`;
let server: TestServer;
let browser: Browser;
let oidc: OidcPeer;
let ldap: LdapPeer;
let watched: WatchedPage;

beforeAll(async () => {
  ensureClientBuilt();
  oidc = await startOidcPeer([`${ORIGIN}/api/auth/oidc/campus/callback`]);
  oidc.accounts.set("s1234567", { email: "mia@campus.example", email_verified: true, given_name: "Mia", family_name: "Student", groups: ["students"] });
  ldap = await startLdapPeer([{ uid: "noah", givenName: "Noah", sn: "Directory", mail: "noah@campus.example", password: "noah-pw" }]);
  server = await startServer(PORT, {
    PUBLIC_URL: ORIGIN,
    OIDC_PROVIDERS: "campus",
    OIDC_CAMPUS_ISSUER: oidc.issuer,
    OIDC_CAMPUS_CLIENT_ID: oidc.clientId,
    OIDC_CAMPUS_CLIENT_SECRET: oidc.clientSecret,
    OIDC_CAMPUS_NAME: "Campus account",
    OIDC_CAMPUS_SCOPES: "openid email profile groups",
    LDAP_PROVIDERS: "directory",
    LDAP_DIRECTORY_NAME: "Campus directory",
    LDAP_DIRECTORY_URL: ldap.url,
    LDAP_DIRECTORY_BIND_DN: LDAP_SERVICE_DN,
    LDAP_DIRECTORY_BIND_PASSWORD: LDAP_SERVICE_PASSWORD,
    LDAP_DIRECTORY_BASE_DN: `ou=people,${LDAP_BASE}`,
    JUDGE_IN_PROCESS: "false",
  });
  browser = await launchBrowser();
  watched = await openPage(browser, ORIGIN);
  await watched.context.route("https://fonts.googleapis.com/**", (route) => route.abort());
}, 120_000);
afterEach(() => {
  // The provider's login page is the journey's own foreign origin (its stylesheet asks a font CDN, blocked here).
  const ours = (u: string) => !u.startsWith(oidc.issuer) && !u.startsWith("https://fonts.googleapis.com/");
  watched.foreignRequests.splice(0, watched.foreignRequests.length, ...watched.foreignRequests.filter(ours));
  watched.errors.splice(0, watched.errors.length, ...watched.errors.filter((e) => !e.includes("net::ERR_FAILED")));
  expectCleanPages([watched], watched);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await oidc?.stop();
  await ldap?.stop();
});

test("a student signs in through the campus OpenID provider's login page and lands signed in; the account page shows the link", async () => {
  const p = watched.page;
  await p.goto("/signin");
  await p.getByRole("link", { name: "Sign in with Campus account" }).click();
  // The provider's own page, on its own origin.
  await p.waitForURL(`${oidc.issuer}/**`);
  await p.locator('input[name="login"]').fill("s1234567");
  await p.locator('input[name="password"]').fill("campus-password");
  await p.getByRole("button", { name: "Sign-in" }).click();
  await p.waitForURL(`${ORIGIN}/problems`);
  await p.getByRole("heading", { name: "Problems To Solve" }).waitFor();
  expect(await p.evaluate(() => localStorage.getItem("token"))).toMatch(/^ey/);
  await p.goto("/account");
  await p.getByTestId("identities").waitFor();
  expect(await p.getByTestId("identities").textContent()).toContain("oidc:campus");
  expect(await p.getByText("mia@campus.example").count()).toBeGreaterThan(0);
  await p.evaluate(() => localStorage.removeItem("token"));
  await p.context().clearCookies();
}, 60_000);

test("another signs in with the directory chosen on the sign-in form", async () => {
  const p = watched.page;
  await p.goto("/signin");
  await p.getByLabel("Sign in with").selectOption({ label: "Campus directory" });
  await p.getByLabel("Username or email").fill("noah");
  await p.getByLabel("Password").fill("noah-pw");
  await p.getByRole("button", { name: "Sign In" }).click();
  await p.waitForURL(`${ORIGIN}/problems`);
  await p.getByRole("heading", { name: "Problems To Solve" }).waitFor();
  const me = await p.evaluate(async () => (await fetch("/api/auth/me", { headers: { authorization: `Bearer ${localStorage.getItem("token")}` } })).json());
  expect(me.user).toMatchObject({ firstName: "Noah", lastName: "Directory", email: "noah@campus.example" });
}, 60_000);

test("a deep link opened signed out comes back, with its query, through the campus provider (decision 056)", async () => {
  const p = watched.page;
  await p.evaluate(() => localStorage.removeItem("token"));
  await p.context().clearCookies();
  await p.goto("/courses?from=mail");
  await p.waitForURL((u) => u.pathname === "/signin" && u.searchParams.get("next") === "/courses?from=mail");
  const campus = p.getByRole("link", { name: "Sign in with Campus account" });
  expect(await campus.getAttribute("href")).toBe(`/api/auth/oidc/campus/login?returnTo=${encodeURIComponent("/courses?from=mail")}`);
  await campus.click();
  await p.waitForURL(`${oidc.issuer}/**`);
  await p.locator('input[name="login"]').fill("s1234567");
  await p.locator('input[name="password"]').fill("campus-password");
  await p.getByRole("button", { name: "Sign-in" }).click();
  await p.waitForURL(`${ORIGIN}/courses?from=mail`);
  expect(await p.evaluate(() => localStorage.getItem("token"))).toMatch(/^ey/);
}, 60_000);
