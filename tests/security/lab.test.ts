/**
 * A computer lab works (review item 8), against the real server process (`bun src/server.ts`):
 * with DEFAULT settings (no rate-limit setting in its environment) 300 seats behind one address
 * sign up and sign in, a fifth of them after one mistyped password; a password-guessing loop on one
 * account is stopped after the free failures (429 with Retry-After, even for the right password),
 * while the lab's other accounts still sign in. A second server behind a trusted proxy, with small
 * limits set, shows the settings are read: the sign-up limit is per forwarded address, and guesses
 * spread over many addresses are stopped all the same (the bound is per account). A bad setting
 * stops the server with a line naming it.
 *
 * What it measured is printed (wall and the server's CPU time per phase); the assertion on time is
 * the server's CPU, not the wall clock: the lab's password hashing (argon2id, 64 MiB, t=2: about
 * 0.25 s of CPU each here) must fit in five minutes of one core.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { refusedStart, startServerProcess, type ServerProcess } from "../server-process.ts";

const SEATS = 300;
/** Students signing in at the same moment (browsers in flight together). */
const CONCURRENCY = 16;
/** Linux clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's utime and stime. */
const CLOCK_TICKS_PER_S = 100;

type Server = ServerProcess;
const servers: Server[] = [];
/** Box ids 5304-5315 are this file's, four per server (no judging happens here: JUDGE_IN_PROCESS=false). */
const LAB_ENV = { SANDBOX: "isolate", JUDGE_IN_PROCESS: "false", SESSION_SECRET: "lab-test-secret-0123456789abcdef0123456789" };

/** Starts src/server.ts with only the environment a deployment must give, plus `env`. */
async function start(port: number, boxStart: number, env: Record<string, string>): Promise<Server> {
  const server = await startServerProcess({ name: "h5-lab", port, boxIdStart: boxStart, boxIdCount: 2, env: { ...LAB_ENV, ...env } });
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const s of servers) {
    await s.stop();
    await s.cleanup();
  }
});

/** The process's CPU time so far (user + system), ms. */
function cpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: state is 3rd, utime 14th and stime 15th of the whole line.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** Runs `fn(0..n-1)` with at most `concurrency` in flight; results in index order. */
async function pool<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

const seat = (i: number) => ({ firstName: "Seat", lastName: String(i), email: `seat${i}@lab.example.edu`, password: `seat-${i}-password` });
const count = (xs: number[], status: number) => xs.filter((x) => x === status).length;

