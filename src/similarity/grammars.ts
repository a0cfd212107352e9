/**
 * The tree-sitter grammars the similarity tokenizer parses with, one per judge
 * language: the WebAssembly builds shipped inside each grammar's npm package,
 * loaded by `web-tree-sitter` (no native build; imported `with { type: "file" }`
 * so the single binary embeds them). PyPy is Python; C and C++ have grammars of
 * their own (compared together only when a report asks for it, through C++'s).
 *
 * Versions are pinned in package.json: a grammar's ABI must match the
 * web-tree-sitter runtime (0.25.x loads all of these; checked in the spike of
 * issue 22 and by src/similarity/tokenizer.test.ts).
 */
import cWasm from "tree-sitter-c/tree-sitter-c.wasm" with { type: "file" };
import cppWasm from "tree-sitter-cpp/tree-sitter-cpp.wasm" with { type: "file" };
import goWasm from "tree-sitter-go/tree-sitter-go.wasm" with { type: "file" };
import javaWasm from "tree-sitter-java/tree-sitter-java.wasm" with { type: "file" };
import jsWasm from "tree-sitter-javascript/tree-sitter-javascript.wasm" with { type: "file" };
import pythonWasm from "tree-sitter-python/tree-sitter-python.wasm" with { type: "file" };
import rustWasm from "tree-sitter-rust/tree-sitter-rust.wasm" with { type: "file" };
import runtimeWasm from "web-tree-sitter/tree-sitter.wasm" with { type: "file" };
import type { LanguageId } from "../../isolate/languages/index.ts";

/** A grammar: its name (shown in reports) and where its .wasm is. */
export interface Grammar {
  name: "c" | "cpp" | "go" | "java" | "javascript" | "python" | "rust";
  wasmPath: string;
}

const C: Grammar = { name: "c", wasmPath: cWasm };
const CPP: Grammar = { name: "cpp", wasmPath: cppWasm };
const PYTHON: Grammar = { name: "python", wasmPath: pythonWasm };

/**
 * The grammar of each judge language; a language missing here (none today, but
 * a new language may come without one) is reported as not compared, never
 * compared as plain text.
 */
export const GRAMMARS: Partial<Record<LanguageId, Grammar>> = {
  c: C,
  cpp: CPP,
  java: { name: "java", wasmPath: javaWasm },
  py: PYTHON,
  pypy: PYTHON,
  js: { name: "javascript", wasmPath: jsWasm },
  go: { name: "go", wasmPath: goWasm },
  rust: { name: "rust", wasmPath: rustWasm },
};

/** The grammar C programs use when a report compares C with C++ (C++'s grammar parses C). */
export const CROSS_LANGUAGE_GRAMMAR: Partial<Record<LanguageId, Grammar>> = { c: CPP };

/** web-tree-sitter's own runtime (.wasm). */
export const RUNTIME_WASM_PATH: string = runtimeWasm;
