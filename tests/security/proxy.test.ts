/**
 * The trusted proxy header through a real reverse proxy: Debian's nginx runs
 * the very `nginx` block of docs/sso.md (its listen line and upstream ports
 * put on this machine's test ports), with a stand-in for oauth2-proxy's
 * /oauth2/auth answering as `--set-xauthrequest --user-id-claim=sub` does. A
 * client sends its own copy of every header the judge reads; the account the
 * judge makes carries only the proxy's values, and no other path lets the
 * client's copies through. Skips with a message where nginx is not installed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { createApp } from "../../src/app.ts";
import { createTestServices, type TestServices } from "../services.ts";

const ROOT = join(import.meta.dir, "..", "..");
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p)) ?? null;
const PROXY_PORT = 3180;
const work = mkdtempSync(join(tmpdir(), "oj-proxy-"));
let t: TestServices;
let judge: ReturnType<typeof Bun.serve>;
let auth: ReturnType<typeof Bun.serve>;
let nginx: Subprocess | null = null;
/** What the judge received, by path: the sign-in headers as they arrived. */
const seen: { path: string; headers: Record<string, string> }[] = [];
const SIGN_IN_HEADERS = ["x-remote-user", "x-remote-email", "x-remote-given", "x-remote-family", "x-remote-groups"];

/** The ```nginx block of docs/sso.md, on this machine's ports. */
function documentedServerBlock(authPort: number, judgePort: number): string {
  const doc = readFileSync(join(ROOT, "docs", "sso.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/sso.md has no ```nginx block");
  return block
    .replace(/listen 443 ssl;/, `listen 127.0.0.1:${PROXY_PORT};`)
    .replaceAll("127.0.0.1:4180", `127.0.0.1:${authPort}`)
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${judgePort}`);
}

beforeAll(async () => {
  if (!NGINX) return;
  t = await createTestServices({
    env: {
      TRUSTED_HEADER: "X-Remote-User",
      TRUSTED_PROXIES: "127.0.0.1/32",
      TRUSTED_HEADER_EMAIL: "X-Remote-Email",
      TRUSTED_HEADER_FIRST_NAME: "X-Remote-Given",
      TRUSTED_HEADER_LAST_NAME: "X-Remote-Family",
      TRUSTED_HEADER_GROUPS: "X-Remote-Groups",
      TRUSTED_HEADER_ADMIN_WHEN: 'groups contains "judge-admins"',
      TRUST_PROXY: "true",
    },
  });
  const app = createApp(t.services);
  judge = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, s) => {
      const url = new URL(req.url);
      seen.push({ path: url.pathname, headers: Object.fromEntries(SIGN_IN_HEADERS.filter((h) => req.headers.has(h)).map((h) => [h, req.headers.get(h)!])) });
      return app.fetch(req, s);
    },
  });
  // oauth2-proxy's answer for a signed-in user: 202 with the X-Auth-Request-* headers (user = the OpenID `sub`).
  auth = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) =>
      new URL(req.url).pathname === "/oauth2/auth"
        ? new Response(null, { status: 202, headers: { "X-Auth-Request-User": "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "X-Auth-Request-Email": "jane@campus.example", "X-Auth-Request-Groups": "students" } })
        : new Response("sign in", { status: 200 }),
  });
  const conf = join(work, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off;\nworker_processes 1;\npid ${join(work, "nginx.pid")};\nerror_log ${join(work, "error.log")} warn;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n  client_body_temp_path ${work}/body;\n  proxy_temp_path ${work}/proxy;\n  fastcgi_temp_path ${work}/fastcgi;\n  uwsgi_temp_path ${work}/uwsgi;\n  scgi_temp_path ${work}/scgi;\n${documentedServerBlock(auth.port!, judge.port!)}\n}\n`,
  );
  nginx = Bun.spawn([NGINX, "-c", conf, "-p", work], { stdout: "pipe", stderr: "pipe" });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${PROXY_PORT}/api/health`);
      break;
    } catch {
      if (Date.now() > deadline || nginx.exitCode !== null) throw new Error(`nginx did not start: ${existsSync(join(work, "error.log")) ? readFileSync(join(work, "error.log"), "utf8") : ""}`);
      await Bun.sleep(100);
    }
  }
}, 30_000);

afterAll(async () => {
  nginx?.kill("SIGTERM");
  await nginx?.exited;
  judge?.stop(true);
  auth?.stop(true);
  t?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** The client's own copy of every header the judge reads (and a forged forwarded address). */
const FORGED = {
  "X-Remote-User": "admin-victim",
  "X-Remote-Email": "dean@campus.example",
  "X-Remote-Given": "Mallory",
  "X-Remote-Family": "Forger",
  "X-Remote-Groups": "judge-admins",
  "X-Forwarded-For": "127.0.0.1",
};

describe.skipIf(!NGINX)("the documented nginx setup, through a real nginx", () => {
  test("sign-in: the account is keyed by the proxy's user (the OpenID sub) with the proxy's email and groups; none of the client's copies arrive", async () => {
    seen.length = 0;
    const res = await fetch(`http://127.0.0.1:${PROXY_PORT}/api/auth/header?returnTo=/problems`, { headers: FORGED, redirect: "manual" });
    expect(res.status).toBe(302);
    const arrived = seen.find((s) => s.path === "/api/auth/header")!;
    expect(arrived.headers).toEqual({ "x-remote-user": "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "x-remote-email": "jane@campus.example", "x-remote-groups": "students" });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("oj_session="))!.split(";")[0]!;
    const me = (await (await fetch(`http://127.0.0.1:${PROXY_PORT}/api/auth/me`, { headers: { cookie } })).json()) as { user: { email: string; firstName: string; siteRole?: string } };
    expect(me.user.email).toBe("jane@campus.example");
    expect(me.user.firstName).not.toBe("Mallory");
    expect(JSON.stringify(me)).not.toContain("judge-admins");
    const rows = await t.services.db.all<{ subject: string }>("SELECT subject FROM external_identities WHERE provider = 'header'" as never);
    expect(rows.map((r) => r.subject)).toEqual(["f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]);
    const admins = await t.services.db.all<{ n: number }>("SELECT count(*) AS n FROM users WHERE site_role = 'admin'" as never);
    expect(admins[0]!.n).toBe(0);
  });

  test("every other path: the client's sign-in headers never reach the judge", async () => {
    seen.length = 0;
    for (const path of ["/api/health", "/api/auth/me", "/problems", "/api/auth/header/../me"]) {
      await fetch(`http://127.0.0.1:${PROXY_PORT}${path}`, { headers: FORGED, redirect: "manual" });
    }
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen.filter((x) => x.path !== "/api/auth/header")) expect({ path: s.path, headers: s.headers }).toEqual({ path: s.path, headers: {} });
  });
});

test.skipIf(!!NGINX)("nginx is not installed: the proxy tests are skipped (scripts/install.sh installs nginx-light for the tests)", () => {
  expect(NGINX).toBeNull();
});
