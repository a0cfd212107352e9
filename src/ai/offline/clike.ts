/**
 * A small structural reader for C++ and Java sources: strips comments,
 * strings and preprocessor lines, then walks statements to find how deeply
 * loops nest and which tokens sit inside a loop. Not a compiler: it knows
 * `for`/`while`/`do`/`if`/`switch`/blocks, which is enough to answer "are
 * there nested loops over the input, and is `endl` printed in one".
 *
 * Each loop is also given a kind (LoopKind) from its header (and, for
 * `while`, its body), so that the usual linear-time shapes are not mistaken
 * for nested loops over the input: a loop to a small constant (`k < 4`, the
 * four directions), a binary search or halving loop (`while (lo < hi)` with a
 * `mid`), a queue drained by `while (!q.empty())` and a range-for over one
 * element of a container (`for (auto v : adj[u])`, amortised over the whole
 * graph) do not multiply the work by the input size.
 */

/**
 * How a loop's trip count grows with the input:
 * - `n`: with the input size (the default for anything not recognised);
 * - `log`: logarithmically or as a square root (binary search, halving or doubling, `i * i <= n`, `j += i`);
 * - `one`: by a constant (a small literal bound, the four directions);
 * - `amortised`: with the input size in total, however often it is entered (a queue drained by
 *   BFS/Dijkstra, the neighbours of one node): one pass over the input when no size loop encloses
 *   it, no extra factor when one does.
 */
export type LoopKind = "n" | "log" | "one" | "amortised";

export interface Token {
  text: string;
  /** 1-based source line. */
  line: number;
  /** How many loops enclose this token (a loop keyword counts itself). */
  loopDepth: number;
  /** How many of those loops multiply the work by the input size (see LoopKind). */
  sizeDepth: number;
}

export interface LoopShape {
  /** Loops that multiply the work by the input size, in the most deeply nested chain (0 = none). */
  maxDepth: number;
  /** Logarithmic loops (kind `log`) in that same chain. */
  logDepth: number;
  /** Line of the innermost size loop of that chain. */
  deepestLine: number | null;
  tokens: Token[];
}

/** Replaces comments, string and char literals by spaces, keeping line breaks (so line numbers stay right). */
export function stripCLike(code: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  return code
    .replace(/R"([^(\s]{0,16})\(([\s\S]*?)\)\1"/g, blank)
    .replace(/"""[\s\S]*?"""/g, blank)
    .replace(/\/\*[\s\S]*?\*\//g, blank)
    .replace(/\/\/[^\n]*/g, blank)
    .replace(/"(?:\\.|[^"\\\n])*"/g, (s) => `"${" ".repeat(Math.max(0, s.length - 2))}"`)
    .replace(/'(?:\\.|[^'\\\n])*'/g, (s) => `'${" ".repeat(Math.max(0, s.length - 2))}'`)
    .replace(/^[ \t]*#[^\n]*/gm, blank);
}

function tokenize(code: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let last = 0;
  for (const m of stripCLike(code).matchAll(/[A-Za-z_$][\w$]*|\d[\w.]*|::|<<|>>|->|[{}();:,.]|[^\s\w]/g)) {
    for (let i = last; i < m.index; i++) if (code.charCodeAt(i) === 10) line++;
    last = m.index;
    out.push({ text: m[0], line, loopDepth: 0, sizeDepth: 0 });
  }
  return out;
}

/** Constant arrays of moves, by their usual names (`dx`, `dirs`, ...): iterating them is a constant factor. */
const DIRECTION_NAMES = /^(dirs?|directions|moves|deltas|offsets|d[xyrc]|dd|DIRS?|D[XYRC])$/;
/** Largest literal loop bound counted as a constant (letters of the alphabet, bits of an int, directions). */
const SMALL_BOUND = 64;

const joined = (ts: readonly Token[]) => ts.map((t) => t.text).join(" ");

/** Splits tokens at top-level occurrences of `sep` (outside parentheses and brackets). */
function splitTop(ts: readonly Token[], sep: string): Token[][] {
  const parts: Token[][] = [[]];
  let level = 0;
  for (const t of ts) {
    if (t.text === "(" || t.text === "[" || t.text === "{") level++;
    else if (t.text === ")" || t.text === "]" || t.text === "}") level--;
    if (level === 0 && t.text === sep) parts.push([]);
    else parts[parts.length - 1]!.push(t);
  }
  return parts;
}

