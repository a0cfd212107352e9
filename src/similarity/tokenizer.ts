/**
 * Programs as token streams, the way Dolos tokenizes them
 * (dodona-edu/dolos, lib/src/lib/tokenizer/codeTokenizer.ts): the parse tree's
 * named nodes in pre-order, each written as `(`, its type, its children, `)`,
 * so a token stream keeps the program's structure and loses its names,
 * literals, comments and layout. Comments (any node type containing
 * "comment") are skipped. Each token maps to a source region: the node's
 * start up to where its first named child starts (the part of the source the
 * node has to itself), which is what the side-by-side view highlights.
 *
 * Parsing is `web-tree-sitter` on the grammars of ./grammars.ts; a grammar is
 * loaded once per process (or worker) and reused.
 */
import { File, Region, TokenizedFile } from "@dodona/dolos-core";
import { Language, Parser } from "web-tree-sitter";
import type { LanguageId } from "../../isolate/languages/index.ts";
import { GRAMMARS, RUNTIME_WASM_PATH, type Grammar } from "./grammars.ts";

let runtime: Promise<void> | null = null;
const parsers = new Map<string, Promise<Parser>>();

/** A parser for `grammar`, made once. @throws when the .wasm cannot be loaded (a broken install). */
export function parserFor(grammar: Grammar): Promise<Parser> {
  runtime ??= Parser.init({ locateFile: () => RUNTIME_WASM_PATH });
  let parser = parsers.get(grammar.name);
  if (!parser) {
    parser = (async () => {
      await runtime;
      const language = await Language.load(new Uint8Array(await Bun.file(grammar.wasmPath).arrayBuffer()));
      const p = new Parser();
      p.setLanguage(language);
      return p;
    })();
    parsers.set(grammar.name, parser);
  }
  return parser;
}

/** A token stream: `tokens[i]` covers `regions[i]` (rows and columns from 0). */
export interface Tokens {
  tokens: string[];
  regions: Region[];
}

/**
 * Tokenizes `code` with a loaded parser. Never throws on bad code: a program
 * that does not parse still yields its tree (with ERROR nodes), as Dolos does.
 */
export function tokenizeWith(parser: Parser, code: string): Tokens {
  const tree = parser.parse(code);
  if (!tree) return { tokens: [], regions: [] };
  const tokens: string[] = [];
  const regions: Region[] = [];
  const cursor = tree.walk();
  // Per depth: the region of the open node (null for a node that emitted nothing), and whether a named child narrowed it.
  const open: (Region | null)[] = [];
  const narrowed: boolean[] = [];
  try {
    let descending = true;
    for (;;) {
      if (descending) {
        let region: Region | null = null;
        if (cursor.nodeIsNamed) {
          const start = cursor.startPosition;
          // A named child (a comment too, as in Dolos) ends its parent's own part where it starts.
          for (let d = open.length - 1; d >= 0; d--) {
            const parent = open[d];
            if (parent) {
              if (!narrowed[d]) {
                parent.endRow = start.row;
                parent.endCol = start.column;
                narrowed[d] = true;
              }
              break;
            }
          }
          if (!cursor.nodeType.includes("comment")) {
            const end = cursor.endPosition;
            region = new Region(start.row, start.column, end.row, end.column);
            tokens.push("(", cursor.nodeType);
            regions.push(region, region);
          }
        }
        open.push(region);
        narrowed.push(false);
        if (region !== null || !cursor.nodeIsNamed) {
          if (cursor.gotoFirstChild()) continue;
        }
      }
      const region = open.pop()!;
      narrowed.pop();
      if (region) {
        tokens.push(")");
        regions.push(region);
      }
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descending = false;
    }
  } finally {
    cursor.delete();
    tree.delete();
  }
  return { tokens, regions };
}

/**
 * Tokenizes one program as a dolos-core file.
 * @param path a name for the file (the submission id), shown nowhere.
 * @returns the tokenized file, or null when `language` has no grammar here.
 */
export async function tokenizeProgram(path: string, language: LanguageId, code: string, grammars: Partial<Record<LanguageId, Grammar>> = GRAMMARS): Promise<TokenizedFile | null> {
  const grammar = grammars[language];
  if (!grammar) return null;
  const { tokens, regions } = tokenizeWith(await parserFor(grammar), code);
  return new TokenizedFile(new File(path, code), tokens, regions);
}
