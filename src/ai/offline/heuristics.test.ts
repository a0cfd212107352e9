// The offline reviewer's pure parts: constraint reading, loop nesting, warning parsing, observations.
import { describe, expect, test } from "bun:test";
import { SUM_PROBLEM } from "../testing/fixtures.ts";
import { analyseLoops, linesInLoops } from "./clike.ts";
import { formatBound, parseConstraints, parseNumber } from "./constraints.ts";
import { observe, type PyFindings } from "./heuristics.ts";
import { explainWarning, parseCompilerWarnings } from "./warnings.ts";
import { firstDifference } from "./offline.ts";

describe("constraints", () => {
  test("numbers in the usual notations", () => {
    expect(parseNumber("2·10^5")).toBe(200_000);
    expect(parseNumber("2 * 10^5")).toBe(200_000);
    expect(parseNumber("10^{18}")).toBe(1e18);
    expect(parseNumber("1e9")).toBe(1e9);
    expect(parseNumber("100,000")).toBe(100_000);
    expect(parseNumber("abc")).toBeNull();
  });

  test("size and value bounds", () => {
    expect(parseConstraints("1 <= N <= 200000, |a_i| <= 10^9")).toEqual({ sizeMax: 200_000, valueMax: 1e9, sizeName: "N" });
    expect(parseConstraints("1 ≤ n ≤ 2·10^5\n1 ≤ a[i] ≤ 10^18")).toEqual({ sizeMax: 200_000, valueMax: 1e18, sizeName: "n" });
    expect(parseConstraints("1 ≤ |s| ≤ 10^6").sizeMax).toBe(1e6);
    expect(parseConstraints("The input is small.")).toEqual({ sizeMax: null, valueMax: null, sizeName: null });
    expect(formatBound(200_000)).toBe("2·10^5");
    expect(formatBound(1e18)).toBe("10^18");
  });
});

describe("C-like loop reading", () => {
  test("nesting through blocks, single statements and do-while; comments and strings ignored", () => {
    const code = [
      "#include <bits/stdc++.h>", // 1
      "int main() {", // 2
      "  // for (;;) { for (;;) {} }", // 3
      '  const char* s = "while (1) for";', // 4
      "  for (int i = 0; i < n; i++)", // 5
      "    for (int j = 0; j < n; j++)", // 6
      "      if (a[i] > a[j]) cnt++;", // 7
      "  do { x++; } while (x < 10);", // 8
      "  while (true) { cout << x << endl; break; }", // 9
      "}",
    ].join("\n");
    const shape = analyseLoops(code);
    expect(shape.maxDepth).toBe(2);
    expect(shape.deepestLine).toBe(6);
    expect(linesInLoops(shape, (t) => t.text === "endl")).toEqual([9]);
    expect(linesInLoops(shape, (t) => t.text === "cnt")).toEqual([7]);
  });

  test("Java: loops inside methods inside classes; lambdas walked", () => {
    const code = `public class Main {
  static int f(int[] a) { int s = 0; for (int x : a) { for (int y : a) { for (int z : a) s += x*y*z; } } return s; }
  public static void main(String[] args) {
    Runnable r = () -> { while (true) { } };
    System.out.println(f(new int[]{1,2}));
  }
}`;
    const shape = analyseLoops(code);
    expect(shape.maxDepth).toBe(3);
    expect(shape.deepestLine).toBe(2);
  });
});

describe("compiler warnings", () => {
  test("GCC and javac formats, with explanations", () => {
    const gcc = [
      "main.cpp: In function 'int main()':",
      "main.cpp:6:21: warning: comparison of integer expressions of different signedness: 'int' and 'std::vector<int>::size_type' [-Wsign-compare]",
      "    6 |   for (int i = 0; i < v.size(); i++) {}",
      "main.cpp:4:7: warning: unused variable 'unused' [-Wunused-variable]",
    ].join("\n");
    const w = parseCompilerWarnings("cpp", gcc);
    expect(w.map((x) => [x.line, x.key])).toEqual([
      [6, "-Wsign-compare"],
      [4, "-Wunused-variable"],
    ]);
    expect(explainWarning(w[0]!)).toContain("unsigned");

    const javac = "Main.java:5: warning: [rawtypes] found raw type: ArrayList\n        ArrayList a = new ArrayList();\n1 warning\n";
    const j = parseCompilerWarnings("java", javac);
    expect(j).toEqual([{ line: 5, key: "rawtypes", message: "found raw type: ArrayList" }]);
    expect(explainWarning(j[0]!)).toContain("type argument");
  });
});

describe("observations", () => {
  const noPy: PyFindings = {
    syntaxError: null,
    compileWarnings: [],
    maxLoopDepth: 0,
    deepestLoopLine: null,
    recursiveFunctions: [],
    setsRecursionLimit: null,
    inputInLoop: [],
    printInLoop: [],
    readsWholeInput: false,
    popFrontInLoop: [],
    bareExcept: [],
  };

  test("quadratic C++ over N ≤ 2·10^5 is flagged too slow, and int sums overflow", () => {
    const code = "int main(){int n; cin>>n; int a[200000]; int s=0; for(int i=0;i<n;i++) for(int j=0;j<n;j++) s+=a[i]*a[j]; cout<<s<<endl;}";
    const obs = observe({ language: "cpp", code, problem: SUM_PROBLEM, py: null });
    expect(obs[0]!.severity).toBe("high");
    expect(obs.map((o) => o.text).join("\n")).toContain("Likely too slow");
    expect(obs.map((o) => o.text).join("\n")).toContain("Overflow risk");
  });

  test("a linear C++ solution with long long draws no complexity or overflow remark", () => {
    const code = "int main(){int n; cin>>n; long long s=0; for(int i=0;i<n;i++){long long x; cin>>x; s+=x;} cout<<s<<'\\n';}";
    const text = observe({ language: "cpp", code, problem: SUM_PROBLEM, py: null }).map((o) => o.text).join("\n");
    expect(text).not.toContain("too slow");
    expect(text).not.toContain("verflow");
  });

  test("Python: recursion without a raised limit, input() per line, pop(0)", () => {
    const py: PyFindings = {
      ...noPy,
      maxLoopDepth: 1,
      deepestLoopLine: 3,
      recursiveFunctions: [{ name: "dfs", line: 1 }],
      inputInLoop: [4],
      popFrontInLoop: [5],
    };
    const text = observe({ language: "py", code: "", problem: SUM_PROBLEM, py }).map((o) => o.text).join("\n");
    expect(text).toContain("RecursionError");
    expect(text).toContain("sys.stdin.buffer.read()");
    expect(text).toContain("deque");
  });

  test("Java: Scanner with big input and println in a loop", () => {
    const code = `import java.util.*; public class Main { public static void main(String[] a) { Scanner sc = new Scanner(System.in); int n = sc.nextInt(); long s = 0; for (int i = 0; i < n; i++) { s += sc.nextLong(); System.out.println(s); } } }`;
    const text = observe({ language: "java", code, problem: SUM_PROBLEM, py: null }).map((o) => o.text).join("\n");
    expect(text).toContain("BufferedReader");
    expect(text).toContain("StringBuilder");
  });
});

describe("first difference", () => {
  test("names the line and the values", () => {
    expect(firstDifference("7\n", "6\n")).toBe("Line 1: expected `6`, your program printed `7`.");
    expect(firstDifference("1 2 4\n", "1 2 3\n")).toContain("Line 1, value 3");
    expect(firstDifference("1\n", "1\n2\n")).toContain("stops after 1 line");
    expect(firstDifference("1\n2\n", "1\n")).toContain("1 extra line");
  });
});
