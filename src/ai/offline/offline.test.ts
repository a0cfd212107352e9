// The offline reviewer on real programs in each language, compiled and run in the real sandbox (bwrap).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, type SandboxSelection } from "../../../isolate/index.ts";
import { loadConfig } from "../../config.ts";
import { preparePch, SHARED_DATA_DIR } from "../../../tests/judge/fixtures.ts";
import type { Language, ReviewProvider, ReviewSubject } from "../provider.ts";
import { seedProblemFacts, SUM_PROBLEM } from "../testing/fixtures.ts";
import { createOfflineProvider, OFFLINE_HEADER_START } from "./offline.ts";
import { sandboxOptions } from "../../sandbox.ts";

/** Box ids of the AI tests (disjoint from the judge tests' 3500..). */
const AI_TEST_BOX_ID_START = 3400;
const root = mkdtempSync(join(tmpdir(), "oj-ai-boxes-"));
let selection: SandboxSelection;
let offline: ReviewProvider;

beforeAll(async () => {
  await preparePch();
  const config = loadConfig({
    NODE_ENV: "test",
    SANDBOX: "bwrap",
    SANDBOX_ROOT: root,
    DATA_DIR: SHARED_DATA_DIR,
    ISOLATE_BOX_ID_START: String(AI_TEST_BOX_ID_START),
    ISOLATE_BOX_ID_COUNT: "10",
    SANDBOX_POOL_SIZE: "2",
  });
  selection = await createSandbox(sandboxOptions(config), () => {}, { buildPch: false });
  if (!selection.backend) throw new Error(`no sandbox for the offline reviewer tests: ${selection.reason}`);
  offline = createOfflineProvider({ sandbox: selection.backend });
}, 120_000);

afterAll(async () => {
  await selection?.backend?.close();
  rmSync(root, { recursive: true, force: true });
});

const subject = (language: Language, code: string): ReviewSubject => ({
  code,
  language,
  problem: { ...SUM_PROBLEM },
  latestVerdict: null,
});

async function review(language: Language, code: string): Promise<string> {
  const text = await offline.complete(subject(language, code), { timeoutMs: 60_000 });
  expect(text.startsWith(OFFLINE_HEADER_START)).toBe(true);
  return text;
}

const CPP = {
  correct: `#include <bits/stdc++.h>
using namespace std;
int main() {
  ios::sync_with_stdio(false); cin.tie(nullptr);
  int n; cin >> n;
  long long s = 0;
  for (int i = 0; i < n; i++) { long long x; cin >> x; s += x; }
  cout << s << '\\n';
}
`,
  warning: `#include <bits/stdc++.h>
using namespace std;
int main() {
  int n; cin >> n;
  vector<long long> v(n);
  for (auto& x : v) cin >> x;
  long long s = 0;
  int unused = 0;
  for (int i = 0; i < v.size(); i++) s += v[i];
  cout << s << '\\n';
}
`,
  slow: `#include <bits/stdc++.h>
using namespace std;
int main() {
  int n; cin >> n;
  vector<long long> v(n);
  for (auto& x : v) cin >> x;
  long long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i == j) s += v[j];
  cout << s << '\\n';
}
`,
  wrong: `#include <bits/stdc++.h>
using namespace std;
int main() {
  int n; cin >> n;
  int s = 0;
  for (int i = 0; i < n; i++) { int x; cin >> x; s += x; }
  cout << s + 1 << endl;
}
`,
};

const JAVA = {
  correct: `import java.io.*;
import java.util.*;
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    int n = Integer.parseInt(in.readLine().trim());
    StringTokenizer st = new StringTokenizer(in.readLine());
    long s = 0;
    for (int i = 0; i < n; i++) s += Long.parseLong(st.nextToken());
    System.out.println(s);
  }
}
`,
  warning: `import java.io.*;
import java.util.*;
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    int n = Integer.parseInt(in.readLine().trim());
    StringTokenizer st = new StringTokenizer(in.readLine());
    ArrayList list = new ArrayList();
    for (int i = 0; i < n; i++) list.add(Long.parseLong(st.nextToken()));
    long s = 0;
    for (Object o : list) s += (Long) o;
    System.out.println(s);
  }
}
`,
  slow: `import java.io.*;
import java.util.*;
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    int n = Integer.parseInt(in.readLine().trim());
    StringTokenizer st = new StringTokenizer(in.readLine());
    long[] a = new long[n];
    for (int i = 0; i < n; i++) a[i] = Long.parseLong(st.nextToken());
    long s = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (i == j) s += a[j];
      }
    }
    System.out.println(s);
  }
}
`,
  wrong: `import java.util.*;
public class Main {
  public static void main(String[] args) {
    Scanner sc = new Scanner(System.in);
    int n = sc.nextInt();
    int s = 0;
    for (int i = 0; i < n; i++) s += sc.nextInt();
    System.out.println(s * 2);
  }
}
`,
};

