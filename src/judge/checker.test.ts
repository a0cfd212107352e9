import { describe, expect, test } from "bun:test";
import { check, floatsMatch } from "./checker.ts";
import { decideVerdict } from "./verdict.ts";
import type { RunResult } from "../../isolate/types.ts";

describe("lines checker", () => {
  const ok = (out: string, exp: string) => expect(check("lines", out, exp).ok).toBe(true);
  const wa = (out: string, exp: string) => expect(check("lines", out, exp).ok).toBe(false);

  test("identical output", () => ok("1 2\n3\n", "1 2\n3\n"));
  test("CRLF equals LF", () => ok("1 2\r\n3\r\n", "1 2\n3\n"));
  test("CRLF in the expected output too", () => ok("a\nb\n", "a\r\nb\r\n"));
  test("missing final newline", () => ok("1 2\n3", "1 2\n3\n"));
  test("trailing spaces and tabs on a line", () => ok("1 2  \t\n3 \n", "1 2\n3\n"));
  test("trailing blank lines", () => ok("x\n\n\n  \n", "x"));
  test("empty output matches empty expected", () => ok("", ""));
  test("only blank lines match empty expected", () => ok("\n\r\n \n", ""));
  test("empty output against non-empty expected is WA", () => wa("", "0\n"));
  test("non-empty output against empty expected is WA", () => wa("0\n", ""));
  test("leading whitespace is significant", () => wa(" 1\n", "1\n"));
  test("inner spacing is significant", () => wa("1  2\n", "1 2\n"));
  test("a blank line in the middle is significant", () => wa("1\n\n2\n", "1\n2\n"));
  test("extra line is WA", () => wa("1\n2\n", "1\n"));
  test("missing line is WA", () => wa("1\n", "1\n2\n"));
  test("case is significant", () => wa("yes\n", "YES\n"));
  test("reason names the line, not the data", () => {
    const r = check("lines", "a\nsecret-b\n", "a\nsecret-c\n");
    expect(r).toEqual({ ok: false, reason: "line 2 differs" });
  });
});

describe("tokens checker", () => {
  test("any whitespace separates tokens", () => {
    expect(check("tokens", "1\n2   3\t4\r\n", "1 2 3 4").ok).toBe(true);
  });
  test("empty output matches whitespace-only expected", () => {
    expect(check("tokens", "", " \n\n").ok).toBe(true);
  });
  test("different token is WA", () => expect(check("tokens", "1 2 3", "1 2 4").ok).toBe(false));
  test("missing token is WA", () => expect(check("tokens", "1 2", "1 2 3").ok).toBe(false));
  test("extra token is WA", () => expect(check("tokens", "1 2 3 4", "1 2 3").ok).toBe(false));
  test("numbers are compared as text", () => expect(check("tokens", "1.0", "1").ok).toBe(false));
});

describe("float checker", () => {
  const ok = (out: string, exp: string) => expect(check("float", out, exp).ok).toBe(true);
  const wa = (out: string, exp: string) => expect(check("float", out, exp).ok).toBe(false);

  test("within absolute 1e-6", () => ok("0.3333330", "0.333333333"));
  test("just outside absolute 1e-6 on a small value", () => wa("0.333331", "0.333333333"));
  test("relative 1e-6 on a large value", () => ok("1000000.5", "1000000"));
  test("relative error above 1e-6 on a large value", () => wa("1000002", "1000000"));
  test("integer against decimal", () => ok("2", "2.0000000"));
  test("scientific notation", () => ok("1e-7", "0"));
  test("signs and leading dot", () => ok("-.5 +3", "-0.5000001 3"));
  test("non-numeric tokens compare exactly", () => ok("YES 1.0000001", "YES 1"));
  test("non-numeric mismatch is WA", () => wa("NO 1", "YES 1"));
  test("number against word is WA", () => wa("abc", "1"));
  test("token count must match", () => wa("1 2", "1 2 3"));
  test("whitespace layout is free", () => ok("1.5\r\n\n2.5  ", "1.5 2.5\n"));
  test("empty output against a number is WA", () => wa("", "1.5"));
  test("floatsMatch is symmetric at the tolerance on zero", () => {
    expect(floatsMatch(1e-6, 0)).toBe(true);
    expect(floatsMatch(2e-6, 0)).toBe(false);
  });
});

function result(over: Partial<RunResult>): RunResult {
  return {
    status: "OK",
    exitCode: 0,
    signal: null,
    cpuTimeMs: 1,
    wallTimeMs: 1,
    memoryKib: 1000,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    ...over,
  };
}

describe("decideVerdict", () => {
  test("OK with matching output is AC", () => {
    expect(decideVerdict(result({ stdout: "3\n" }), "3", "lines").verdict).toBe("AC");
  });
  test("OK with different output is WA", () => {
    expect(decideVerdict(result({ stdout: "4\n" }), "3", "lines").verdict).toBe("WA");
  });
  test("XX is IE, never a user verdict", () => {
    const v = decideVerdict(result({ status: "XX", message: "bwrap failed" }), "3", "lines");
    expect(v.verdict).toBe("IE");
    expect(v.reason).toContain("bwrap failed");
  });
  test("XX with output that would match is still IE", () => {
    expect(decideVerdict(result({ status: "XX", stdout: "3" }), "3", "lines").verdict).toBe("IE");
  });
  test("TLE, MLE, OLE pass through", () => {
    expect(decideVerdict(result({ status: "TLE", stdout: "3" }), "3", "lines").verdict).toBe("TLE");
    expect(decideVerdict(result({ status: "MLE" }), "3", "lines").verdict).toBe("MLE");
    expect(decideVerdict(result({ status: "OLE" }), "3", "lines").verdict).toBe("OLE");
  });
  test("RE and SG are RE", () => {
    expect(decideVerdict(result({ status: "RE", exitCode: 1 }), "", "lines").verdict).toBe("RE");
    expect(decideVerdict(result({ status: "SG", exitCode: null, signal: 11 }), "", "lines").verdict).toBe("RE");
  });
  test("SIGXFSZ is OLE", () => {
    expect(decideVerdict(result({ status: "SG", exitCode: null, signal: 25 }), "", "lines").verdict).toBe("OLE");
  });
  test("the problem's checker is used", () => {
    expect(decideVerdict(result({ stdout: "1.0000001" }), "1", "float").verdict).toBe("AC");
    expect(decideVerdict(result({ stdout: "1.0000001" }), "1", "lines").verdict).toBe("WA");
  });
});
