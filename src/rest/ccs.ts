/**
 * The ICPC Contest API door, base URL /api/ccs/, GET only, in the release CCS_API_VERSION names
 * (ccs-specs 2023-06 by default, or 2026-01; src/contests/ccs/release.ts says what differs):
 * - `/` (API information), `/contests`, `/contests/<id>`, and under it `state`, `access`, `account`,
 *   `accounts[/<id>]` (jury), `scoreboard` (a `group_id` is a 404: there are no groups), `event-feed`
 *   (NDJSON; `since_token`, or `since_id` as clients and the spec's checker still send it; `stream=false`),
 *   `submissions/<id>/files` (zip), and each collection: `judgement-types`, `languages`, `problems`,
 *   `groups`, `organizations`, `teams`, `submissions`, `judgements`, `runs`, `clarifications`,
 *   `awards`, as `<collection>` (filtered by `<property>_id=` arguments) and `<collection>/<id>`.
 * - Who: HTTP Basic with an account's email and password (what ICPC tools send), or the session's
 *   bearer token or cookie; without either, the public view (read-only, frozen). Who sees what is
 *   src/contests/ccs/api.ts'.
 * - Errors: `{ code, message }` with the HTTP status as `code` (the spec's shape); 401 carries
 *   `WWW-Authenticate: Basic`.
 *
 * A verified Basic credential is remembered for BASIC_CACHE_MS (keyed by a hash of the header), so
 * a client polling endpoints does not cost an argon2 verify per request; failures are never
 * remembered and count against the sign-in limits (src/accounts/login.ts).
 */
import { examRequestFrom, runInExamScope } from "../courses/exam/gate.ts";
import { Hono, type Context as HonoContext } from "hono";
import { basicAuth } from "hono/basic-auth";
import { HTTPException } from "hono/http-exception";
import { createHash } from "node:crypto";
import { authenticate } from "../accounts/login.ts";
import type { SessionUser } from "../accounts/user.ts";
import { clientIp, createContext } from "../context.ts";
import {
  accessOf,
  accountOf,
  accountsOf,
  apiInfo,
  collectionOf,
  contestIn,
  contestsFor,
  filtered,
  isCollection,
  objectOf,
  openContest,
  scoreboardOf,
  stateNow,
  submissionFiles,
} from "../contests/ccs/api.ts";
import { eventFeed, KEEP_ALIVE_MS, sinceOf } from "../contests/ccs/event-feed.ts";
import type { CcsRelease } from "../contests/ccs/release.ts";
import type { ContestDeps } from "../contests/contests.ts";
import { contestDeps } from "../trpc/routers/contests.ts";
import { errorResponse, type AppEnv } from "./call.ts";
import { AppError } from "../errors.ts";

type CcsEnv = { Variables: AppEnv["Variables"] & { basicUser?: SessionUser } };

/** How long a verified Basic credential is remembered, ms. */
export const BASIC_CACHE_MS = 60_000;
const BASIC_CACHE_MAX = 2000;
const verified = new Map<string, { user: SessionUser; untilMs: number }>();

const keyOf = (header: string): string => createHash("sha256").update(header).digest("hex");

/** The release this server answers in (CCS_API_VERSION). */
const releaseOf = (c: HonoContext): CcsRelease => c.get("services").config.CCS_API_VERSION;

/** The request's contest deps and caller (the Basic account when one signed in, else the session's user), and the release. */
async function who(c: HonoContext<CcsEnv>): Promise<{ deps: ContestDeps; user: SessionUser | null; release: CcsRelease }> {
  const ctx = await createContext(c.get("services"), c);
  const user = c.get("basicUser") ?? ctx.user;
  return { deps: contestDeps({ ...ctx, user }), user, release: releaseOf(c) };
}

/** The contest of the path's `cid` as this request reads it. */
async function contestFor(c: HonoContext<CcsEnv>) {
  const { deps, user, release } = await who(c);
  return { deps, caller: await openContest(deps, user, c.req.param("cid")!, release) };
}

const basic = basicAuth({
  realm: "Contest API",
  verifyUser: async (email, password, c) => {
    const header = c.req.header("authorization") ?? "";
    const key = keyOf(header);
    const hit = verified.get(key);
    if (hit && hit.untilMs > Date.now()) {
      c.set("basicUser", hit.user);
      return true;
    }
    const services = c.get("services");
    try {
      const user = await authenticate({ db: services.db, limiters: services.limiters }, clientIp(c, services.config), email, password);
      if (verified.size >= BASIC_CACHE_MAX) verified.clear();
      verified.set(key, { user, untilMs: Date.now() + BASIC_CACHE_MS });
      c.set("basicUser", user);
      return true;
    } catch (err) {
      if (err instanceof AppError && err.kind === "INVALID_CREDENTIALS") return false;
      throw err;
    }
  },
});

const json = (c: HonoContext<CcsEnv>, body: unknown) => c.json(body as object, 200);

/** `GET /api/ccs/` (and `/api/ccs`): the API information object; public. The app mounts it for the trailing slash too. */
export const ccsInfo = (c: HonoContext) => c.json(apiInfo(releaseOf(c), "CodeArena"), 200, { "access-control-allow-origin": "*" });

