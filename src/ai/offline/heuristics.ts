/**
 * The observations a human reviewer makes at a glance, as rules over the code
 * (C++/Java: src/ai/offline/clike.ts; Python: the syntax-tree facts printed by
 * analyze_py.py inside the sandbox) weighed against the problem's constraints.
 *
 * Throughput rule of thumb: about 10^8 simple steps per second for compiled
 * C++ and JIT-compiled Java, about 10^7 for CPython (the usual competitive-
 * programming estimate, e.g. "Competitive Programmer's Handbook", Laaksonen,
 * §2.5 "Estimating efficiency"). Observations are phrased as risks, not facts.
 */
import type { Language, ProblemFacts } from "../provider.ts";
import { LANGUAGES } from "../../../isolate/languages/index.ts";

/** "C++", "PyPy", "Go": the languages' short names. */
const LANGUAGE_NAMES_SHORT = Object.fromEntries(Object.values(LANGUAGES).map((l) => [l.id, l.name])) as Record<Language, string>;
import { analyseLoops, linesInLoops, stripCLike, type LoopShape, type Token } from "./clike.ts";
import { formatBound, parseConstraints } from "./constraints.ts";

/** Facts about a Python file from analyze_py.py (run inside the sandbox). */
export interface PyFindings {
  syntaxError: { line: number | null; message: string } | null;
  compileWarnings: { line: number | null; category: string; message: string }[];
  /** Loops that multiply the work by the input size, in the most deeply nested chain (as LoopShape.maxDepth). */
  maxLoopDepth: number;
  /** Logarithmic loops (binary search, halving) in that chain; absent from older analyser output. */
  loopLogs?: number;
  deepestLoopLine: number | null;
  recursiveFunctions: { name: string; line: number }[];
  /** The constant passed to sys.setrecursionlimit, -1 when not a constant, null when never called. */
  setsRecursionLimit: number | null;
  /** Lines of `input()`/`readline()` calls inside a loop over the input. */
  inputInLoop: number[];
  /** Lines of `print()` calls inside a loop over the input, unless the loop stops right after printing. */
  printInLoop: number[];
  readsWholeInput: boolean;
  popFrontInLoop: number[];
  bareExcept: number[];
}

export interface Observation {
  severity: "high" | "medium" | "low";
  /** Markdown, one bullet's worth. */
  text: string;
}

/** Simple steps per second, by language (see the module comment). */
export const STEPS_PER_SECOND: Partial<Record<Language, number>> = { cpp: 1e8, c: 1e8, java: 1e8, py: 1e7, pypy: 5e7, js: 5e7, go: 1e8, rust: 1e8 };

/** Languages the rule-based observations understand: C-like loops (C, C++, Java) and Python's (CPython, PyPy). */
const ANALYSED: ReadonlySet<Language> = new Set<Language>(["cpp", "c", "java", "py", "pypy"]);
const INT32_MAX = 2 ** 31 - 1;
/**
 * CPU cost of one line written or read the slow way, µs: `endl` (a flush, so
 * one write system call per line), Java's `System.out.println` (System.out
 * flushes on every line), CPython's `print()` and `input()`. Measured on the
 * 2-core test machine (g++ 12 -O2, OpenJDK 17, CPython 3.11) over 10^5–10^6
 * lines, rounded; orders of magnitude, not promises.
 */
export const LINE_COST_US = { cppEndl: 1, javaPrintln: 5, pyPrint: 2, pyInput: 1 } as const;
/** Shares of the time limit from which a per-line cost is worth a remark (low), or a warning (medium). */
const LINE_COST_LOW = 0.2;
const LINE_COST_MEDIUM = 0.5;
/** Python's default recursion limit (sys.getrecursionlimit()). */
const PY_RECURSION_LIMIT = 1000;

const lineList = (lines: number[]) => {
  const shown = lines.slice(0, 5).join(", ");
  return lines.length > 5 ? `${shown}, …` : shown;
};
const plural = (n: number, word: string) => `${word}${n === 1 ? "" : "s"}`;

/**
 * @param input.language  the code's language
 * @param input.code      the learner's source
 * @param input.problem   for constraints and the time limit; null without a problem
 * @param input.py        Python facts (null for C++/Java, or when the sandbox could not analyse)
 * @returns observations, most severe first
 */
