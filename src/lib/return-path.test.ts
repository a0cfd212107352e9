import { describe, expect, test } from "bun:test";
import { DEFAULT_RETURN_PATH, RETURN_PATH_MAX_CHARS, returnPathOr, safeReturnPath } from "./return-path.ts";

describe("safeReturnPath", () => {
  test.each([
    ["/problems", "/problems"],
    ["/join/AB12CD", "/join/AB12CD"],
    ["/solve/42?lang=py&tab=history", "/solve/42?lang=py&tab=history"],
    ["/contests/7#scoreboard", "/contests/7#scoreboard"],
    ["/problems?q=two%20sum", "/problems?q=two%20sum"],
    ["/problems?q=na%C3%AFve", "/problems?q=na%C3%AFve"],
    ["/courses/3/../4", "/courses/4"],
    ["/account", "/account"],
    ["/assignments/12", "/assignments/12"],
  ])("keeps the same-origin path %p", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  // Each of these, taken as a redirect target, reaches another origin, a server door or a loop.
  test.each([
    ["an absolute URL", "https://evil.example/problems"],
    ["a scheme-relative URL", "//evil.example"],
    ["a scheme-relative URL with a path", "//evil.example/join/X"],
    ["three slashes", "///evil.example"],
    ["a backslash host", "/\\evil.example"],
    ["a backslash later in the path", "/problems\\..\\..\\evil"],
    ["a backslash in the query", "/problems?x=\\"],
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a relative path", "problems"],
    ["an encoded double slash", "/%2F%2Fevil.example"],
    ["an encoded double slash, lowercase", "/%2f%2fevil.example"],
    ["a doubly encoded double slash", "/%252F%252Fevil.example"],
    ["a triply encoded double slash", "/%25252F%25252Fevil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["an encoded backslash in the query", "/problems?x=%5C"],
    ["a tab", "/\t/evil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["a newline", "/problems\nLocation: https://evil.example"],
    ["an encoded CR LF", "/problems%0D%0ALocation:%20https://evil.example"],
    ["an encoded CR LF in the query", "/problems?x=%0d%0aSet-Cookie:a"],
    ["a NUL", "/problems\u0000"],
    ["an encoded NUL", "/problems%00"],
    ["DEL", "/problems\u007f"],
    ["a space", "/ /evil.example"],
    ["a non-ASCII slash look-alike", "/\u2215\u2215evil.example"],
    ["a fullwidth solidus", "/\uff0fevil.example"],
    ["malformed percent-encoding", "/problems%E0%A4%A"],
    ["the API", "/api/auth/logout"],
    ["the API, any case", "/API/auth/logout"],
    ["the API, encoded", "/%61pi/auth/logout"],
    ["the API through dot segments", "/problems/../api/auth/me"],
    ["the API through encoded dot segments", "/%2e%2e/api/auth/me"],
    ["tRPC", "/trpc/auth.logout"],
    ["the sign-in page (a loop)", "/signin?next=/signin"],
    ["the sign-up page", "/signup"],
    ["the completion page", "/auth/complete?next=//evil.example"],
    ["the empty string", ""],
    ["too long", `/problems?q=${"a".repeat(RETURN_PATH_MAX_CHARS)}`],
  ])("refuses %s", (_name, input) => {
    expect(safeReturnPath(input)).toBeNull();
    expect(returnPathOr(input)).toBe(DEFAULT_RETURN_PATH);
  });

  test.each([[null], [undefined], [42], [{}], [["/problems"]]])("refuses a non-string %p", (input: unknown) => {
    expect(safeReturnPath(input)).toBeNull();
  });

  test("what it keeps resolves to the same origin", () => {
    for (const path of ["/join/AB12CD", "/courses/3/../4", "/problems?q=two%20sum#x"]) {
      const kept = safeReturnPath(path)!;
      expect(new URL(kept, "https://judge.example").origin).toBe("https://judge.example");
    }
  });
});