export const ccsRoutes = new Hono<CcsEnv>()
  .use("*", async (c, next) => {
    c.header("Access-Control-Allow-Origin", "*");
    if (/^\s*basic\s/i.test(c.req.header("authorization") ?? "")) return basic(c, next);
    return next();
  })
  // A contest's exam access rules (address ranges, SEB) hold here as on every other door (src/courses/exam/gate.ts).
  .use("*", async (c, next) => {
    const ctx = await createContext(c.get("services"), c);
    return runInExamScope(examRequestFrom({ ...ctx, user: c.get("basicUser") ?? ctx.user }, `ccs ${c.req.path}`), next);
  })
  .get("/", ccsInfo)
  .get("/contests", async (c) => {
    const { deps, user, release } = await who(c);
    return json(c, await contestsFor(deps, user, release));
  })
  .get("/contests/:cid", async (c) => {
    const { caller } = await contestFor(c);
    return json(c, contestIn(caller.release, caller.contest));
  })
  .get("/contests/:cid/state", async (c) => {
    const { deps, caller } = await contestFor(c);
    return json(c, stateNow(deps, caller));
  })
  .get("/contests/:cid/access", async (c) => {
    const { caller } = await contestFor(c);
    return json(c, accessOf(caller));
  })
  .get("/contests/:cid/account", async (c) => {
    const { caller } = await contestFor(c);
    return json(c, accountOf(caller));
  })
  .get("/contests/:cid/accounts", async (c) => {
    const { deps, caller } = await contestFor(c);
    return json(c, filtered(await accountsOf(deps, caller), c.req.query() as Record<string, string>));
  })
  .get("/contests/:cid/accounts/:id", async (c) => {
    const { deps, caller } = await contestFor(c);
    const found = (await accountsOf(deps, caller)).find((a) => a.id === c.req.param("id"));
    if (!found) throw new AppError("CCS_OBJECT_NOT_FOUND", { message: `No account with id ${c.req.param("id")}` });
    return json(c, found);
  })
  .get("/contests/:cid/scoreboard", async (c) => {
    const { deps, caller } = await contestFor(c);
    // The spec's group scoreboards: a group the groups endpoint does not list is a 4xx, and it lists none.
    const group = c.req.query("group_id");
    if (group !== undefined) throw new AppError("CCS_OBJECT_NOT_FOUND", { field: "group_id", message: `group_id: no group with id ${JSON.stringify(group.slice(0, 40))}` });
    return json(c, await scoreboardOf(deps, caller));
  })
  .get("/contests/:cid/event-feed", async (c) => {
    const { deps, caller } = await contestFor(c);
    const token = c.req.query("since_token");
    const since = token !== undefined ? await sinceOf(deps, caller, token, "since_token") : await sinceOf(deps, caller, c.req.query("since_id"), "since_id");
    const signal = c.req.raw.signal;
    const feed = eventFeed(deps, caller, since, { follow: c.req.query("stream") !== "false", keepAliveMs: KEEP_ALIVE_MS, signal });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await feed.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await feed.return(undefined);
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "application/x-ndjson", "cache-control": "no-store", "access-control-allow-origin": "*" } });
  })
  .get("/contests/:cid/submissions/:id/files", async (c) => {
    const { deps, caller } = await contestFor(c);
    const zip = await submissionFiles(deps, caller, c.req.param("id"));
    return c.body(zip as Uint8Array<ArrayBuffer>, 200, { "content-type": "application/zip", "cache-control": "private, max-age=3600" });
  })
  .get("/contests/:cid/:type", async (c) => {
    const type = c.req.param("type");
    if (!isCollection(type)) throw new AppError("CCS_OBJECT_NOT_FOUND", { message: `No endpoint ${type}` });
    const { deps, caller } = await contestFor(c);
    return json(c, filtered(await collectionOf(deps, caller, type), c.req.query() as Record<string, string>));
  })
  .get("/contests/:cid/:type/:id", async (c) => {
    const type = c.req.param("type");
    if (!isCollection(type)) throw new AppError("CCS_OBJECT_NOT_FOUND", { message: `No endpoint ${type}` });
    const { deps, caller } = await contestFor(c);
    return json(c, await objectOf(deps, caller, type, c.req.param("id")));
  })
  .all("*", () => {
    throw new AppError("CCS_OBJECT_NOT_FOUND", { message: "No such endpoint" });
  })
  // The spec's error body: `{ code: <HTTP status>, message }`.
  .onError(async (err, c) => {
    const res = errorResponse(err, c.get("services").log);
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    // Hono's Basic middleware refuses a wrong credential with a bare 401.
    if (err instanceof HTTPException && err.status === 401) body.message = "Wrong email or password";
    const headers: Record<string, string> = { "access-control-allow-origin": "*" };
    const retry = res.headers.get("retry-after");
    if (retry) headers["retry-after"] = retry;
    if (res.status === 401) headers["www-authenticate"] = 'Basic realm="Contest API"';
    return c.json({ code: res.status, message: body.message ?? "Request failed" }, res.status as 400, headers);
  });