const PY = {
  correct: `import sys
data = sys.stdin.buffer.read().split()
n = int(data[0])
print(sum(map(int, data[1:1 + n])))
`,
  warning: `import sys
data = sys.stdin.buffer.read().split()
n = int(data[0])
if n is 0:
    print(0)
else:
    print(sum(map(int, data[1:1 + n])))
`,
  slow: `n = int(input())
a = list(map(int, input().split()))
s = 0
for i in range(n):
    for j in range(n):
        if i == j:
            s += a[j]
print(s)
`,
  wrong: `n = int(input())
a = list(map(int, input().split()))
print(sum(a) + 1)
`,
};

describe("offline reviewer on C++", () => {
  test("a correct program: compiles cleanly, passes the sample, no risks", async () => {
    const text = await review("cpp", CPP.correct);
    expect(text).toContain("Compiles cleanly");
    expect(text).toContain("**Passes the sample.**");
    expect(text).toContain("No common performance or correctness risks");
    expect(text).toMatch(/Resources on the sample: \d+ ms CPU of the 1000 ms limit/);
  });

  test("a program with warnings: -Wsign-compare and -Wunused-variable explained", async () => {
    const text = await review("cpp", CPP.warning);
    expect(text).toContain("`-Wsign-compare`");
    expect(text).toContain("A negative value turns into a huge unsigned number");
    expect(text).toContain("`-Wunused-variable`");
    expect(text).toContain("**Passes the sample.**");
  });

  test("a quadratic program: passes the sample but is flagged too slow for N ≤ 2·10^5", async () => {
    const text = await review("cpp", CPP.slow);
    expect(text).toContain("**Passes the sample.**");
    expect(text).toContain("**Likely too slow:** loops nest 2 deep (innermost at line 9)");
  });

  test("a program failing the sample: where the output differs, endl, int overflow", async () => {
    const text = await review("cpp", CPP.wrong);
    expect(text).toContain("**Wrong answer on the sample.** Line 1: expected `6`, your program printed `7`.");
    expect(text).toContain("**Overflow risk:**");
    // Its `endl` is printed once, after the loop: no remark.
    expect(text).not.toContain("`endl`");
    expect(text).toContain("Trace the sample by hand");
  });

  test("a program that does not compile: the compiler's error is quoted", async () => {
    const text = await review("cpp", "int main() { return x; }\n");
    expect(text).toContain("does **not compile**");
    expect(text).toMatch(/.x. was not declared in this scope/);
  });
});

describe("offline reviewer on Java", () => {
  test("a correct program", async () => {
    const text = await review("java", JAVA.correct);
    expect(text).toContain("Compiles cleanly");
    expect(text).toContain("**Passes the sample.**");
  });

  test("a program with -Xlint warnings: raw types explained", async () => {
    const text = await review("java", JAVA.warning);
    expect(text).toContain("`rawtypes`");
    expect(text).toContain("without its type argument");
    expect(text).toContain("**Passes the sample.**");
  });

  test("a quadratic program is flagged too slow", async () => {
    const text = await review("java", JAVA.slow);
    expect(text).toContain("**Passes the sample.**");
    expect(text).toContain("**Likely too slow:** loops nest 2 deep");
  });

  test("a program failing the sample, with Scanner and int sums", async () => {
    const text = await review("java", JAVA.wrong);
    expect(text).toContain("Line 1: expected `6`, your program printed `12`.");
    expect(text).toContain("`Scanner` is slow");
    expect(text).toContain("**Overflow risk:**");
  });
});

describe("offline reviewer on Python", () => {
  test("a correct program", async () => {
    const text = await review("py", PY.correct);
    expect(text).toContain("Compiles cleanly");
    expect(text).toContain("**Passes the sample.**");
    expect(text).toContain("No common performance or correctness risks");
  });

  test("a program with a SyntaxWarning (`is` with a literal)", async () => {
    const text = await review("py", PY.warning);
    expect(text).toContain("`SyntaxWarning`");
    expect(text).toContain("use `==`");
  });

  test("a quadratic program reading line by line is flagged too slow", async () => {
    const text = await review("py", PY.slow);
    expect(text).toContain("**Passes the sample.**");
    expect(text).toContain("**Likely too slow:** loops nest 2 deep (innermost at line 5)");
  });

  test("a program failing the sample", async () => {
    const text = await review("py", PY.wrong);
    expect(text).toContain("Line 1: expected `6`, your program printed `7`.");
  });

  test("a runtime error quotes the traceback", async () => {
    const text = await review("py", "n = int(input())\nprint(10 // (n - 3))\n");
    expect(text).toContain("**Runtime error on the sample:**");
    expect(text).toContain("ZeroDivisionError");
  });
});

