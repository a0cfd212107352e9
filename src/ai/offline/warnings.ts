/**
 * Compiler warnings, parsed out of g++ (`-Wall -Wextra`), javac
 * (`-Xlint:all`) and Python's compile step, each explained in plain words for
 * a learner. Explanations are keyed by the compiler's own warning name (GCC's
 * `-W…` option, javac's lint key, Python's warning category).
 */

export interface CompilerWarning {
  /** 1-based line in the learner's file, when the compiler gave one. */
  line: number | null;
  /** The compiler's message, e.g. "comparison of integer expressions of different signedness". */
  message: string;
  /** The warning's name: `-Wsign-compare`, `rawtypes`, `SyntaxWarning`, or null. */
  key: string | null;
}

/** Plain-word explanations (what can go wrong, what to do), by warning name. */
const EXPLAIN: Record<string, string> = {
  "-Wsign-compare":
    "A signed number is compared with an unsigned one (often `i < v.size()`). A negative value turns into a huge unsigned number, so the comparison can silently go wrong; use the same signedness on both sides.",
  "-Wunused-variable": "A variable is declared but never used: a leftover, or a typo where another variable was meant.",
  "-Wunused-but-set-variable": "A variable gets a value that is never read: check whether you meant to use it somewhere.",
  "-Wunused-parameter": "A function parameter is never used: harmless, but check that the function does what its signature promises.",
  "-Wunused-function": "A function is defined but never called.",
  "-Wunused-value": "An expression computes a value that is thrown away: probably a missing assignment or call.",
  "-Wunused-result": "The result of a call that should be checked (such as `scanf`) is ignored.",
  "-Wuninitialized":
    "A variable is read before it has been given a value. Its contents are whatever was in memory, so the program can pass on your machine and fail on the judge.",
  "-Wmaybe-uninitialized":
    "On some path a variable may be read before it has been given a value. Initialise it where you declare it.",
  "-Wreturn-type":
    "A function that must return a value can reach its end without `return`. That is undefined behaviour in C++ and often crashes or returns garbage.",
  "-Wparentheses":
    "An assignment is used as a condition (`if (x = 5)` instead of `==`), or `&&` and `||` are mixed without parentheses: the grouping may not be what you meant.",
  "-Wmisleading-indentation": "The indentation suggests a statement belongs to an `if` or loop that it is not part of: add braces.",
  "-Wsequence-point":
    "A variable is modified twice in one expression (like `i = i++`); the result is undefined, so different compilers give different answers.",
  "-Wtype-limits": "A comparison is always true or always false because of the type's range (e.g. an unsigned value `>= 0`).",
  "-Woverflow": "A constant does not fit in its type and is cut; use a wider type such as `long long`.",
  "-Wnarrowing": "A value is converted to a smaller type and may lose digits.",
  "-Wformat": "A `printf`/`scanf` format does not match the argument's type (e.g. `%d` for a `long long`, which needs `%lld`).",
  "-Wformat=": "A `printf`/`scanf` format does not match the argument's type (e.g. `%d` for a `long long`, which needs `%lld`).",
  "-Wimplicit-fallthrough": "A `switch` case runs on into the next one without `break`.",
  "-Wempty-body": "An `if` or loop has an empty body, usually because of a stray `;` right after its condition.",
  "-Waggressive-loop-optimizations":
    "A loop reads or writes past the end of an array. That is undefined behaviour: the optimiser may even turn the loop into an infinite one.",
  "-Warray-bounds": "An array index is outside the array's size: undefined behaviour, typically wrong answers or crashes.",
  "-Wdiv-by-zero": "A division by a constant zero.",
  "-Wreorder": "Class members are initialised in declaration order, not in the order written in the constructor's list.",
  "-Wswitch": "A `switch` over an enum does not handle every value.",
  "-Wchar-subscripts": "A `char` is used as an array index; `char` can be negative, so cast it (e.g. `c - 'a'`).",
  "-Wint-in-bool-context": "An integer expression is used as a true/false value in a way that is probably a mistake.",
  "-Wdangling-else": "An `else` binds to the nearer `if`, which may not be the one you meant: add braces.",
  "-Wcomment": "A `/*` appears inside a comment, or a line comment ends in a backslash and swallows the next line.",
  "-Wstringop-overflow": "A string or memory operation writes past the end of its buffer.",
  "-Wclass-memaccess": "`memset`/`memcpy` is used on an object that is not plain data.",
  "-Wdeprecated-copy": "A class relies on an implicitly generated copy that is deprecated.",
  "-Wshadow": "A variable hides another of the same name from an outer scope.",
  rawtypes: "A generic type (`List`, `ArrayList`) is used without its type argument (`List<Integer>`), so the compiler cannot check what goes in.",
  unchecked: "An unchecked conversion between generic types: a wrong element type would only fail at run time.",
  serial: "A serialisable class has no `serialVersionUID`; harmless in a judge solution.",
  deprecation: "The code uses an API marked as deprecated.",
  removal: "The code uses an API scheduled for removal from Java.",
  cast: "A cast is redundant.",
  fallthrough: "A `switch` case runs on into the next one without `break`.",
  divzero: "A division by a constant zero.",
  empty: "An `if` has an empty body, usually a stray `;`.",
  static: "A static member is reached through an instance rather than the class name.",
  finally: "A `finally` block cannot complete normally (it returns or throws), which hides exceptions.",
  overrides: "A class overrides `equals` without `hashCode` (or similar): hash-based collections will misbehave.",
  "this-escape": "A constructor lets `this` escape before the object is fully built.",
  "lossy-conversions": "A compound assignment (like `int += long`) silently narrows the result.",
  try: "A try-with-resources variable is never used.",
  SyntaxWarning: "Python accepted the code but it almost certainly does not do what you meant.",
  DeprecationWarning: "Python accepted the code but will reject it in a future version.",
};

