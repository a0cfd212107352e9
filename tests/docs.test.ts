/** The README's promises that CI and a reader rely on: exactly two commands, CI runs the test one verbatim, links resolve. */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

test("the set-up section gives exactly two commands, and .ci/run runs the test command verbatim", () => {
  const start = readme.indexOf("## Two commands");
  expect(start).toBeGreaterThanOrEqual(0);
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
  expect(blocks).toEqual(["bash scripts/start.sh", "bash scripts/test.sh"]);
  expect(section).toContain("http://localhost:3000");
  const ci = readFileSync(join(root, ".ci", "run"), "utf8").trim().split("\n");
  expect(ci.at(-1)).toBe(blocks[1]!);
});

test("every relative link in the README points at a file that exists, and anchors at a heading", () => {
  const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
  expect(links).toContain("docs/sandbox.md#installing-isolate-for-production");
  expect(links.some((l) => l.startsWith("docs/screenshots/"))).toBe(true);
  for (const link of links) {
    const [path, anchor] = link.split("#") as [string, string | undefined];
    expect([link, existsSync(join(root, path))]).toEqual([link, true]);
    if (anchor) {
      const headings = readFileSync(join(root, path), "utf8")
        .split("\n")
        .filter((l) => l.startsWith("#"))
        .map((l) => l.replace(/^#+\s*/, "").toLowerCase().replace(/[^a-z0-9 -]/g, "").replace(/ /g, "-"));
      expect([link, headings.includes(anchor)]).toEqual([link, true]);
    }
  }
});
