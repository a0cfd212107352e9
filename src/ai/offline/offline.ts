/**
 * The offline reviewer: no network, no model. It compiles the code in the
 * sandbox with warnings on (`g++ -Wall -Wextra`, `javac -Xlint:all`, Python's
 * compile plus syntax-tree checks), runs the problem's sample under the
 * problem's limits, and writes a markdown review from that evidence: the
 * sample's outcome and where the output first differs, each warning in plain
 * words, time and memory against the limits, and rule-based observations
 * (src/ai/offline/heuristics.ts). Sections stream as soon as each is known.
 *
 * All untrusted work (compiling, running, parsing the Python file) happens in
 * the sandbox; the sandbox's environment is the backend's fixed minimal one
 * plus the language's own variables, so no secret can reach it.
 */
import { compileSource, runProgram, type CompileOutcome } from "../../../isolate/exec.ts";
import { getLanguage, type LanguageId } from "../../../isolate/languages/index.ts";
import type { Box, RunResult, SandboxBackend } from "../../../isolate/types.ts";
import { check } from "../../judge/checker.ts";
import { fenceFor, LANGUAGE_NAMES } from "../prompt.ts";
import { AiProviderError, type CallOptions, type ReviewProvider, type ReviewSubject, type VerdictFacts } from "../provider.ts";
import { observe, type Observation, type PyFindings } from "./heuristics.ts";
import { explainWarning, parseCompilerWarnings, type CompilerWarning } from "./warnings.ts";
import { VERDICT_NAMES } from "../../verdicts.ts";

/** Bump when the review's rules or wording change: it is the cache key's model. */
export const OFFLINE_MODEL = "offline-v2";

/**
 * Warning flags per language (GCC manual "Warning Options"; javac `-Xlint`); a language not
 * named here compiles with its own defaults (rustc and go vet-less `go build` warn or refuse by default).
 */
export const WARNING_FLAGS: Readonly<Partial<Record<LanguageId, readonly string[]>>> = {
  cpp: ["-Wall", "-Wextra"],
  c: ["-Wall", "-Wextra"],
  java: ["-Xlint:all"],
};

/** Every offline review starts with these words, so nobody mistakes it for a model's. */
export const OFFLINE_HEADER_START = "> **Offline review.** No AI model was used";

/** The first paragraph of an offline review; `sandboxed` says whether the code was compiled and run. */
export function offlineHeader(sandboxed: boolean): string {
  const evidence = sandboxed
    ? "the compiler's warnings, a run of the sample in the sandbox, and rule-based checks"
    : "rule-based checks of the source (this server has no sandbox to compile and run it)";
  return `${OFFLINE_HEADER_START}: this review was written by the judge's built-in reviewer from ${evidence}. It is advice to help you learn; only the judge's verdict counts.`;
}

// A text import: bundled into the single binary too (bun run release).
import PY_ANALYZER from "./analyze_py.py" with { type: "text" };
/** Lines of the sample's output or a program's stderr quoted in a review. */
const QUOTE_LINES = 12;
const QUOTE_CHARS = 1500;

const VERDICT_WORDS: Record<VerdictFacts["verdict"], string> = VERDICT_NAMES;

export interface OfflineOptions {
  /** The sandbox backend, or null when this server has none (the review then says so and uses text-only checks). */
  sandbox: SandboxBackend | null;
}

function quote(text: string, lang = "text"): string {
  let lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  let more = "";
  if (lines.length > QUOTE_LINES) {
    more = `\n… (${lines.length - QUOTE_LINES} more lines)`;
    lines = lines.slice(0, QUOTE_LINES);
  }
  let body = lines.join("\n");
  if (body.length > QUOTE_CHARS) body = `${body.slice(0, QUOTE_CHARS)} …`;
  if (body === "") body = "(nothing)";
  const fence = fenceFor(body);
  return `${fence}${lang}\n${body}${more}\n${fence}`;
}

const inline = (s: string) => {
  const t = s.length > 120 ? `${s.slice(0, 120)}…` : s;
  if (t === "") return "an empty line";
  const ticks = t.includes("`") ? "``" : "`";
  return `${ticks}${t.startsWith("`") ? " " : ""}${t}${t.endsWith("`") ? " " : ""}${ticks}`;
};

