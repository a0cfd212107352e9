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
import { analyseLoops, linesInLoops, stripCLike } from "./clike.ts";
import { formatBound, parseConstraints } from "./constraints.ts";

/** Facts about a Python file from analyze_py.py (run inside the sandbox). */
export interface PyFindings {
  syntaxError: { line: number | null; message: string } | null;
  compileWarnings: { line: number | null; category: string; message: string }[];
  maxLoopDepth: number;
  deepestLoopLine: number | null;
  recursiveFunctions: { name: string; line: number }[];
  /** The constant passed to sys.setrecursionlimit, -1 when not a constant, null when never called. */
  setsRecursionLimit: number | null;
  inputInLoop: number[];
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
export const STEPS_PER_SECOND: Record<Language, number> = { cpp: 1e8, java: 1e8, py: 1e7 };
const INT32_MAX = 2 ** 31 - 1;
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
  const { language, code, problem, py } = input;
  const out: Observation[] = [];
  const bounds = parseConstraints(problem?.constraints ?? "");
  const n = bounds.sizeMax;
  const nName = bounds.sizeName ?? "N";
  const timeLimitS = (problem?.timeLimitMs ?? 1000) / 1000;
  const budget = STEPS_PER_SECOND[language] * timeLimitS;

  const clike = language === "py" ? null : analyseLoops(code);
  const depth = language === "py" ? (py?.maxLoopDepth ?? 0) : clike!.maxDepth;
  const deepestLine = language === "py" ? (py?.deepestLoopLine ?? null) : clike!.deepestLine;
  const langName = language === "py" ? "Python" : language === "java" ? "Java" : "C++";

  // Nested loops against the input size.
  if (depth >= 1 && n !== null) {
    const steps = n ** depth;
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

  if (language === "py" && py) observePython(py, n, nName, out);
  if (clike) {
    const bare = stripCLike(code);
    if (language === "cpp") {
      const endl = linesInLoops(clike, (t) => t.text === "endl");
      if (endl.length) {
        out.push({
          severity: n !== null && n > 10_000 ? "medium" : "low",
          text: `\`endl\` inside a loop (${plural(endl.length, "line")} ${lineList(endl)}) flushes the output every time, which is slow for many lines; print \`'\\n'\` instead.`,
        });
      }
      const readsInLoop = linesInLoops(clike, (t) => t.text === "cin").length > 0;
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
      const printsInLoop = linesInLoops(
        clike,
        (t, i) => (t.text === "println" || t.text === "print" || t.text === "printf") && clike.tokens[i - 2]?.text === "out",
      );
      if (printsInLoop.length && (n === null || n > 10_000)) {
        out.push({
          severity: n !== null ? "medium" : "low",
          text: `\`System.out.print\` inside a loop (${plural(printsInLoop.length, "line")} ${lineList(printsInLoop)}) writes unbuffered; collect output in a \`StringBuilder\` or use a \`PrintWriter\` and print once.`,
        });
      }
    }
    observeOverflow(language === "java" ? "java" : "cpp", code, bounds.valueMax, n, out);
  }

  const rank = { high: 0, medium: 1, low: 2 };
  return out.sort((a, b) => rank[a.severity] - rank[b.severity]);
}

function observePython(py: PyFindings, n: number | null, nName: string, out: Observation[]) {
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
  if (py.inputInLoop.length && !py.readsWholeInput && (n === null || n > 10_000)) {
    out.push({
      severity: n !== null ? "medium" : "low",
      text: `Input is read line by line with \`input()\` inside a loop (${plural(py.inputInLoop.length, "line")} ${lineList(py.inputInLoop)}); for large inputs read it all at once: \`data = sys.stdin.buffer.read().split()\`.`,
    });
  }
  if (py.printInLoop.length && (n === null || n > 10_000)) {
    out.push({
      severity: n !== null ? "medium" : "low",
      text: `\`print\` inside a loop (${plural(py.printInLoop.length, "line")} ${lineList(py.printInLoop)}) is slow for many lines; collect the lines and print once with \`"\\n".join(...)\`.`,
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

function observeOverflow(language: "cpp" | "java", code: string, valueMax: number | null, n: number | null, out: Observation[]) {
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
  } else if (n !== null && n * valueMax > INT32_MAX) {
    out.push({
      severity: "medium",
      text: `**Overflow risk:** a sum or product over ${formatBound(n)} values up to ${formatBound(valueMax)} can reach ${formatBound(n * valueMax)}, beyond \`int\`'s 2,147,483,647. Keep totals in ${type}.`,
    });
  }
}
