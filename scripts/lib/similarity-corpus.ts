/**
 * A synthetic corpus for the similarity benchmark: C++ programs of about 150
 * lines built from random statements (so independent programs differ the way
 * independent solutions do, while sharing the input-reading skeleton and the
 * boilerplate), and planted copies rendered from the same program with every
 * disguise the accuracy tests name: identifiers renamed, functions reordered,
 * comments and whitespace changed, dead code inserted, a `for` loop written as
 * a `while` loop. Deterministic for a seed (mulberry32).
 */

/** mulberry32: a small seeded PRNG (public domain, Tommy Ettinger). @returns numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Stmt =
  | { k: "let"; v: number; e: string }
  | { k: "for"; body: Stmt[] }
  | { k: "if"; c: string; then: Stmt[]; else: Stmt[] }
  | { k: "while"; v: number; d: number }
  | { k: "acc"; e: string }
  | { k: "sort" }
  | { k: "call"; f: number; v: number }
  | { k: "max"; v: number; e: string }
  | { k: "compound"; v: number; op: string; e: string }
  | { k: "when"; c: string; then: Stmt[] }
  | { k: "swap"; v: number; w: number };

interface Program {
  fns: { body: Stmt[]; ret: string }[];
}

const OPS = ["+", "-", "*", "^", "%", "&", "|"];

function expr(r: () => number, depth = 0): string {
  const leaf = () => (r() < 0.5 ? `v${Math.floor(r() * 4)}` : r() < 0.5 ? `a[i % n]` : String(1 + Math.floor(r() * 97)));
  if (depth > 1 || r() < 0.35) return leaf();
  const op = OPS[Math.floor(r() * OPS.length)]!;
  const rhs = op === "%" ? String(2 + Math.floor(r() * 50)) : expr(r, depth + 1);
  return `(${expr(r, depth + 1)} ${op} ${rhs})`;
}

function stmts(r: () => number, count: number, depth: number, fnIndex: number): Stmt[] {
  const out: Stmt[] = [];
  for (let s = 0; s < count; s++) {
    const x = r();
    if (depth < 2 && x < 0.2) out.push({ k: "for", body: stmts(r, 2 + Math.floor(r() * 3), depth + 1, fnIndex) });
    else if (depth < 2 && x < 0.35) out.push({ k: "if", c: `${expr(r)} > ${expr(r)}`, then: stmts(r, 1 + Math.floor(r() * 2), depth + 1, fnIndex), else: stmts(r, 1, depth + 1, fnIndex) });
    else if (x < 0.45) out.push({ k: "while", v: Math.floor(r() * 4), d: 2 + Math.floor(r() * 9) });
    else if (x < 0.6) out.push({ k: "acc", e: expr(r) });
    else if (x < 0.65) out.push({ k: "sort" });
    else if (x < 0.7 && fnIndex > 0) out.push({ k: "call", f: Math.floor(r() * fnIndex), v: Math.floor(r() * 4) });
    else if (x < 0.76) out.push({ k: "max", v: Math.floor(r() * 4), e: expr(r) });
    else if (x < 0.84) out.push({ k: "compound", v: Math.floor(r() * 4), op: ["+=", "-=", "*=", "^=", "|="][Math.floor(r() * 5)]!, e: expr(r) });
    else if (depth < 2 && x < 0.9) out.push({ k: "when", c: `${expr(r)} == ${expr(r)}`, then: stmts(r, 1 + Math.floor(r() * 2), depth + 1, fnIndex) });
    else if (x < 0.93) out.push({ k: "swap", v: Math.floor(r() * 4), w: Math.floor(r() * 4) });
    else out.push({ k: "let", v: Math.floor(r() * 4), e: expr(r) });
  }
  return out;
}

/** A random program of `fns` functions (about 150 lines at 4). */
export function randomProgram(seed: number, fns = 4): Program {
  const r = prng(seed);
  return { fns: Array.from({ length: fns }, (_, f) => ({ body: stmts(r, 5 + Math.floor(r() * 3), 0, f), ret: expr(r) })) };
}

/** How a program is written out: names, order, loop form, comments, dead code. */
export interface Style {
  /** Name of function f and of variable v (0..3), and of the loop index. */
  fn: (f: number) => string;
  v: (v: number) => string;
  i: string;
  /** Function order (a permutation of indices; callees must come first in C++, so prototypes are written). */
  order: number[];
  /** Which `for` loops (counted in writing order from 0) are written as `while` loops. */
  whileLoops: ReadonlySet<number>;
  /** Comments above each function, or none. */
  comments: boolean;
  /** Functions that get unused statements after their first line. */
  deadCode: ReadonlySet<number>;
  indent: string;
}

export const PLAIN: Style = { fn: (f) => `f${f}`, v: (v) => `v${v}`, i: "i", order: [], whileLoops: new Set(), comments: true, deadCode: new Set(), indent: "    " };