export function observe(input: {
  language: Language;
  code: string;
  problem: ProblemFacts | null;
  py: PyFindings | null;
}): Observation[] {
  const { code, problem, py } = input;
  const out: Observation[] = [];
  if (!ANALYSED.has(input.language)) {
    return [
      {
        severity: "low",
        text:
          `The offline reviewer has **no heuristics for ${LANGUAGE_NAMES_SHORT[input.language]}** yet: only the compile, the sample run and their timings above are checked. ` +
          "Reason about the running time against the constraints yourself, or ask for a review with an AI provider configured.",
      },
    ];
  }
  // PyPy is analysed as Python; C as C++ (same loop and overflow rules).
  const language: Language = input.language === "pypy" ? "py" : input.language === "c" ? "cpp" : input.language;
  const bounds = parseConstraints(problem?.constraints ?? "");
  const n = bounds.sizeMax;
  const nName = bounds.sizeName ?? "N";
  const timeLimitS = (problem?.timeLimitMs ?? 1000) / 1000;
  // A language not named: C++'s rate over its time multiplier (what the judge grants it).
  const budget = (STEPS_PER_SECOND[input.language] ?? 1e8 / LANGUAGES[input.language].timeMultiplier) * timeLimitS;

  const clike = language === "py" ? null : analyseLoops(code);
  const depth = language === "py" ? (py?.maxLoopDepth ?? 0) : clike!.maxDepth;
  const logs = language === "py" ? (py?.loopLogs ?? 0) : clike!.logDepth;
  const deepestLine = language === "py" ? (py?.deepestLoopLine ?? null) : clike!.deepestLine;
  const langName = LANGUAGE_NAMES_SHORT[input.language];

  // Nested loops against the input size (binary searches inside count as a log factor).
  if (depth >= 1 && n !== null) {
    const steps = n ** depth * Math.max(1, Math.log2(n)) ** logs;
    const where = deepestLine ? ` (innermost at line ${deepestLine})` : "";
    if (steps > budget) {
      const sev = depth >= 2 ? "high" : "medium";
      out.push({
        severity: sev,
        text:
          `**Likely too slow:** loops nest ${depth} deep${where}. If each runs over the input size (${nName} ≤ ${formatBound(n)}), ` +
          `that is about ${formatBound(steps)} steps, while ${langName} manages roughly ${formatBound(budget)} in the ${timeLimitS} s limit. ` +
          `Look for an O(${nName}·log ${nName}) or O(${nName}) idea: sorting, prefix sums, two pointers, a hash map.`,
      });
    } else if (depth >= 2 && steps > budget / 10) {
      out.push({
        severity: "medium",
        text: `**Tight on time:** loops nest ${depth} deep${where}; with ${nName} ≤ ${formatBound(n)} that is up to ${formatBound(steps)} steps, close to what ${langName} does in ${timeLimitS} s.`,
      });
    }
  } else if (depth >= 3) {
    out.push({
      severity: "low",
      text: `Loops nest ${depth} deep${deepestLine ? ` (line ${deepestLine})` : ""}: fine for small inputs, but check the running time against the constraints.`,
    });
  }

  if (language === "py" && py) observePython(py, n, nName, timeLimitS, out);
  if (clike) {
    const bare = stripCLike(code);
    if (language === "cpp") {
      const endl = printsInSizeLoops(clike, (t) => t.text === "endl");
      const cost = lineCost(n, LINE_COST_US.cppEndl, timeLimitS);
      if (endl.length && cost) {
        out.push({
          severity: cost.severity,
          text:
            `\`endl\` inside a loop (${plural(endl.length, "line")} ${lineList(endl)}) flushes the output on every line` +
            `${costWords(cost, timeLimitS)}; print \`'\\n'\` instead (the output is flushed once at the end).`,
        });
      }
      const readsInLoop = linesInLoops(clike, (t) => t.text === "cin" && t.sizeDepth > 0).length > 0;
      if (readsInLoop && n !== null && n >= 100_000 && !/sync_with_stdio\s*\(\s*(false|0)\s*\)/.test(bare)) {
        out.push({
          severity: "low",
          text: "With this much input, `cin` is faster after `ios::sync_with_stdio(false); cin.tie(nullptr);` at the start of `main`.",
        });
      }
    } else {
      if (/\bnew\s+Scanner\s*\(/.test(bare) && n !== null && n >= 100_000) {
        out.push({
          severity: "medium",
          text: `\`Scanner\` is slow for ${formatBound(n)} numbers; read with \`BufferedReader\` and \`StringTokenizer\` (or \`StreamTokenizer\`).`,
        });
      }
      const printsInLoop = printsInSizeLoops(
        clike,
        (t, i) => (t.text === "println" || t.text === "print" || t.text === "printf") && clike.tokens[i - 2]?.text === "out",
      );
      const cost = lineCost(n, LINE_COST_US.javaPrintln, timeLimitS);
      if (printsInLoop.length && cost) {
        out.push({
          severity: cost.severity,
          text:
            `\`System.out.print\` inside a loop (${plural(printsInLoop.length, "line")} ${lineList(printsInLoop)}) writes unbuffered` +
            `${costWords(cost, timeLimitS)}; collect output in a \`StringBuilder\` or use a \`PrintWriter\` and print once.`,
        });
      }
    }
    observeOverflow(language === "java" ? "java" : "cpp", code, clike, bounds.valueMax, n, out);
  }

  const rank = { high: 0, medium: 1, low: 2 };
  return out.sort((a, b) => rank[a.severity] - rank[b.severity]);
}

interface LineCost {
  severity: "low" | "medium";
  /** Estimated CPU time for `lines` lines, s. */
  seconds: number;
  lines: number;
}

/**
 * Whether writing or reading one line at a time costs enough to mention: null when it is negligible
 * against the time limit or the input size is unknown; low/medium by share of the limit.
 * @param n        lines, at most (the constraints' largest size)
 * @param costUs   cost of one line, µs (LINE_COST_US)
 */
function lineCost(n: number | null, costUs: number, timeLimitS: number): LineCost | null {
  // Without a size from the constraints there is nothing to weigh: say nothing rather than guess.
  if (n === null) return null;
  const seconds = (n * costUs) / 1e6;
  if (seconds >= LINE_COST_MEDIUM * timeLimitS) return { severity: "medium", seconds, lines: n };
  if (seconds >= LINE_COST_LOW * timeLimitS) return { severity: "low", seconds, lines: n };
  return null;
}

function costWords(cost: LineCost, timeLimitS: number): string {
  const s = cost.seconds < 1 ? cost.seconds.toFixed(2).replace(/0$/, "") : cost.seconds.toFixed(1);
  return `: for up to ${formatBound(cost.lines)} lines that is about ${s} s of the ${timeLimitS} s limit`;
}

/**
 * Lines of output calls (matched by `pred`) inside a loop over the input, leaving out those the loop
 * leaves right after (`print…; break;`/`return`): they print once, not once per iteration.
 */
function printsInSizeLoops(shape: LoopShape, pred: (t: Token, i: number) => boolean): number[] {
  return linesInLoops(shape, (t, i) => t.sizeDepth > 0 && pred(t, i) && !leavesAfter(shape.tokens, i));
}

/** True when the statement holding token i is followed by `break`, `return` or an exit call. */
function leavesAfter(tokens: readonly Token[], i: number): boolean {
  let level = 0;
  let j = i;
  for (; j < tokens.length; j++) {
    const t = tokens[j]!.text;
    if (t === "(") level++;
    else if (t === ")") level--;
    else if ((t === ";" && level <= 0) || t === "}" || t === "{") break;
  }
  if (tokens[j]?.text !== ";") return false;
  const next = tokens[j + 1]?.text;
  return next === "break" || next === "return" || next === "exit" || (next === "System" && tokens[j + 3]?.text === "exit");
}

function observePython(py: PyFindings, n: number | null, nName: string, timeLimitS: number, out: Observation[]) {
  for (const f of py.recursiveFunctions.slice(0, 3)) {
    const deep = n === null || n >= PY_RECURSION_LIMIT - 100;
    if (py.setsRecursionLimit === null && deep) {
      out.push({
        severity: n === null ? "medium" : "high",
        text:
          `**Recursion depth:** \`${f.name}\` (line ${f.line}) calls itself. Python stops at a depth of about ${PY_RECURSION_LIMIT} with \`RecursionError\`` +
          (n !== null ? `, and with ${nName} up to ${formatBound(n)} the recursion can go deeper.` : ".") +
          " Rewrite it as a loop with an explicit stack, or raise the limit with `sys.setrecursionlimit`.",
      });
    } else if (py.setsRecursionLimit !== null && n !== null && n >= 100_000) {
      out.push({
        severity: "medium",
        text: `\`${f.name}\` (line ${f.line}) recurses and the limit is raised; at a depth near ${formatBound(n)} CPython can still overflow its C stack and crash. An explicit stack is safer.`,
      });
    }
  }
  const inputCost = lineCost(n, LINE_COST_US.pyInput, timeLimitS);
  if (py.inputInLoop.length && !py.readsWholeInput && inputCost) {
    out.push({
      severity: inputCost.severity,
      text:
        `Input is read line by line with \`input()\` inside a loop (${plural(py.inputInLoop.length, "line")} ${lineList(py.inputInLoop)})` +
        `${costWords(inputCost, timeLimitS)}; read it all at once instead: \`data = sys.stdin.buffer.read().split()\`.`,
    });
  }
  const printCost = lineCost(n, LINE_COST_US.pyPrint, timeLimitS);
  if (py.printInLoop.length && printCost) {
    out.push({
      severity: printCost.severity,
      text:
        `\`print\` inside a loop (${plural(py.printInLoop.length, "line")} ${lineList(py.printInLoop)})` +
        `${costWords(printCost, timeLimitS)}; collect the lines and print once with \`"\\n".join(...)\`.`,
    });
  }
  if (py.popFrontInLoop.length) {
    out.push({
      severity: "medium",
      text: `\`list.pop(0)\` / \`insert(0, …)\` in a loop (line ${lineList(py.popFrontInLoop)}) moves the whole list each time (O(n)); use \`collections.deque\` and \`popleft()\`.`,
    });
  }
  if (py.bareExcept.length) {
    out.push({
      severity: "low",
      text: `A bare \`except:\` (line ${lineList(py.bareExcept)}) also swallows real bugs; catch the specific exception.`,
    });
  }
}

function observeOverflow(
  language: "cpp" | "java",
  code: string,
  shape: LoopShape,
  valueMax: number | null,
  n: number | null,
  out: Observation[],
) {
  if (valueMax === null) return;
  // Comments removed, preprocessor kept: `#define int long long` counts as using 64-bit integers.
  const noComments = code.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
  const uses32 = /\bint\b/.test(noComments);
  const uses64 =
    language === "cpp"
      ? /\blong\s+long\b|\b(u?int64_t|__int128|int_fast64_t)\b|\blong\b/.test(noComments)
      : /\blong\b|\bBigInteger\b|\bLong\b/.test(noComments);
  if (!uses32 || uses64) return;
  const type = language === "cpp" ? "`long long`" : "`long`";
  if (valueMax > INT32_MAX) {
    out.push({
      severity: "high",
      text: `**Integer overflow:** the constraints allow values up to ${formatBound(valueMax)}, beyond \`int\`'s 2,147,483,647, and the code uses only \`int\`. Use ${type}.`,
    });
  } else if (n !== null && n * valueMax > INT32_MAX && accumulatesInLoop(shape.tokens)) {
    out.push({
      severity: "medium",
      text: `**Overflow risk:** a sum or product over ${formatBound(n)} values up to ${formatBound(valueMax)} can reach ${formatBound(n * valueMax)}, beyond \`int\`'s 2,147,483,647. Keep totals in ${type}.`,
    });
  }
}

/**
 * True when a loop builds a total: `s += …`/`p *= …`, `s = s + …`, or an array element
 * computed from a sum or product with another element (`dp[i] = dp[i-1] + a[i]`).
 * Comparing, indexing and `mid = (lo + hi) / 2` do not count.
 */
function accumulatesInLoop(tokens: readonly Token[]): boolean {
  const text = (k: number) => tokens[k]?.text;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.loopDepth === 0 || text(i) !== "=") continue;
    const before = text(i - 1);
    if (before === "+" || before === "*") return true;
    if (["=", "<", ">", "!", "-", "/", "%", "&", "|", "^"].includes(before ?? "") || text(i + 1) === "=") continue;
    // x = x + … / x = x * …
    if (/^[A-Za-z_]\w*$/.test(before ?? "") && text(i + 1) === before && (text(i + 2) === "+" || text(i + 2) === "*")) return true;
    if (before !== "]") continue;
    // Adding a literal (`dp[j] + 1`, a length or a count) is not a running total of input values.
    const literal = (k: number) => /^\d/.test(text(k) ?? "");
    for (let j = i + 1; j < tokens.length && text(j) !== ";"; j++) {
      if (text(j) !== "+" && text(j) !== "*") continue;
      if ((text(j - 1) === "]" && !literal(j + 1)) || (text(j + 2) === "[" && !literal(j - 1))) return true;
    }
  }
  return false;
}
