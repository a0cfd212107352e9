/** The problem bank's address filters and tag names (pure parts of the list; the page itself is in e2e/problem-bank.test.ts). */
import { describe, expect, test } from "bun:test";
import { i18n } from "@lingui/core";
import { bankInput, filtersFromParams, isFiltered, paramsWithFilters } from "./bank-filters.ts";
import { isBaseTag, tagName } from "./tag-name.ts";
import { tags } from "../i18n/catalog/tags/index.ts";

describe("filters in the address", () => {
  test("read back what they wrote, keeping other parameters (lang)", () => {
    const f = { q: "shortest path", tag: "graphs", difficulty: "hard", status: "solved", source: "public", sort: "acceptance" } as const;
    const p = paramsWithFilters(new URLSearchParams("lang=de"), f);
    expect(p.get("lang")).toBe("de");
    expect(filtersFromParams(p)).toEqual(f);
  });
  test("defaults and empty values leave the address plain", () => {
    const p = paramsWithFilters(new URLSearchParams("q=x&sort=title"), { q: "  ", tag: null, difficulty: null, status: null, source: null, sort: "newest" });
    expect(p.toString()).toBe("");
  });
  test("unknown values read as no filter", () => {
    const f = filtersFromParams(new URLSearchParams("tag=Not%20A%20Slug&difficulty=extreme&status=x&source=y&sort=z"));
    expect(f).toEqual({ q: "", tag: null, difficulty: null, status: null, source: null, sort: "newest" });
    expect(isFiltered(f)).toBe(false);
  });
  test("the server's input asks for one page of 50 and only the filters set", () => {
    expect(bankInput(filtersFromParams(new URLSearchParams("q=%20graph%20&tag=dp")))).toEqual({ q: "graph", tag: "dp", sort: "newest", limit: 50 });
  });
});

describe("tag names", () => {
  test("a base slug reads the catalogue; any other tag its stored name", async () => {
    await tags.load("de");
    i18n.activate("de");
    try {
      const t = (key: string) => i18n._(`tags.${key}`);
      expect(isBaseTag("dynamic-programming")).toBe(true);
      expect(tagName({ slug: "dynamic-programming", name: "Dynamic programming" }, t)).toBe("Dynamische Programmierung");
      expect(tagName({ slug: "heavy-light", name: "Heavy-light decomposition" }, t)).toBe("Heavy-light decomposition");
      expect(isBaseTag("toString")).toBe(false);
    } finally {
      i18n.activate("en");
    }
  });
});