/** Explanation for a warning, or a generic one when its name is unknown. */
export function explainWarning(w: CompilerWarning): string {
  // Python names only a category, so its common messages get their own words first.
  if (/invalid escape sequence/.test(w.message))
    return "A backslash in a normal string starts an escape sequence; write `\\\\` or use a raw string `r\"...\"`.";
  if (/"is" with a literal/.test(w.message)) return "`is` compares identity, not value: use `==` to compare numbers and strings.";
  if (w.key && EXPLAIN[w.key]) return EXPLAIN[w.key]!;
  return "The compiler thinks this line is probably a mistake; read its message and check the line.";
}

/**
 * Parses GCC's diagnostics for C and C++ (`main.cpp:5:10: warning: … [-Wsign-compare]`),
 * javac's (`Main.java:5: warning: [rawtypes] …`) and rustc's
 * (`warning: unused variable: \`x\`` then ` --> main.rs:3:9`, the lint in a `#[warn(...)]` note).
 * Languages whose compilers print no warnings (Go, JavaScript) have none.
 * @returns warnings in order, without duplicates of the same (line, key)
 */
export function parseCompilerWarnings(language: string, diagnostics: string): CompilerWarning[] {
  if (language === "rust") return parseRustcWarnings(diagnostics);
  if (language !== "cpp" && language !== "c" && language !== "java") return [];
  const gcc = language !== "java";
  const out: CompilerWarning[] = [];
  const seen = new Set<string>();
  const re =
    gcc
      ? /^[^\s:][^:\n]*:(\d+):(?:\d+:)? warning: (.*?)(?: \[(-W[^\]\s]+)\])?$/gm
      : /^[^\s:][^:\n]*\.java:(\d+): warning: (?:\[([\w-]+)\] )?(.*)$/gm;
  for (const m of diagnostics.matchAll(re)) {
    const w: CompilerWarning =
      gcc
        ? { line: Number(m[1]), message: m[2]!.trim(), key: m[3] ?? null }
        : { line: Number(m[1]), message: m[3]!.trim(), key: m[2] ?? null };
    // GCC spells some keys with their level (`-Wformat=`); normalise to the bare option when we know it.
    if (w.key && !EXPLAIN[w.key] && EXPLAIN[w.key.replace(/=.*$/, "")]) w.key = w.key.replace(/=.*$/, "");
    const id = `${w.line}:${w.key}:${w.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(w);
  }
  return out;
}

/** rustc's warnings: `warning: MESSAGE` followed by ` --> FILE:LINE:COL`; the lint from `= note: \`#[warn(LINT)]\``. */
function parseRustcWarnings(diagnostics: string): CompilerWarning[] {
  const out: CompilerWarning[] = [];
  const blocks = diagnostics.split(/\n(?=warning: |error)/);
  for (const block of blocks) {
    const head = /^warning: (.*)$/m.exec(block);
    if (!head || /^\d+ warnings? emitted/.test(head[1]!)) continue;
    const at = /-->\s*[^:\n]+:(\d+):\d+/.exec(block);
    const lint = /#\[warn\(([\w:]+)\)\]/.exec(block);
    out.push({ line: at ? Number(at[1]) : null, message: head[1]!.trim(), key: lint?.[1] ?? null });
  }
  return out;
}