/** A disguise of `PLAIN`: renamed, reordered, loops rewritten, other comments, dead code, other indentation. */
export function disguise(seed: number, fns = 4): Style {
  const r = prng(seed ^ 0x5eed);
  const order = Array.from({ length: fns }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const words = ["total", "acc", "best", "cur", "tmp", "res", "val", "sum"];
  return {
    fn: (f) => `helper_${String.fromCharCode(97 + (f % 26))}${f}`,
    v: (v) => words[(v + seed) % words.length]! + v,
    i: "idx",
    order,
    whileLoops: new Set([Math.floor(r() * 3)]),
    comments: false,
    deadCode: new Set([Math.floor(r() * fns)]),
    indent: "  ",
  };
}

function rename(e: string, s: Style): string {
  return e.replace(/\bv(\d)\b/g, (_, d) => s.v(Number(d))).replace(/\ba\[i % n\]/g, `a[${s.i} % n]`);
}

function renderStmts(list: Stmt[], s: Style, pad: string, out: string[], loops = { n: 0 }): void {
  for (const st of list) {
    switch (st.k) {
      case "let":
        out.push(`${pad}${s.v(st.v)} = ${rename(st.e, s)};`);
        break;
      case "acc":
        out.push(`${pad}a[${s.i} % n] += ${rename(st.e, s)};`);
        break;
      case "max":
        out.push(`${pad}${s.v(st.v)} = max(${s.v(st.v)}, ${rename(st.e, s)});`);
        break;
      case "compound":
        out.push(`${pad}${s.v(st.v)} ${st.op} ${rename(st.e, s)};`);
        break;
      case "swap":
        out.push(`${pad}swap(${s.v(st.v)}, ${s.v(st.w)});`);
        break;
      case "when":
        out.push(`${pad}if (${rename(st.c, s)}) {`);
        renderStmts(st.then, s, pad + s.indent, out, loops);
        out.push(`${pad}}`);
        break;
      case "sort":
        out.push(`${pad}sort(a.begin(), a.end());`);
        break;
      case "while":
        out.push(`${pad}while (${s.v(st.v)} > ${st.d}) {`, `${pad}${s.indent}${s.v(st.v)} /= ${st.d};`, `${pad}}`);
        break;
      case "call":
        out.push(`${pad}${s.v(st.v)} += ${s.fn(st.f)}(a, n);`);
        break;
      case "if":
        out.push(`${pad}if (${rename(st.c, s)}) {`);
        renderStmts(st.then, s, pad + s.indent, out, loops);
        out.push(`${pad}} else {`);
        renderStmts(st.else, s, pad + s.indent, out, loops);
        out.push(`${pad}}`);
        break;
      case "for":
        if (s.whileLoops.has(loops.n++)) {
          out.push(`${pad}${s.i} = 0;`, `${pad}while (${s.i} < n) {`);
          renderStmts(st.body, s, pad + s.indent, out, loops);
          out.push(`${pad}${s.indent}${s.i}++;`, `${pad}}`);
        } else {
          out.push(`${pad}for (${s.i} = 0; ${s.i} < n; ${s.i}++) {`);
          renderStmts(st.body, s, pad + s.indent, out, loops);
          out.push(`${pad}}`);
        }
        break;
    }
  }
}

/** The program as C++ source in `style`. */
export function render(p: Program, style: Style = PLAIN): string {
  const order = style.order.length ? style.order : p.fns.map((_, i) => i);
  const out = ["#include <bits/stdc++.h>", "using namespace std;", ""];
  for (const f of order) out.push(`long long ${style.fn(f)}(vector<long long>& a, long long n);`);
  out.push("");
  const loops = { n: 0 };
  for (const f of order) {
    const fn = p.fns[f]!;
    if (style.comments) out.push(`// step ${f}: combine the values`);
    out.push(`long long ${style.fn(f)}(vector<long long>& a, long long n) {`);
    const pad = style.indent;
    out.push(`${pad}long long ${[0, 1, 2, 3].map((v) => `${style.v(v)} = ${v}`).join(", ")}, ${style.i} = 0;`);
    if (style.deadCode.has(f)) out.push(`${pad}long long unused_${f} = n * 2;`, `${pad}if (unused_${f} < 0) { unused_${f} = -unused_${f}; }`);
    renderStmts(fn.body, style, pad, out, loops);
    out.push(`${pad}return ${rename(fn.ret, style)};`, "}", "");
  }
  out.push(
    "int main() {",
    `${style.indent}long long n;`,
    `${style.indent}cin >> n;`,
    `${style.indent}vector<long long> a(n);`,
    `${style.indent}for (auto& x : a) cin >> x;`,
    `${style.indent}long long answer = 0;`,
    ...order.map((f) => `${style.indent}answer ^= ${style.fn(f)}(a, n);`),
    `${style.indent}cout << answer << endl;`,
    `${style.indent}return 0;`,
    "}",
  );
  return out.join("\n") + "\n";
}