/** Straightforward correct solutions of seeded problems, written as a learner would (db/seed/problems/). */
const SEEDED = {
  dijkstraCpp: `#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n, m;
    cin >> n >> m;
    vector<vector<pair<int, long long>>> adj(n + 1);
    for (int i = 0; i < m; i++) {
        int u, v;
        long long w;
        cin >> u >> v >> w;
        adj[u].push_back({v, w});
    }
    const long long INF = LLONG_MAX;
    vector<long long> dist(n + 1, INF);
    priority_queue<pair<long long, int>, vector<pair<long long, int>>, greater<>> pq;
    dist[1] = 0;
    pq.push({0, 1});
    while (!pq.empty()) {
        auto [d, u] = pq.top();
        pq.pop();
        if (d > dist[u]) continue;
        for (auto [v, w] : adj[u]) {
            if (dist[u] + w < dist[v]) {
                dist[v] = dist[u] + w;
                pq.push({dist[v], v});
            }
        }
    }
    for (int i = 1; i <= n; i++) cout << (dist[i] == INF ? -1 : dist[i]) << (i == n ? '\\n' : ' ');
}
`,
  lisJava: `import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(br.readLine().trim());
        StringTokenizer st = new StringTokenizer(br.readLine());
        int[] tails = new int[n];
        int len = 0;
        for (int i = 0; i < n; i++) {
            int x = Integer.parseInt(st.nextToken());
            int lo = 0, hi = len;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (tails[mid] < x) lo = mid + 1;
                else hi = mid;
            }
            tails[lo] = x;
            if (lo == len) len++;
        }
        System.out.println(len);
    }
}
`,
  islandsPy: `import sys
from collections import deque

def main():
    data = sys.stdin.read().split()
    r, c = int(data[0]), int(data[1])
    grid = [list(row) for row in data[2:2 + r]]
    count = 0
    for i in range(r):
        for j in range(c):
            if grid[i][j] == '#':
                count += 1
                grid[i][j] = '.'
                q = deque([(i, j)])
                while q:
                    x, y = q.popleft()
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        nx, ny = x + dx, y + dy
                        if 0 <= nx < r and 0 <= ny < c and grid[nx][ny] == '#':
                            grid[nx][ny] = '.'
                            q.append((nx, ny))
    print(count)

main()
`,
  twoSumPy: `n, t = map(int, input().split())
a = list(map(int, input().split()))
seen = {}
for i, x in enumerate(a):
    if t - x in seen:
        print(seen[t - x], i)
        break
    seen[x] = i
`,
  fizzBuzzPy: `n = int(input())
for i in range(1, n + 1):
    if i % 15 == 0:
        print("FizzBuzz")
    elif i % 3 == 0:
        print("Fizz")
    elif i % 5 == 0:
        print("Buzz")
    else:
        print(i)
`,
  largestCpp: `#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    cin >> n;
    int best = INT_MIN, where = 0;
    for (int i = 1; i <= n; i++) {
        int x;
        cin >> x;
        if (x > best) {
            best = x;
            where = i;
        }
    }
    cout << best << " " << where << endl;
}
`,
};