/**
 * Classifies one loop (see LoopKind).
 * @param keyword  `for`, `while` or `do`
 * @param header   the tokens inside the loop's parentheses (the condition for `do … while`)
 * @param body     the loop body's tokens
 */
export function loopKind(keyword: string, header: readonly Token[], body: readonly Token[]): LoopKind {
  if (keyword === "for") {
    const parts = splitTop(header, ";");
    if (parts.length === 3) {
      const cond = joined(parts[1]!);
      const step = joined(parts[2]!);
      // i *= 2, i /= 2, i >>= 1, i <<= 1, i = i * 2; j += i (a sieve: harmonic, n log n overall).
      if (/(\*|\/|>>|<<) =|= \w+ [*/]|\+ = [A-Za-z_]/.test(step)) return "log";
      if (/^\w+ \* \w+ <( =)? /.test(cond)) return "log";
      const bound = /^[A-Za-z_]\w* (?:< =|> =|! =|<|>) (\d+)$/.exec(cond) ?? /^(\d+) (?:< =|> =|! =|<|>) [A-Za-z_]\w*$/.exec(cond);
      if (bound && Number(bound[1]) <= SMALL_BOUND) return "one";
      if (parts[1]!.some((t) => DIRECTION_NAMES.test(t.text))) return "one";
      return "n";
    }
    // A range-for (C++ `for (x : c)`, Java `for (T x : c)`): what it walks decides.
    const colon = splitTop(header, ":");
    const range = colon.length > 1 ? colon[colon.length - 1]! : [];
    if (range[0]?.text === "{") return "one";
    // One element of a container (`adj[u]`, `adj.get(u)`): amortised over the loop that picks the element.
    if (range[range.length - 1]?.text === "]" || /\. get \(/.test(joined(range))) return "amortised";
    if (range.length === 1 && DIRECTION_NAMES.test(range[0]!.text)) return "one";
    return "n";
  }
  // while / do-while
  const cond = joined(splitTop(header, "&&")[0] ?? []);
  if (/\bmid\b|\/( =)? 2\b|>>( =)? 1\b|\/( =)? 10\b/.test(`${joined(header)} ${joined(body)}`)) return "log";
  if (/^! [\w.$ ]*\. (empty|isEmpty) \( \)$|\. size \( \)( > 0| ! = 0)?$/.test(cond)) return "amortised";
  return "n";
}

interface LoopRecord {
  keyword: string;
  line: number;
  parent: number;
  headerStart: number;
  headerEnd: number;
  bodyStart: number;
  bodyEnd: number;
  kind: LoopKind;
  sizeDepth: number;
  logDepth: number;
}

/**
 * @param code  a C++ or Java source
 * @returns the nesting of loops over the input and every token tagged with its loop depths
 * @example analyseLoops("for(int i=0;i<n;i++){ for(int j=0;j<n;j++){} }").maxDepth // 2
 * @example analyseLoops("for(int i=0;i<n;i++){ while(lo<hi){ int mid=(lo+hi)/2; } }") // maxDepth 1, logDepth 1
 */
export function analyseLoops(code: string): LoopShape {
  const tok = tokenize(code);
  const loops: LoopRecord[] = [];
  /** Innermost loop around each token (-1: none). */
  const owner: number[] = new Array(tok.length).fill(-1);
  const stack: number[] = [];
  const at = (i: number) => tok[i]?.text;

  function mark(i: number, depth: number) {
    if (tok[i]) {
      tok[i]!.loopDepth = depth;
      owner[i] = stack.length ? stack[stack.length - 1]! : -1;
    }
  }

  /** Index after the balanced `( … )` starting at i (i must be `(`), tagging tokens with `depth`. */
  function parens(i: number, depth: number): number {
    if (at(i) !== "(") return i;
    let level = 0;
    for (; i < tok.length; i++) {
      mark(i, depth);
      if (at(i) === "(") level++;
      else if (at(i) === ")" && --level === 0) return i + 1;
    }
    return i;
  }

  function openLoop(i: number): number {
    loops.push({
      keyword: tok[i]!.text,
      line: tok[i]!.line,
      parent: stack.length ? stack[stack.length - 1]! : -1,
      headerStart: 0,
      headerEnd: 0,
      bodyStart: 0,
      bodyEnd: 0,
      kind: "n",
      sizeDepth: 0,
      logDepth: 0,
    });
    stack.push(loops.length - 1);
    return loops.length - 1;
  }

  function statement(i: number, depth: number): number {
    const t = at(i);
    if (t === undefined) return i;
    if (t === "{") {
      mark(i, depth);
      i++;
      while (i < tok.length && at(i) !== "}") {
        const next = statement(i, depth);
        i = next > i ? next : i + 1;
      }
      mark(i, depth);
      return i + 1;
    }
    if (t === "for" || t === "while") {
      const d = depth + 1;
      const loop = loops[openLoop(i)]!;
      mark(i, d);
      loop.headerStart = i + 2;
      i = parens(i + 1, d);
      loop.headerEnd = Math.max(loop.headerStart, i - 1);
      loop.bodyStart = i;
      if (at(i) === ";") i = i + 1;
      else i = statement(i, d);
      loop.bodyEnd = i;
      stack.pop();
      return i;
    }
    if (t === "do") {
      const d = depth + 1;
      const loop = loops[openLoop(i)]!;
      mark(i, d);
      loop.bodyStart = i + 1;
      i = statement(i + 1, d);
      loop.bodyEnd = i;
      if (at(i) === "while") {
        loop.headerStart = i + 2;
        i = parens(i + 1, d);
        loop.headerEnd = Math.max(loop.headerStart, i - 1);
      }
      stack.pop();
      return at(i) === ";" ? i + 1 : i;
    }
    if (t === "if" || t === "switch" || t === "catch" || t === "synchronized") {
      mark(i, depth);
      i = statement(parens(i + 1, depth), depth);
      if (at(i) === "else") i = statement(i + 1, depth);
      return i;
    }
    if (t === "else" || t === "try" || t === "finally") return statement(i + 1, depth);
    if (t === "case" || t === "default") {
      for (; i < tok.length && at(i) !== ":" && at(i) !== "->"; i++) mark(i, depth);
      return i + 1;
    }
    // An expression, declaration, function or class: up to `;`, through any blocks
    // (function bodies, lambdas, initialisers), which are walked at the same depth.
    for (; i < tok.length; i++) {
      const s = at(i);
      if (s === ";") {
        mark(i, depth);
        return i + 1;
      }
      if (s === "}") return i;
      if (s === "(") {
        i = parens(i, depth) - 1;
        continue;
      }
      if (s === "{") {
        i = statement(i, depth);
        if (![";", ",", ")", ".", "("].includes(at(i) ?? "")) return i;
        i--;
        continue;
      }
      mark(i, depth);
    }
    return i;
  }

  let i = 0;
  while (i < tok.length) {
    const next = statement(i, 0);
    i = next > i ? next : i + 1;
  }

  // Kinds, then the depths along each chain of nested loops (parents come before their children).
  let best: LoopRecord | null = null;
  for (const loop of loops) {
    loop.kind = loopKind(loop.keyword, tok.slice(loop.headerStart, loop.headerEnd), tok.slice(loop.bodyStart, loop.bodyEnd));
    const parent = loop.parent >= 0 ? loops[loop.parent]! : null;
    const outer = parent?.sizeDepth ?? 0;
    loop.sizeDepth = outer + (loop.kind === "n" || (loop.kind === "amortised" && outer === 0) ? 1 : 0);
    loop.logDepth = (parent?.logDepth ?? 0) + (loop.kind === "log" ? 1 : 0);
    if (!best || loop.sizeDepth > best.sizeDepth || (loop.sizeDepth === best.sizeDepth && loop.logDepth > best.logDepth)) best = loop;
  }
  tok.forEach((t, k) => {
    if (owner[k]! >= 0) t.sizeDepth = loops[owner[k]!]!.sizeDepth;
  });
  // The innermost loop of that chain that adds a size factor.
  const addsSize = (l: LoopRecord) => l.kind === "n" || (l.kind === "amortised" && l.sizeDepth === 1);
  let deepest: LoopRecord | null = best;
  while (deepest && !addsSize(deepest)) deepest = deepest.parent >= 0 ? loops[deepest.parent]! : null;
  return {
    maxDepth: best?.sizeDepth ?? 0,
    logDepth: best?.logDepth ?? 0,
    deepestLine: best && best.sizeDepth > 0 ? (deepest?.line ?? null) : null,
    tokens: tok,
  };
}

/** Source lines (sorted, unique) where a token matching `pred` sits inside a loop. */
export function linesInLoops(shape: LoopShape, pred: (t: Token, i: number) => boolean): number[] {
  const lines = new Set<number>();
  shape.tokens.forEach((t, i) => {
    if (t.loopDepth > 0 && pred(t, i)) lines.add(t.line);
  });
  return [...lines].sort((a, b) => a - b);
}
