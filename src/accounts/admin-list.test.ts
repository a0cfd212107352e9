/**
 * The admin's account list through GET /api/admin/accounts over a real libSQL file: a page at a time by e-mail
 * address (cursor), a search over address and name, the system account and erased ones never listed, bad
 * parameters a 400 naming the field, and the CLI's `list` still printing every account.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../app.ts";
import { setAccountByEmail } from "./admin.ts";
import { createTestServices, type TestServices } from "../../tests/services.ts";
import { request, signUp } from "../../tests/api.ts";

let t: TestServices;
let app: ReturnType<typeof createApp>;
let token: string;

beforeAll(async () => {
  t = await createTestServices();
  app = createApp(t.services);
  const admin = await signUp(app, { firstName: "Ada", email: "ada@uni.example" });
  await setAccountByEmail(t.services.db, admin.email, { siteRole: "admin" });
  token = admin.token;
  for (let i = 0; i < 11; i++) await signUp(app, { firstName: i % 2 ? "Grace" : "Alan", lastName: `Student ${i}`, email: `s${String(i).padStart(2, "0")}@uni.example` });
});

afterAll(() => t?.cleanup());

const list = (query: string) => request(app, "GET", `/api/admin/accounts${query}`, { token });

test("pages of `limit` by e-mail address, each after the cursor, every account once", async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await list(`?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(12);
    expect(r.body.accounts.length).toBeLessThanOrEqual(5);
    seen.push(...r.body.accounts.map((a: { email: string }) => a.email));
    cursor = r.body.nextCursor;
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(seen).toEqual([...seen].sort());
  expect(new Set(seen).size).toBe(12);
  expect(seen[0]).toBe("ada@uni.example");
});

test("a search matches part of the address or the name, case-insensitively; % and _ are plain characters", async () => {
  const grace = await list("?q=GRACE");
  expect(grace.body.total).toBe(5);
  expect(grace.body.accounts.every((a: { firstName: string }) => a.firstName === "Grace")).toBe(true);
  expect((await list("?q=s03@")).body.accounts.map((a: { email: string }) => a.email)).toEqual(["s03@uni.example"]);
  expect((await list("?q=student%2010")).body.total).toBe(1);
  expect((await list("?q=%25")).body.total).toBe(0);
  expect((await list("?q=s_0")).body.total).toBe(0);
});

test("bad parameters name the field; only site admins list", async () => {
  expect([(await list("?limit=0")).status, (await list("?limit=0")).body.field]).toEqual([400, "limit"]);
  expect((await list("?limit=abc")).body.field).toBe("limit");
  expect((await list(`?q=${"x".repeat(201)}`)).body.field).toBe("q");
  const student = await signUp(app, { email: "nosy@uni.example" });
  expect((await request(app, "GET", "/api/admin/accounts", { token: student.token })).status).toBe(403);
});
