/** Hints-only reviews: code is taken out, words and quoted output stay. */
import { expect, test } from "bun:test";
import { CODE_REMOVED, stripCode } from "./strip-code.ts";

test("fenced code goes, quoted output stays; inline statements go, names stay", () => {
  const review = [
    "Your loop is quadratic.",
    "```cpp",
    "for (int i = 0; i < n; i++) sum += a[i];",
    "```",
    "Expected:",
    "```text",
    "42",
    "```",
    "Use `cin.tie(nullptr);` and avoid `endl`; `Scanner` is slow, call `solve(n)` once.",
    "~~~",
    "print(x)",
    "~~~",
  ].join("\n");
  const out = stripCode(review);
  expect(out).not.toContain("sum += a[i]");
  expect(out).not.toContain("cin.tie");
  expect(out).not.toContain("print(x)");
  expect(out).not.toContain("solve(n)");
  expect(out).toContain("```text\n42\n```");
  expect(out).toContain("`endl`");
  expect(out).toContain("`Scanner`");
  expect(out.split(CODE_REMOVED).length - 1).toBe(4);
});

test("an unterminated fence removes the rest, never leaks it", () => {
  expect(stripCode("Try:\n```python\nprint(1)\nprint(2)")).toBe(`Try:\n${CODE_REMOVED}`);
});
