/**
 * A small structural reader for C++ and Java sources: strips comments,
 * strings and preprocessor lines, then walks statements to find how deeply
 * loops nest and which tokens sit inside a loop. Not a compiler: it knows
 * `for`/`while`/`do`/`if`/`switch`/blocks, which is enough to answer "are
 * there nested loops, and is `endl` printed in one".
 */

export interface Token {
  text: string;
  /** 1-based source line. */
  line: number;
  /** How many loops enclose this token (a loop keyword counts itself). */
  loopDepth: number;
}

export interface LoopShape {
  /** Deepest loop nesting found (0 = no loops). */
  maxDepth: number;
  /** Line of the innermost loop of the deepest nest. */
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
    out.push({ text: m[0], line, loopDepth: 0 });
  }
  return out;
}

/**
 * @param code  a C++ or Java source
 * @returns the loop nesting and every token tagged with its loop depth
 * @example analyseLoops("for(;;){ for(;;){} }").maxDepth // 2
 */
export function analyseLoops(code: string): LoopShape {
  const tok = tokenize(code);
  let maxDepth = 0;
  let deepestLine: number | null = null;
  const at = (i: number) => tok[i]?.text;

  function mark(i: number, depth: number) {
    if (tok[i]) tok[i]!.loopDepth = depth;
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
      if (d > maxDepth) {
        maxDepth = d;
        deepestLine = tok[i]!.line;
      }
      mark(i, d);
      i = parens(i + 1, d);
      if (at(i) === ";") return i + 1;
      return statement(i, d);
    }
    if (t === "do") {
      const d = depth + 1;
      if (d > maxDepth) {
        maxDepth = d;
        deepestLine = tok[i]!.line;
      }
      mark(i, d);
      i = statement(i + 1, d);
      if (at(i) === "while") i = parens(i + 1, d);
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
  return { maxDepth, deepestLine, tokens: tok };
}

/** Source lines (sorted, unique) where a token matching `pred` sits inside a loop. */
export function linesInLoops(shape: LoopShape, pred: (t: Token, i: number) => boolean): number[] {
  const lines = new Set<number>();
  shape.tokens.forEach((t, i) => {
    if (t.loopDepth > 0 && pred(t, i)) lines.add(t.line);
  });
  return [...lines].sort((a, b) => a - b);
}
