/**
 * Test helper: drives the real Hono app through `app.request()` (no server),
 * with JSON bodies and either a Bearer token or a cookie jar.
 */
import type { Hono } from "hono";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text (sent as is, with content-type application/json unless `headers` say otherwise). */
  rawBody?: string;
  token?: string;
  /** Cookie header value, e.g. `oj_session=...`. */
  cookie?: string;
  headers?: Record<string, string>;
  /** The socket peer's address as Bun.serve would give it (default: none known, as app.request gives). */
  peer?: string;
}

/** Sends one request to the app and parses a JSON answer (text otherwise). */
export async function request<T = any>(
  app: Hono<any>,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const env = opts.peer ? { requestIP: () => ({ address: opts.peer! }) } : undefined;
  const res = await app.request(path, { method, headers, body }, env);
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("application/json")) parsed = text ? JSON.parse(text) : null;
  return { status: res.status, headers: res.headers, body: parsed as T };
}

let counter = 0;

/** Registers a fresh user and signs in; returns the token, the user and the session cookie. */
export async function signUp(
  app: Hono<any>,
  overrides: Partial<{ firstName: string; lastName: string; email: string; password: string }> = {},
): Promise<{ token: string; user: { id: string; firstName: string; lastName: string; email: string }; cookie: string; password: string; email: string }> {
  counter++;
  const account = {
    firstName: "Ada",
    lastName: "Lovelace",
    email: `user${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    password: "correct horse battery",
    ...overrides,
  };
  const reg = await request(app, "POST", "/api/auth/register", { body: account });
  if (reg.status !== 200) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await request(app, "POST", "/api/auth/login", { body: { email: account.email, password: account.password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  const setCookie = login.headers.getSetCookie().find((c) => c.startsWith("oj_session="));
  if (!setCookie) throw new Error("login set no session cookie");
  return {
    token: login.body.token,
    user: login.body.user,
    cookie: setCookie.split(";")[0]!,
    password: account.password,
    email: account.email,
  };
}

/** A valid problem body for POST /api/problems (the shared fixture, tests/fixtures/problem.ts). */
export { problemBody } from "./fixtures/problem.ts";