/** Lines as the judge's `lines` checker sees them: CRLF as LF, trailing spaces and blank lines dropped. */
function outputLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n").map((l) => l.replace(/[ \t\r\f\v]+$/, ""));
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Where the program's output first departs from the expected output, in words.
 * @example firstDifference("7\n", "6\n") // "Line 1: expected `6`, your program printed `7`."
 */
export function firstDifference(actual: string, expected: string): string {
  const got = outputLines(actual);
  const want = outputLines(expected);
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    if (got[i] === want[i]) continue;
    if (i >= got.length) return `Your output stops after ${got.length} ${got.length === 1 ? "line" : "lines"}; line ${i + 1} should be ${inline(want[i]!)}.`;
    if (i >= want.length) return `Your output has ${got.length - want.length} extra ${got.length - want.length === 1 ? "line" : "lines"} after the expected ${want.length}, starting with ${inline(got[i]!)}.`;
    const g = got[i]!.trim().split(/\s+/);
    const w = want[i]!.trim().split(/\s+/);
    const k = g.findIndex((tok, j) => tok !== w[j]);
    const where = g.length > 1 || w.length > 1 ? `, value ${(k === -1 ? g.length : k) + 1}` : "";
    return `Line ${i + 1}${where}: expected ${inline(want[i]!)}, your program printed ${inline(got[i]!)}.`;
  }
  return "The lines match once whitespace is normalised; the judge compares with its configured checker.";
}

interface Evidence {
  compile: CompileOutcome | null;
  warnings: CompilerWarning[];
  run: RunResult | null;
  passed: boolean | null;
  py: PyFindings | null;
}

/**
 * @example const offline = createOfflineProvider({ sandbox: selection.backend });
 *          const review = await offline.complete(subject, { timeoutMs: 30_000 });
 */
