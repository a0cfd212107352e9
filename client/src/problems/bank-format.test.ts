import { describe, expect, test } from "bun:test";
import { formatCount, formatRate, matchRuns } from "./bank-format.ts";

describe("bank numbers", () => {
  test("counts group digits as the locale does", () => {
    expect(formatCount(12345, ["en"])).toBe("12,345");
    expect(formatCount(12345, ["de"])).toBe("12.345");
    expect(formatCount(12345, ["ar-u-nu-latn"])).toBe("12,345"); // Latin digits in Arabic (intlLocales)
  });
  test("rates are percentages in the locale's form, with a decimal below 10 %", () => {
    expect(formatRate(0.4213, ["en"])).toBe("42%");
    expect(formatRate(0.4213, ["de"])).toBe("42\u00a0%");
    expect(formatRate(0.045, ["en"])).toBe("4.5%");
    expect(formatRate(0, ["en"])).toBe("0%");
    expect(formatRate(1, ["en"])).toBe("100%");
  });
});

describe("matchRuns", () => {
  const text = "Find the shortest path in a graph";
  const join = (runs: ReturnType<typeof matchRuns>) => runs.map((r) => (r.marked ? `[${r.text}]` : r.text)).join("");
  test("marks each highlight and keeps every character once", () => {
    expect(join(matchRuns({ text, highlights: [[9, 17], [28, 33]] }))).toBe("Find the [shortest] path in a [graph]");
  });
  test("unordered, overlapping and out-of-range offsets are merged and clamped", () => {
    expect(join(matchRuns({ text, highlights: [[28, 99], [9, 13], [11, 17], [5, 5]] }))).toBe("Find the [shor][test] path in a [graph]");
    expect(join(matchRuns({ text: "abc", highlights: [[-4, 1]] }))).toBe("[a]bc");
  });
  test("no highlights: the text as one plain run", () => {
    expect(matchRuns({ text, highlights: [] })).toEqual([{ text, marked: false }]);
  });
});