describe("default settings: a 300-seat lab behind one address", () => {
  let lab: Server;
  beforeAll(async () => {
    lab = await start(3610, 5304, {});
  }, 90_000);

  test(
    "300 accounts sign up and sign in from one address (60 after a typo); the server's CPU for it stays under five minutes",
    async () => {
      const cpu0 = cpuMs(lab.proc.pid);
      const t0 = performance.now();
      const signUps = await pool(SEATS, CONCURRENCY, async (i) => (await post(lab.url, "/api/auth/register", seat(i))).status);
      const cpu1 = cpuMs(lab.proc.pid);
      const t1 = performance.now();
      const typos: number[] = [];
      const signIns = await pool(SEATS, CONCURRENCY, async (i) => {
        const { email, password } = seat(i);
        if (i % 5 === 0) typos.push((await post(lab.url, "/api/auth/login", { email, password: `${password}x` })).status);
        const res = await post(lab.url, "/api/auth/login", { email, password });
        return res.status;
      });
      const cpu2 = cpuMs(lab.proc.pid);
      const t2 = performance.now();
      console.log(
        `lab: ${SEATS} sign-ups in ${((t1 - t0) / 1000).toFixed(1)} s wall, ${((cpu1 - cpu0) / 1000).toFixed(1)} s server CPU; ` +
          `${SEATS} sign-ins (+${typos.length} typos) in ${((t2 - t1) / 1000).toFixed(1)} s wall, ${((cpu2 - cpu1) / 1000).toFixed(1)} s server CPU; ` +
          `${CONCURRENCY} in flight`,
      );
      expect(count(signUps, 200)).toBe(SEATS);
      expect(typos).toEqual(Array(SEATS / 5).fill(401));
      expect(count(signIns, 200)).toBe(SEATS);
      // The work itself (argon2id per sign-up and per sign-in) fits in five minutes of one core.
      expect(cpu2 - cpu0).toBeLessThan(5 * 60_000);
      // A signed-in seat is signed in.
      const login = (await (await post(lab.url, "/api/auth/login", { email: seat(7).email, password: seat(7).password })).json()) as { token: string };
      expect((await fetch(`${lab.url}/api/auth/me`, { headers: { authorization: `Bearer ${login.token}` } })).status).toBe(200);
    },
    20 * 60_000,
  );

  test("a password-guessing loop on one account is stopped after 5 failures, even for the right password; the lab's other seats still sign in", async () => {
    const target = seat(1);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 30; i++) {
      last = await post(lab.url, "/api/auth/login", { email: target.email, password: `guess-${i}-password` });
      statuses.push(last.status);
    }
    // 5 free failures (SIGNIN_BACKOFF_AFTER_FAILURES), then the account waits 1 minute (SIGNIN_BACKOFF_FIRST);
    // a refused guess is not even checked, so the loop learns nothing more.
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
    const retryAfter = Number(last!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const right = await post(lab.url, "/api/auth/login", { email: target.email, password: target.password });
    expect(right.status).toBe(429);
    expect(((await right.json()) as { message: string }).message).toContain("for this account");
    // The lab's address is not blocked for anyone else.
    expect((await post(lab.url, "/api/auth/login", { email: seat(2).email, password: seat(2).password })).status).toBe(200);
  });
});

describe("settings are read: behind a trusted proxy, with small limits", () => {
  let proxied: Server;
  beforeAll(async () => {
    proxied = await start(3611, 5308, {
      TRUST_PROXY: "true",
      RATE_LIMIT_SIGNUP_PER_ADDRESS: "3/1h",
      SIGNIN_BACKOFF_AFTER_FAILURES: "3",
      SIGNIN_BACKOFF_FIRST: "10m",
    });
  }, 90_000);

  test("RATE_LIMIT_SIGNUP_PER_ADDRESS=3/1h: the 4th sign-up from one forwarded address is a 429 naming the setting; another address signs up", async () => {
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    for (let i = 0; i < 3; i++) expect((await post(proxied.url, "/api/auth/register", seat(100 + i), from("198.51.100.7"))).status).toBe(200);
    const refused = await post(proxied.url, "/api/auth/register", seat(103), from("198.51.100.7"));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
    const body = (await refused.json()) as { message: string };
    expect(body.message).toContain("3 accounts per hour");
    expect(body.message).toContain("RATE_LIMIT_SIGNUP_PER_ADDRESS");
    expect((await post(proxied.url, "/api/auth/register", seat(103), from("198.51.100.8"))).status).toBe(200);
  });

  test("guesses on one account spread over many addresses are stopped after SIGNIN_BACKOFF_AFTER_FAILURES=3, for 10 minutes", async () => {
    const victim = seat(103);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 20; i++) {
      last = await post(proxied.url, "/api/auth/login", { email: victim.email, password: `guess-${i}-password` }, { "x-forwarded-for": `203.0.113.${i + 1}` });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(17).fill(429)]);
    const retryAfter = Number(last!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // The right password from yet another address waits too.
    expect((await post(proxied.url, "/api/auth/login", { email: victim.email, password: victim.password }, { "x-forwarded-for": "192.0.2.50" })).status).toBe(429);
  });
});

test("a bad rate-limit setting stops the server with one line naming it", async () => {
  const { code, output: stderr } = await refusedStart({ name: "h5-lab-bad", port: 3612, boxIdStart: 5312, boxIdCount: 2, env: { RATE_LIMIT_SIGNUP_PER_ADDRESS: "600" } });
  expect(code).toBe(1);
  expect(stderr).toContain('RATE_LIMIT_SIGNUP_PER_ADDRESS: expected <count>/<window> such as 600/1h or 5/10m, got "600"');
});
