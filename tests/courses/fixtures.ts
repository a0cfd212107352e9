/**
 * Test support for courses: the real app over a real libSQL file, the real
 * sandbox (bwrap) judging in-process, and a clock the test sets (deadlines
 * without sleeps). `world()` makes a course with one account per role.
 */
import { join } from "node:path";
import type { Hono } from "hono";
import { createApp } from "../../src/app.ts";
import { setAccountByEmail } from "../../src/accounts/admin.ts";
import { createAiService } from "../../src/ai/service.ts";
import { JudgeService } from "../../src/judge/service.ts";
import type { SandboxSelection } from "../../src/context.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { problemBody, request, signUp } from "../api.ts";
import { judgeConfig, silentLog } from "../judge/fixtures.ts";

export interface Clock {
  (): number;
  set(iso: string | number): void;
  advance(ms: number): void;
}

/** A clock standing still at `start` until set or advanced. */
export function testClock(start = "2026-03-02T08:00:00Z"): Clock {
  let t = Date.parse(start);
  const clock = (() => t) as Clock;
  clock.set = (v) => (t = typeof v === "number" ? v : Date.parse(v));
  clock.advance = (ms) => (t += ms);
  return clock;
}

export interface CourseApp {
  app: Hono<any>;
  t: TestServices;
  judge: JudgeService | null;
  clock: Clock;
  close(): Promise<void>;
}

/** The app with a settable clock; judging in-process when a sandbox is given. */
export async function courseApp(opts: { sandbox?: SandboxSelection; boxIdOffset?: number; clock?: Clock } = {}): Promise<CourseApp> {
  const clock = opts.clock ?? testClock();
  const env = opts.sandbox
    ? Object.fromEntries(
        Object.entries(judgeConfig("file::memory:", {}, opts.boxIdOffset ?? 200)).filter(([k]) =>
          ["SANDBOX", "SANDBOX_ROOT", "ISOLATE_BOX_ID_START", "ISOLATE_BOX_ID_COUNT", "SANDBOX_POOL_SIZE"].includes(k),
        ).map(([k, v]) => [k, String(v)]),
      )
    : {};
  const t = await createTestServices({ env, clock, sandbox: opts.sandbox });
  let judge: JudgeService | null = null;
  if (opts.sandbox) {
    judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox: opts.sandbox, cacheDir: join(t.dir, "cache"), pollMs: 50, now: clock });
    t.services.judge = judge;
    await judge.start();
  }
  t.services.ai = createAiService({ config: t.config, db: t.services.db, log: silentLog, sandbox: opts.sandbox?.backend ?? null, now: clock });
  const app = createApp(t.services);
  return {
    app,
    t,
    judge,
    clock,
    async close() {
      await judge?.stop();
      t.cleanup();
    },
  };
}

export interface Person {
  token: string;
  id: string;
  email: string;
  cookie: string;
}

export interface World {
  admin: Person;
  owner: Person;
  instructor: Person;
  ta: Person;
  student: Person;
  student2: Person;
  outsider: Person;
  courseId: string;
  inviteCode: string;
}

async function person(app: Hono<any>, name: string): Promise<Person> {
  const p = await signUp(app, { firstName: name, lastName: "Test" });
  return { token: p.token, id: p.user.id, email: p.email, cookie: p.cookie };
}

/**
 * A course with an owner (allowed to create courses), an instructor and a TA
 * (added by the owner), two students (joined by code), an outsider and a site admin.
 */
export async function world(a: CourseApp, code = `CS${Math.floor(Math.random() * 1e6)}`): Promise<World> {
  const db = a.t.services.db;
  const [admin, owner, instructor, ta, student, student2, outsider] = await Promise.all(
    ["Admin", "Owner", "Instructor", "Ta", "Student", "Second", "Outsider"].map((n) => person(a.app, n)),
  );
  await setAccountByEmail(db, admin!.email, { siteRole: "admin" });
  await setAccountByEmail(db, owner!.email, { canCreateCourses: true });
  const created = await request(a.app, "POST", "/api/courses", { token: owner!.token, body: { title: "Algorithms", code, term: "Spring 2026" } });
  if (created.status !== 201) throw new Error(`create course: ${created.status} ${JSON.stringify(created.body)}`);
  const courseId = created.body.id as string;
  for (const [p, role] of [[instructor!, "instructor"], [ta!, "ta"]] as const) {
    const r = await request(a.app, "POST", `/api/courses/${courseId}/members`, { token: owner!.token, body: { email: p.email, role } });
    if (r.status !== 201) throw new Error(`add ${role}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  for (const s of [student!, student2!]) {
    const r = await request(a.app, "POST", "/api/courses/join", { token: s.token, body: { code: created.body.inviteCode } });
    if (r.status !== 200) throw new Error(`join: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return { admin: admin!, owner: owner!, instructor: instructor!, ta: ta!, student: student!, student2: student2!, outsider: outsider!, courseId, inviteCode: created.body.inviteCode };
}

/** A problem body: prints n + 1; three hidden tests with unique markers in their input. */
export function addOneProblem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return problemBody({
    outputFormat: "n + 1",
    constraints: "0 <= n <= 1000",
    hiddenTestCases: [
      { input: "5\n", expectedOutput: "6\n" },
      { input: "41\n", expectedOutput: "42\n" },
      { input: "999\n", expectedOutput: "1000\n" },
    ],
    ...overrides,
  });
}

export const PY_ADD_ONE = "print(int(input()) + 1)\n";
/** Right on the sample and on inputs below 100, wrong above: partial credit 2 of 3. */
export const PY_SMALL_ONLY = "n = int(input())\nprint(n + 1 if n < 100 else n)\n";
/** Wrong everywhere but the sample. */
export const PY_SAMPLE_ONLY = "n = int(input())\nprint(2 if n == 1 else 0)\n";

/** A tRPC query over HTTP (GET, batch of one), as the client sends it. @returns the data, or throws with the error body. */
export async function trpcQuery<T = any>(app: Hono<any>, token: string | null, path: string, input: unknown): Promise<{ status: number; data: T; error?: any }> {
  const url = `/trpc/${path}?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: input }))}`;
  const res = await request(app, "GET", url, token ? { token } : {});
  const item = (res.body as any[])?.[0];
  return { status: res.status, data: item?.result?.data, error: item?.error };
}

/** A tRPC mutation over HTTP (POST, batch of one). */
export async function trpcMutation<T = any>(app: Hono<any>, token: string | null, path: string, input: unknown): Promise<{ status: number; data: T; error?: any }> {
  const res = await request(app, "POST", `/trpc/${path}?batch=1`, { ...(token ? { token } : {}), body: { 0: input } });
  const item = (res.body as any[])?.[0];
  return { status: res.status, data: item?.result?.data, error: item?.error };
}
