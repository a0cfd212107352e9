/** docs/permissions.md shows exactly the permission table the server enforces. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { permissionsTable } from "../src/courses/permissions.ts";
import { contestPermissionsTable } from "../src/contests/permissions.ts";

test("docs/permissions.md holds the table of src/courses/permissions.ts", () => {
  const doc = readFileSync(join(import.meta.dir, "..", "docs", "permissions.md"), "utf8");
  const inDoc = /<!-- permissions-table:start -->\n([\s\S]*?)\n<!-- permissions-table:end -->/.exec(doc)?.[1];
  expect(inDoc).toBe(permissionsTable());
});

test("docs/permissions.md holds the contest table of src/contests/permissions.ts", () => {
  const doc = readFileSync(join(import.meta.dir, "..", "docs", "permissions.md"), "utf8");
  const inDoc = /<!-- contest-permissions-table:start -->\n([\s\S]*?)\n<!-- contest-permissions-table:end -->/.exec(doc)?.[1];
  expect(inDoc).toBe(contestPermissionsTable());
});
