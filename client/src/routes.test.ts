/** client/src/routes.ts is the router's list: every <Route path> in App.tsx is in it and it has no other. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_ROUTES, isClientRoute } from "./routes.ts";

test("the shared route list equals App.tsx's routes", () => {
  const app = readFileSync(join(import.meta.dir, "App.tsx"), "utf8");
  const paths = [...app.matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1]!);
  expect([...paths].sort()).toEqual([...CLIENT_ROUTES].sort());
});

test("isClientRoute matches as wouter does: one segment per parameter, an optional trailing slash", () => {
  expect(isClientRoute("/")).toBe(true);
  expect(isClientRoute("/solve/abc")).toBe(true);
  expect(isClientRoute("/solve/abc/")).toBe(true);
  expect(isClientRoute("/solve")).toBe(false);
  expect(isClientRoute("/solve/a/b")).toBe(false);
  expect(isClientRoute("/similarity/r1/pairs/p2")).toBe(true);
  expect(isClientRoute("/nothing")).toBe(false);
});