export function createOfflineProvider(opts: OfflineOptions): ReviewProvider {
  async function* sections(subject: ReviewSubject, { signal }: CallOptions): AsyncGenerator<string> {
    const { problem, language } = subject;
    yield `${offlineHeader(opts.sandbox !== null)}\n\n`;
    const ev: Evidence = { compile: null, warnings: [], run: null, passed: null, py: null };
    let box: Box | null = null;
    const sandbox = opts.sandbox;
    try {
      if (sandbox) {
        box = await sandbox.acquire();
        if (signal?.aborted) throw new AiProviderError("aborted", "offline: aborted");
        ev.compile = await compileSource(box, language, subject.code, { extraFlags: [...(WARNING_FLAGS[language] ?? [])] });
        if (ev.compile.result.status === "XX") {
          throw new AiProviderError("failed", `offline: sandbox failed while compiling: ${ev.compile.result.message ?? ""}`);
        }
        if (language === "py" || language === "pypy") {
          ev.py = await analysePython(box, ev.compile.entry);
          ev.warnings = (ev.py?.compileWarnings ?? []).map((w) => ({ line: w.line, message: w.message, key: w.category }));
        } else {
          ev.warnings = parseCompilerWarnings(language, ev.compile.diagnostics);
        }
        yield compileSection(subject, ev);
        if (signal?.aborted) throw new AiProviderError("aborted", "offline: aborted");
        if (ev.compile.ok && problem && problem.sampleInput.trim() && problem.sampleOutput.trim()) {
          ev.run = await runProgram(box, language, {
            entry: ev.compile.entry,
            stdin: problem.sampleInput,
            timeLimitMs: problem.timeLimitMs,
            memoryLimitKib: problem.memoryLimitKib,
          });
          if (ev.run.status === "XX") throw new AiProviderError("failed", `offline: sandbox failed while running: ${ev.run.message ?? ""}`);
          ev.passed = ev.run.status === "OK" && check(problem.checker, ev.run.stdout, problem.sampleOutput).ok;
        }
        yield runSection(subject, ev);
      } else {
        yield "### Compilation and sample\nThis server has no sandbox, so the code was not compiled or run; the checks below read the source only.\n\n";
      }
    } catch (err) {
      if (err instanceof AiProviderError) throw err;
      throw new AiProviderError("failed", `offline: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      if (box && sandbox) await sandbox.release(box).catch(() => {});
    }
    const observations = observe({ language, code: subject.code, problem, py: ev.py });
    yield observationsSection(observations);
    const judged = judgeSection(subject.latestVerdict);
    if (judged) yield judged;
    yield nextStep(subject, ev, observations);
  }

  return {
    name: "offline",
    async model() {
      return OFFLINE_MODEL;
    },
    stream: sections,
    async complete(subject, callOpts) {
      let text = "";
      for await (const part of sections(subject, callOpts)) text += part;
      return text;
    },
  };
}

async function analysePython(box: Box, entry: string): Promise<PyFindings | null> {
  const py = getLanguage("py");
  const r = await box.run({
    ...py.compileLimits,
    argv: ["/usr/bin/python3", "-B", "-I", "-c", PY_ANALYZER, entry],
    env: { ...py.env },
  });
  if (r.status === "XX") throw new AiProviderError("failed", `offline: sandbox failed while analysing: ${r.message ?? ""}`);
  // A file too big or deep for the checks to finish in the compile limits gets a review without them.
  if (r.status !== "OK") return null;
  try {
    return JSON.parse(r.stdout) as PyFindings;
  } catch {
    return null;
  }
}

function compileSection(subject: ReviewSubject, ev: Evidence): string {
  const c = ev.compile!;
  const lines = ["### Compilation"];
  const flags = WARNING_FLAGS[subject.language] ?? [];
  const how =
    subject.language === "py" || subject.language === "pypy"
      ? "Python's own compile step"
      : flags.length
        ? `the judge's compiler with \`${flags.join(" ")}\``
        : "the judge's compiler";
  if (!c.ok) {
    lines.push(
      `The code does **not compile** (checked with ${how}), so the judge would answer *Compilation Error*. The first messages:`,
      quote(c.diagnostics.split("\n").filter((l) => !/warning:/.test(l)).join("\n") || c.diagnostics),
      "Fix the first error first: later ones are often consequences of it.",
    );
    return `${lines.join("\n\n")}\n\n`;
  }
  if (!ev.warnings.length) {
    lines.push(`Compiles cleanly with ${how}: no warnings.`);
    return `${lines.join("\n\n")}\n\n`;
  }
  lines.push(`Compiles with ${how}, with ${ev.warnings.length} ${ev.warnings.length === 1 ? "warning" : "warnings"}:`);
  const bullets = ev.warnings.slice(0, 8).map((w) => {
    const at = w.line ? `Line ${w.line}` : "Somewhere";
    const key = w.key ? ` (\`${w.key}\`)` : "";
    return `- ${at}: ${inline(w.message)}${key}. ${explainWarning(w)}`;
  });
  if (ev.warnings.length > 8) bullets.push(`- … and ${ev.warnings.length - 8} more.`);
  lines.push(bullets.join("\n"));
  return `${lines.join("\n\n")}\n\n`;
}

function runSection(subject: ReviewSubject, ev: Evidence): string {
  const { problem } = subject;
  if (!problem) return "### Sample\nNo problem was given, so there was no sample to run.\n\n";
  if (!ev.compile?.ok) return "";
  const r = ev.run;
  if (!r) return "### Sample\nThe problem has no sample, so nothing was run.\n\n";
  const out: string[] = ["### Sample test"];
  const limitMs = problem.timeLimitMs;
  switch (r.status) {
    case "OK":
      if (ev.passed) out.push("**Passes the sample.** The sample is small, so this says little about the hidden tests: see the observations below.");
      else {
        out.push(
          "**Wrong answer on the sample.** " + firstDifference(r.stdout, problem.sampleOutput),
          `Expected:\n\n${quote(problem.sampleOutput)}`,
          `Your program printed:\n\n${quote(r.stdout)}`,
        );
      }
      break;
    case "TLE":
      out.push(
        `**Time limit exceeded on the sample** (${r.tleKind === "wall" ? "wall clock" : "CPU"}, limit ${limitMs} ms). ` +
          "On an input this small that usually means an infinite loop, or waiting for input that never comes (reading more values than the input has).",
      );
      break;
    case "MLE":
      out.push(`**Memory limit exceeded on the sample** (limit ${Math.round(problem.memoryLimitKib / 1024)} MiB): look for a huge array or a container that grows without end.`);
      break;
    case "OLE":
      out.push("**Output limit exceeded on the sample:** the program prints far more than expected, probably in a loop that does not stop.");
      break;
    case "RE":
    case "SG": {
      const how =
        r.signal !== null
          ? `killed by signal ${r.signal}${r.signal === 11 ? " (segmentation fault: an index out of range, a null pointer, or very deep recursion)" : r.signal === 6 ? " (abort: often a failed assertion or an uncaught exception)" : r.signal === 8 ? " (arithmetic error: division by zero)" : ""}`
          : `exit code ${r.exitCode}`;
      out.push(`**Runtime error on the sample:** the program ended with ${how}.`);
      if (r.stderr.trim()) out.push(`What it printed to stderr:\n\n${quote(lastLines(r.stderr, QUOTE_LINES))}`);
      break;
    }
    default:
      out.push(`The sample run ended with status ${r.status}.`);
  }
  const mib = (kib: number) => (kib / 1024).toFixed(1);
  out.push(
    `Resources on the sample: ${r.cpuTimeMs} ms CPU of the ${limitMs} ms limit, ${mib(r.memoryKib)} MiB of ${mib(problem.memoryLimitKib)} MiB memory.` +
      (r.status === "OK" && r.cpuTimeMs > limitMs / 2
        ? " That is already more than half the limit on the tiny sample: larger tests will very likely time out."
        : ""),
  );
  return `${out.join("\n\n")}\n\n`;
}

function lastLines(text: string, n: number): string {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.slice(-n).join("\n");
}

function observationsSection(obs: Observation[]): string {
  if (!obs.length) return "### Observations\nNo common performance or correctness risks were spotted in the code.\n\n";
  return `### Observations\n${obs.map((o) => `- ${o.text}`).join("\n")}\n\n`;
}

function judgeSection(v: VerdictFacts | null): string | null {
  if (!v) return null;
  const facts = [v.testsTotal !== null ? `${v.testsPassed} of ${v.testsTotal} tests passed` : null, v.timeMs !== null ? `slowest ${v.timeMs} ms` : null].filter(Boolean);
  const verdict = `**${VERDICT_WORDS[v.verdict]}**${facts.length ? ` (${facts.join(", ")})` : ""}`;
  const text = v.sameCode
    ? `The judge's verdict on this exact code: ${verdict}.`
    : `Your latest submission (an earlier version of the code, in ${LANGUAGE_NAMES[v.language]}) got ${verdict}.`;
  return `### Judge\n${text}\n\n`;
}

function nextStep(subject: ReviewSubject, ev: Evidence, obs: Observation[]): string {
  let step: string;
  if (ev.compile && !ev.compile.ok) step = "Make the code compile: start with the first error message above.";
  else if (ev.run && ev.run.status !== "OK") step = "Fix the failure on the sample first; run it with the sample input yourself and watch where it goes wrong.";
  else if (ev.passed === false) step = "Trace the sample by hand up to the first line that differs; the bug is in the code that produces that line.";
  else if (obs[0]?.severity === "high") step = `Address the first observation: ${obs[0].text.replace(/^\*\*[^*]+\*\*\s*/, "")}`;
  else if (ev.warnings.length) step = "Clear the compiler warnings: each one is a place where the code may not do what it says.";
  else if (subject.latestVerdict?.sameCode && subject.latestVerdict.verdict !== "AC")
    step = "The sample passes but the judge did not accept this code: think about edge cases (smallest and largest inputs, equal values, negative numbers) and the worst-case running time.";
  else if (subject.problem) step = "Test edge cases of your own: the smallest input, the largest input the constraints allow, and repeated or negative values.";
  else step = "Pick a problem and run the code against its sample to get a fuller review.";
  return `### Next step\n${step}\n`;
}
