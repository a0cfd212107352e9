/**
 * REST door for problems: list (or one bank page with its parameters), tags, create (201), byId, statements (other languages), update, delete (the documented /api/problems routes).
 * Body fields `_id`, `user`, `__v` and unknown keys are stripped by the
 * procedures' zod inputs; the path's id always wins over a body `id`.
 */
import { Hono, type Context } from "hono";
import { call, jsonBody, type AppEnv } from "./call.ts";
import { sendJson } from "../lib/json.ts";

/**
 * The import's procedure input from the request: the zip as base64 (`package`)
 * and the options. Nothing readable gives no `package`, which the procedure
 * answers (after the session check: 401 first) with `package: Required`.
 */
async function packageBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = c.req.header("content-type") ?? "";
  const options = (get: (k: string) => unknown) => {
    const out: Record<string, unknown> = {};
    for (const k of ["courseId", "difficulty", "pythonImplementation"]) {
      const v = get(k);
      if (typeof v === "string" && v !== "") out[k] = v;
    }
    return out;
  };
  if (type.startsWith("multipart/form-data")) {
    const form = await c.req.formData().catch(() => null);
    const file = form?.get("package");
    const opts = form ? options((k) => form.get(k)) : {};
    return file instanceof Blob ? { package: Buffer.from(await file.arrayBuffer()).toString("base64"), ...opts } : opts;
  }
  if (type.startsWith("application/zip") || type.startsWith("application/octet-stream")) {
    return { package: Buffer.from(await c.req.arrayBuffer()).toString("base64"), ...options((k) => c.req.query(k)) };
  }
  return {};
}

/** The query parameters that ask for a bank page instead of the spec's whole list. */
const BANK_PARAMS = ["q", "tag", "difficulty", "status", "source", "sort", "cursor", "limit"] as const;

/** The bank's parameters present in the query (unvalidated: the procedure's zod input names a bad one), or null when none is. */
function bankParams(query: Record<string, string>): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const k of BANK_PARAMS) if (query[k] !== undefined) out[k] = query[k];
  return Object.keys(out).length ? out : null;
}

// Bodies are unvalidated JSON: `as never` hands them to the procedure, whose zod input validates them.

export const problemsRoutes = new Hono<AppEnv>()
  // sendJson: the shared public list is serialised once per change, not per request (src/lib/json.ts).
  // With any of the bank's parameters: one page `{ problems, nextCursor, total, ... }` (src/problems/bank);
  // without: every problem, as the spec's client reads it.
  .get("/", async (c) => {
    const params = bankParams(c.req.query());
    if (params) return c.json(await call(c, (api) => api.problems.bank(params as never)));
    return sendJson(c, await call(c, (api) => api.problems.list()));
  })
  .get("/tags", async (c) => c.json(await call(c, (api) => api.problems.tags())))
  .post("/", async (c) => c.json(await call(c, async (api) => api.problems.create((await jsonBody(c)) as never)), 201))
  // A problem package: multipart/form-data with the zip in `package` (plus optional `courseId`,
  // `difficulty`, `pythonImplementation`), or the zip itself as the body (application/zip, options in the query).
  .post("/import", async (c) => c.json(await call(c, async (api) => api.problems.importPackage((await packageBody(c)) as never)), 201))
  .get("/:id", async (c) => c.json(await call(c, (api) => api.problems.byId({ id: c.req.param("id") }))))
  .get("/:id/statements", async (c) => c.json(await call(c, (api) => api.problems.statements({ id: c.req.param("id") }))))
  .post("/:id/verify", async (c) => c.json(await call(c, (api) => api.problems.verify({ id: c.req.param("id") })), 202))
  .get("/:id/verify", async (c) => c.json(await call(c, (api) => api.problems.verifyStatus({ id: c.req.param("id") }))))
  // A statement image: its own content type, no script even for an SVG opened on its own.
  .get("/:id/assets/:name", async (c) => {
    const a = await call(c, (api) => api.problems.asset({ id: c.req.param("id"), name: c.req.param("name") }));
    return c.body(Buffer.from(a.base64, "base64"), 200, {
      "content-type": a.contentType,
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=300",
    });
  })
  .post("/:id/rejudge", async (c) => c.json(await call(c, (api) => api.problems.rejudge({ id: c.req.param("id") }))))
  // The problem as a Kattis / ICPC package (owner or course staff): the zip itself.
  .get("/:id/package", async (c) => {
    const out = await call(c, (api) => api.problems.exportPackage({ id: c.req.param("id") }));
    return c.body(Buffer.from(out.zipBase64, "base64"), 200, {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${out.filename}"`,
      ...(out.notes.length ? { "x-package-notes": encodeURIComponent(out.notes.join("; ")) } : {}),
    });
  })
  .put("/:id", async (c) =>
    c.json(await call(c, async (api) => api.problems.update({ ...(await jsonBody(c)), id: c.req.param("id") } as never))),
  )
  .delete("/:id", async (c) => c.json(await call(c, (api) => api.problems.delete({ id: c.req.param("id") }))));
