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

describe("loop kinds: linear shapes are not nested loops over the input", () => {
  const depthOf = (body: string) => {
    const shape = analyseLoops(`int main() {\n${body}\n}`);
    return [shape.maxDepth, shape.logDepth];
  };

  test("binary search, halving, doubling, square root and sieve steps count as a log factor", () => {
    expect(depthOf("for (int i = 0; i < n; i++) { int lo = 0, hi = n; while (lo < hi) { int m = (lo + hi) / 2; if (a[m] < x) lo = m + 1; else hi = m; } }")).toEqual([1, 1]);
    expect(depthOf("for (int i = 0; i < n; i++) while (x > 0) x >>= 1;")).toEqual([1, 1]);
    expect(depthOf("for (int i = 0; i < n; i++) for (int b = 1; b <= n; b *= 2) s++;")).toEqual([1, 1]);
    expect(depthOf("for (int i = 2; i < n; i++) for (int d = 2; d * d <= i; d++) s++;")).toEqual([1, 1]);
    expect(depthOf("for (int i = 2; i <= n; i++) for (int j = i; j <= n; j += i) s++;")).toEqual([1, 1]);
  });

  test("small constant bounds and direction arrays add nothing", () => {
    expect(depthOf("for (int i = 0; i < n; i++) for (int k = 0; k < 4; k++) for (int c = 0; c < 26; c++) s++;")).toEqual([1, 0]);
    expect(depthOf("for (int i = 0; i < n; i++) for (auto [dx, dy] : dirs) s++;")).toEqual([1, 0]);
    expect(depthOf("for (int i = 0; i < n; i++) for (int k = 0; k < 1000; k++) s++;")).toEqual([2, 0]);
  });

  test("a drained queue with the neighbours of each node is one pass; nested in a size loop it adds no factor", () => {
    expect(depthOf("while (!q.empty()) { int u = q.front(); q.pop(); for (int v : adj[u]) q.push(v); }")).toEqual([1, 0]);
    expect(depthOf("for (int s = 0; s < n; s++) { while (q.size() > 0) { for (auto v : g.get(u)) {} } }")).toEqual([1, 0]);
    // ...while a loop over a whole container, or a two-pointer `while (i < n)`, is a size loop.
    expect(depthOf("for (int x : a) for (int y : a) s += x * y;")).toEqual([2, 0]);
    expect(depthOf("for (int i = 0; i < n; i++) { int j = i; while (j < n) j++; }")).toEqual([2, 0]);
  });

  test("Java: enhanced for over adj.get(u) inside a queue loop", () => {
    const shape = analyseLoops(`class Main { void bfs() { while (!q.isEmpty()) { int u = q.poll(); for (int v : adj.get(u)) { if (!seen[v]) q.add(v); } } } }`);
    expect([shape.maxDepth, shape.logDepth]).toEqual([1, 0]);
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

describe("observations weighed against the limits", () => {
  const problem = (constraints: string, timeLimitMs: number) => ({ ...SUM_PROBLEM, constraints, timeLimitMs });
  const texts = (language: "cpp" | "java", code: string, constraints: string, timeLimitMs = 1000) =>
    observe({ language, code, problem: problem(constraints, timeLimitMs), py: null }).map((o) => `${o.severity}: ${o.text}`).join("\n");

  test("`endl` in a hot loop is named with its cost; in a loop of 10^5 lines under 2 s, or after which the loop ends, it is not", () => {
    const code = "int main(){int n; cin>>n; for(int i=1;i<=n;i++) cout<<i<<endl;}";
    expect(texts("cpp", code, "1 <= n <= 10^6")).toContain("medium: `endl` inside a loop (line 1) flushes the output on every line: for up to 10^6 lines that is about 1.0 s of the 1 s limit");
    expect(texts("cpp", code, "1 <= n <= 100000", 2000)).not.toContain("endl");
    const once = "int main(){int n; cin>>n; for(int i=1;i<=n;i++) if (i*i==n) { cout<<i<<endl; return 0; } }";
    expect(texts("cpp", once, "1 <= n <= 10^6")).not.toContain("endl");
  });

  test("Java println in a loop: medium when it eats half the limit", () => {
    const code = "public class Main { public static void main(String[] a) { int n = 5; long s = 0; for (int i = 0; i < n; i++) { s += i; System.out.println(s); } } }";
    expect(texts("java", code, "1 <= n <= 2*10^5")).toContain("medium: `System.out.print` inside a loop (line 1) writes unbuffered: for up to 2·10^5 lines that is about 1.0 s of the 1 s limit");
    expect(texts("java", code, "1 <= n <= 20000")).not.toContain("System.out.print");
  });

  test("overflow: named for running totals, not for an int maximum, a count or `dp[j] + 1`", () => {
    const c = "1 <= n <= 10^5, 1 <= a_i <= 10^9";
    expect(texts("cpp", "int main(){int n,s=0; cin>>n; for(int i=0;i<n;i++){int x; cin>>x; s+=x;} cout<<s;}", c)).toContain("Overflow risk");
    expect(texts("cpp", "int main(){int n; int a[100000], pre[100001]; pre[0]=0; for(int i=0;i<n;i++) pre[i+1] = pre[i] + a[i];}", c)).toContain("Overflow risk");
    expect(texts("cpp", "int main(){int n,s=0; for(int i=0;i<n;i++){int x; cin>>x; s = s + x;} cout<<s;}", c)).toContain("Overflow risk");
    expect(texts("cpp", "int main(){int n,b=0; cin>>n; for(int i=0;i<n;i++){int x; cin>>x; b=max(b,x);} cout<<b;}", c)).not.toContain("verflow");
    expect(texts("cpp", "int main(){int n,c=0; int a[100000], d[100000]; for(int i=0;i<n;i++) for(int j=0;j<i;j++) if(a[j]<a[i]) { d[i]=max(d[i], d[j] + 1); c++; } }", c)).not.toContain("verflow");
    expect(texts("cpp", "int main(){int lo=0,hi=1000000000; while(lo<hi){int mid=(lo+hi)/2; if(ok(mid)) hi=mid; else lo=mid+1;} }", c)).not.toContain("verflow");
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