describe("offline reviewer on seeded problems", () => {
  const seeded = async (slug: string, language: Language, code: string) => {
    const text = await offline.complete({ code, language, problem: seedProblemFacts(slug), latestVerdict: null }, { timeoutMs: 60_000 });
    expect(text).toContain("**Passes the sample.**");
    return text;
  };
  const NO_RISKS = "No common performance or correctness risks were spotted in the code.";

  // Each of these once drew a false alarm: a priority queue over adjacency lists or a binary search
  // inside a loop read as quadratic, a BFS queue with its four directions read as loops nesting
  // 4 deep, a print followed by break or 10^5 prints read as slow output, an int maximum read as an overflowing sum.
  test("Dijkstra with a priority queue (C++): no 'too slow'", async () => {
    expect(await seeded("dijkstra", "cpp", SEEDED.dijkstraCpp)).toContain(NO_RISKS);
  });

  test("LIS with a binary search inside the loop (Java, Python): no 'too slow', no overflow", async () => {
    expect(await seeded("lis", "java", SEEDED.lisJava)).toContain(NO_RISKS);
    const py = `import sys
data = sys.stdin.buffer.read().split()
n = int(data[0])
tails = []
for x in map(int, data[1:1 + n]):
    lo, hi = 0, len(tails)
    while lo < hi:
        mid = (lo + hi) // 2
        if tails[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    if lo == len(tails):
        tails.append(x)
    else:
        tails[lo] = x
print(len(tails))
`;
    expect(await seeded("lis", "py", py)).toContain(NO_RISKS);
  });

  test("islands by BFS with a deque (Python): no deep-nesting remark", async () => {
    expect(await seeded("islands", "py", SEEDED.islandsPy)).toContain(NO_RISKS);
  });

  test("two-sum printing once then breaking, FizzBuzz printing 10^5 lines (Python): no slow-print remark", async () => {
    expect(await seeded("two-sum", "py", SEEDED.twoSumPy)).toContain(NO_RISKS);
    expect(await seeded("fizzbuzz", "py", SEEDED.fizzBuzzPy)).toContain(NO_RISKS);
  });

  test("largest element in an int (C++): no overflow remark, only the cin speed tip", async () => {
    const text = await seeded("largest-element", "cpp", SEEDED.largestCpp);
    expect(text).not.toContain("verflow");
    expect(text).toContain("`cin` is faster after `ios::sync_with_stdio(false)");
  });

  test("real risks on the same problems are still named", async () => {
    const quadraticLis = SEEDED.lisJava.replace(
      /int lo = 0, hi = len;[\s\S]*?if \(lo == len\) len\+\+;/,
      "int lo = 0;\n            for (int j = 0; j < len; j++) if (tails[j] < x) lo = j + 1; else break;\n            tails[lo] = x;\n            if (lo == len) len++;",
    );
    expect(quadraticLis).not.toBe(SEEDED.lisJava);
    expect(await seeded("lis", "java", quadraticLis)).toContain("**Likely too slow:** loops nest 2 deep");
    const intDistances = SEEDED.dijkstraCpp.replaceAll("long long", "int").replace("LLONG_MAX", "INT_MAX");
    expect(await seeded("dijkstra", "cpp", intDistances)).toContain("**Overflow risk:**");
    const recursive = `import sys
def dfs(g, i, j):
    if i < 0 or j < 0 or i >= len(g) or j >= len(g[0]) or g[i][j] != '#':
        return
    g[i][j] = '.'
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        dfs(g, i + dx, j + dy)
data = sys.stdin.read().split()
g = [list(row) for row in data[2:]]
count = 0
for i in range(len(g)):
    for j in range(len(g[0])):
        if g[i][j] == '#':
            count += 1
            dfs(g, i, j)
print(count)
`;
    expect(await seeded("islands", "py", recursive)).toContain("**Recursion depth:** `dfs` (line 2)");
  });
});

describe("secrets and streaming", () => {
  test("the sandbox's environment holds no API key, even when the server's does", async () => {
    const secrets = { GEMINI_API_KEY: "AIzaSECRET-in-server-env-42", AI_API_KEY: "sk-SECRET-in-server-env-43" };
    const before = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, AI_API_KEY: process.env.AI_API_KEY };
    Object.assign(process.env, secrets);
    try {
      // Its own environment, and every process environment it can read (the sandbox's reaper included).
      const code = [
        "import glob, os",
        'print("ENV-DUMP " + " ".join(f"{k}={v}" for k, v in os.environ.items()))',
        "seen = set()",
        "for p in glob.glob('/proc/*/environ'):",
        "    try:",
        "        seen.update(x.split(b'=')[0].decode() for x in open(p, 'rb').read().split(b'\\0') if x)",
        "    except OSError:",
        "        pass",
        'print("PROC-ENVIRON " + " ".join(sorted(seen)))',
        "",
      ].join("\n");
      const text = await review("py", code);
      expect(text).toContain("ENV-DUMP");
      expect(text).toContain("PROC-ENVIRON");
      for (const [name, value] of Object.entries(secrets)) {
        expect(text).not.toContain(value);
        expect(text).not.toContain(name);
      }
    } finally {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  test("stream yields the header first, then sections; concatenated it equals complete()", async () => {
    const parts: string[] = [];
    for await (const p of offline.stream(subject("py", PY.correct), { timeoutMs: 60_000 })) parts.push(p);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts[0]!.startsWith(OFFLINE_HEADER_START)).toBe(true);
    // Same review both ways, up to the measured time and memory.
    const timing = (t: string) => t.replace(/Resources on the sample: .*/, "Resources on the sample: …");
    expect(timing(parts.join(""))).toBe(timing(await offline.complete(subject("py", PY.correct), { timeoutMs: 60_000 })));
  });

  test("without a sandbox the review says so and still reads the source", async () => {
    const bare = createOfflineProvider({ sandbox: null });
    const text = await bare.complete(subject("cpp", CPP.slow), { timeoutMs: 5000 });
    expect(text).toContain("this server has no sandbox");
    expect(text).toContain("**Likely too slow:**");
  });
});
