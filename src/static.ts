/**
 * Serves the built client (CLIENT_DIST) with SPA fallback: a GET for a path
 * that is not a file answers index.html so the client's router takes over,
 * with status 200 for an address the client has (client/src/routes.ts, the
 * list its router uses) and 404 for any other (the page then says so).
 * Hashed files under /assets/ are cached for a year; everything else,
 * index.html included, is revalidated on every load. The page's `<html lang dir>`
 * follows the request's Accept-Language (src/i18n/html.ts).
 */
import { statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { Context } from "hono";
import { isClientRoute } from "../client/src/routes.ts";
import { indexHtmlFor } from "./i18n/html.ts";

const PAGE_HEADERS = { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", vary: "Accept-Language" } as const;

/** The client's page for a route, in the request's language (src/i18n/html.ts). */
function pageResponse(c: Context, indexPath: string, pathname: string): Response {
  const { html } = indexHtmlFor(indexPath, c.req.header("accept-language"));
  return new Response(html, { status: pageStatus(pathname), headers: PAGE_HEADERS });
}

/** 200 for the client's own addresses, 404 for the rest (the same page answers both). */
function pageStatus(pathname: string): 200 | 404 {
  return isClientRoute(pathname) ? 200 : 404;
}

function fileAt(path: string): string | null {
  try {
    return statSync(path).isFile() ? path : null;
  } catch {
    return null;
  }
}

/**
 * @param distDir the client build directory (relative to the working directory or absolute).
 * @returns a Hono handler for GET/HEAD; answers 404 text when the client is not built.
 */
export function serveClient(distDir: string) {
  const root = resolve(distDir);
  return (c: Context): Response => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.text("Bad request path", 400);
    }
    const candidate = resolve(join(root, pathname));
    const inside = candidate === root || candidate.startsWith(root + sep);
    const direct = inside && !pathname.includes("\0") ? fileAt(candidate) : null;
    if (direct) {
      const immutable = pathname.startsWith("/assets/");
      return new Response(Bun.file(direct), {
        headers: { "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache" },
      });
    }
    // A missing file (a name with an extension) is a 404, not the page: a stale
    // asset URL must fail loudly rather than load HTML as a script.
    if (/\.[^/]+$/.test(pathname)) return c.text("Not found", 404);
    const index = fileAt(join(root, "index.html"));
    if (!index) {
      return c.text(`The client is not built (${join(distDir, "index.html")} is missing): run \`bun run build\`.`, 404);
    }
    return pageResponse(c, index, pathname);
  };
}

/** URL path (`/index.html`, `/assets/x.js`) → a file inside the single binary; set by its entry (src/release/). */
let embedded: ReadonlyMap<string, string> | null = null;

/** Serves the client from files embedded in the single binary instead of CLIENT_DIST. */
export function useEmbeddedClient(files: ReadonlyMap<string, string>): void {
  embedded = files;
}

/** The client handler: the embedded files when running as the single binary, else CLIENT_DIST. */
export function clientHandler(distDir: string) {
  if (!embedded) return serveClient(distDir);
  const files = embedded;
  return (c: Context): Response => {
    const pathname = new URL(c.req.url).pathname;
    const file = files.get(pathname);
    if (file) {
      return new Response(Bun.file(file), {
        headers: { "cache-control": pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache" },
      });
    }
    if (/\.[^/]+$/.test(pathname)) return c.text("Not found", 404);
    return pageResponse(c, files.get("/index.html")!, pathname);
  };
}
