/** encodeJson: byte-for-byte JSON.stringify, with shared values encoded once. */
import { expect, test } from "bun:test";
import { acceptsGzip, encodeJson, shareJson } from "./json.ts";

const decode = (body: string | Uint8Array) => (typeof body === "string" ? body : new TextDecoder().decode(body));

test("a shared array is encoded once: the same bytes object every time, equal to JSON.stringify", () => {
  const list = shareJson([{ _id: "a", title: "Ünïcode ✓", n: 1 }, { _id: "b", title: "quote \" and \\n", n: 2 }]);
  const first = encodeJson(list);
  expect(first).toBeInstanceOf(Uint8Array);
  expect(decode(first)).toBe(JSON.stringify(list));
  expect(encodeJson(list)).toBe(first);
});

test("a new array mixing shared elements and per-caller copies equals JSON.stringify", () => {
  const list = shareJson([{ _id: "a" }, { _id: "b" }, { _id: "c" }]);
  const mixed = list.map((p) => (p._id === "b" ? { ...p, hiddenTestCases: [{ input: "1", expectedOutput: "2" }] } : p));
  expect(decode(encodeJson(mixed))).toBe(JSON.stringify(mixed));
  // The copy is not shared: the shared element's own text stays without hidden tests.
  expect(decode(encodeJson(list))).not.toContain("hiddenTestCases");
  // Holes, undefined and functions in a mixed array become null, as JSON.stringify does.
  const odd = [list[0], undefined, () => 1, 3];
  expect(decode(encodeJson(odd))).toBe(JSON.stringify(odd));
});

test("values that were never shared are plain JSON.stringify, computed each time", () => {
  const value = { a: [1, 2], b: "x" };
  expect(encodeJson(value)).toBe(JSON.stringify(value));
  value.b = "changed";
  expect(encodeJson(value)).toBe(JSON.stringify(value));
  expect(encodeJson([1, "two", null])).toBe('[1,"two",null]');
  expect(encodeJson("text")).toBe('"text"');
  expect(encodeJson(undefined)).toBe("null");
});

test("acceptsGzip reads Accept-Encoding with q-values", () => {
  expect(acceptsGzip("gzip, deflate, br")).toBe(true);
  expect(acceptsGzip("br;q=1.0, gzip;q=0.8, *;q=0.1")).toBe(true);
  expect(acceptsGzip("GZIP")).toBe(true);
  expect(acceptsGzip("*")).toBe(true);
  expect(acceptsGzip("gzip;q=0")).toBe(false);
  expect(acceptsGzip("gzip;q=0, *")).toBe(false);
  expect(acceptsGzip("identity")).toBe(false);
  expect(acceptsGzip("br, deflate")).toBe(false);
  expect(acceptsGzip("*;q=0")).toBe(false);
  expect(acceptsGzip("")).toBe(false);
  expect(acceptsGzip(undefined)).toBe(false);
});
