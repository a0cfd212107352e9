/**
 * The similarity engine: programs in, pairs out. Tokens come from
 * ./tokenizer.ts; fingerprints (k-grams of tokens, winnowed), pairs and
 * fragments come from Dolos's engine, `@dodona/dolos-core`'s FingerprintIndex
 * and Pair (similarity = (left covered + right covered) / (left total + right
 * total), in winnowed fingerprints, the totals less ignored ones; overlap = covered fingerprints of
 * both; longest = the longest run of consecutive shared fingerprints).
 *
 * Programs are compared only within their problem and grammar: a solution to
 * problem A never meets one to problem B (decision 057: an "all problems"
 * report had paired them), a C++ program never meets a Java one, nor C unless
 * `crossLanguage` (then C is parsed with C++'s grammar).
 * Template code (the language's boilerplate and the instructor's starter code)
 * is an ignored file of the index, as Dolos's `--template`; a fingerprint in
 * more than `maxShare` of a group's programs is ignored as well, as Dolos's
 * `--max-fingerprint-percentage` (from MAX_SHARE_FROM programs on; below that a
 * share means little and would hide a copy among three).
 * Past programs (earlier offerings) are compared with current ones only.
 *
 * Runs synchronously (call it in a worker: ./worker.ts); `onProgress` hears
 * the share done.
 */
import { FingerprintIndex, type SharedFingerprint, type TokenizedFile } from "@dodona/dolos-core";
import type { LanguageId } from "../../isolate/languages/index.ts";
import { CROSS_LANGUAGE_GRAMMAR, GRAMMARS, type Grammar } from "./grammars.ts";
import { fineBin, FINE_BINS } from "./threshold.ts";
import { tokenizeProgram } from "./tokenizer.ts";

/** Engine settings. Defaults are Dolos's (k-gram 23 tokens, window 17) unless docs/benchmarks.md says why not. */
export interface EngineOptions {
  /** Tokens per k-gram. */
  kgramLength: number;
  /** K-grams per winnowing window. */
  windowLength: number;
  /** A fingerprint in more than this share of a group's programs is ignored (0..1]. */
  maxShare: number;
  /** Compare C with C++ (through C++'s grammar). */
  crossLanguage: boolean;
  /** Pairs kept in the result, most similar first (the histogram counts all). */
  pairsKept: number;
}

export const DEFAULT_ENGINE: EngineOptions = { kgramLength: 23, windowLength: 17, maxShare: 0.5, crossLanguage: false, pairsKept: 1000 };

/** The max-share rule applies from this many programs in a group on. */
export const MAX_SHARE_FROM = 10;

export interface Program {
  /** The submission id. */
  id: string;
  language: LanguageId;
  code: string;
  /** From an earlier offering: compared with current programs only. */
  past: boolean;
  /** The problem it solves: compared only with programs of the same problem (absent: one problem). */
  problemId?: string;
}

/** Code to ignore: a language's boilerplate or the instructor's starter code. */
export interface Template {
  language: LanguageId;
  code: string;
}

/** One compared pair (left is the earlier of the two in the order given). */
export interface PairSummary {
  left: string;
  right: string;
  /** 0..1 */
  similarity: number;
  /** Shared fingerprints covered, both sides together. */
  overlap: number;
  /** Longest common fragment, in consecutive fingerprints. */
  longest: number;
  leftCovered: number;
  rightCovered: number;
  /** Fingerprints (k-gram occurrences) of each side, ignored ones not counted. */
  leftTotal: number;
  rightTotal: number;
}

/** One problem's programs of one grammar, compared among themselves. */
export interface GroupSummary {
  grammar: Grammar["name"];
  /** The programs' problem; null when the programs named none. */
  problemId: string | null;
  languages: LanguageId[];
  programs: number;
  /** Fingerprints ignored for being in more than the max share (needed to rebuild a pair's fragments). */
  ignoredHashes: number[];
}

export interface Analysis {
  groups: GroupSummary[];
  /** Programs not compared, and why (no grammar for the language). */
  notCompared: { id: string; language: LanguageId; why: string }[];
  /** Pairs compared in all. */
  pairsTotal: number;
  /** The `pairsKept` most similar pairs. */
  pairs: PairSummary[];
  /** Every compared pair's similarity in FINE_BINS bins (./threshold.ts). */
  fine: number[];
  /** Per current program: its most similar partner. */
  best: Record<string, { similarity: number; with: string }>;
  /** Wall time of tokenizing and of the whole analysis, ms. */
  tokenizeMs: number;
  totalMs: number;
}

export type Progress = (done: number, phase: "tokenizing" | "comparing") => void;

/** The grammar each language is parsed with under `options` (C with C++ when crossLanguage). */
export function grammarsFor(options: EngineOptions): Partial<Record<LanguageId, Grammar>> {
  return options.crossLanguage ? { ...GRAMMARS, ...CROSS_LANGUAGE_GRAMMAR } : GRAMMARS;
}

/**
 * Builds one group's index: its programs, the max share, then its templates as
 * ignored files. The max share is applied once after every file is in: given
 * to the constructor, dolos-core re-ignores a popular fingerprint for every
 * further file that has it, walking all its files each time (9.8 s against
 * 1.7 s for 1,000 programs).
 */
function buildIndex(files: TokenizedFile[], templates: TokenizedFile[], options: EngineOptions): FingerprintIndex {
  const index = new FingerprintIndex(options.kgramLength, options.windowLength, false);
  index.addFiles(files);
  if (files.length >= MAX_SHARE_FROM) index.updateMaxFingerprintFileCount(Math.max(2, options.maxShare * files.length));
  for (const t of templates) index.addIgnoredFile(t);
  return index;
}

/**
 * A file's fingerprints as sorted integer ids with their occurrence counts,
 * for intersecting two files by a merge (O(a + b)) instead of dolos-core's Pair
 * (a Set lookup per fingerprint plus object work: 28.5 s against 1.2 s for
 * 519,690 pairs of 1,020 programs, docs/benchmarks.md). The numbers are
 * Pair's: covered = occurrences of the fingerprints both files share.
 */
interface Profile {
  file: TokenizedFile;
  ids: Int32Array;
  counts: Int32Array;
  /** K-grams in the file, less the occurrences of ignored fingerprints. */
  counted: number;
}

/**
 * Each file's profile. The similarity's denominator subtracts ignored k-gram
 * occurrences; dolos-core 1.2.1's Pair subtracts the count of distinct ignored
 * fingerprints instead, and the left file's for both sides (`rightIgnored =
 * leftEntry.ignored.size`): with a template line repeated in a file, or a
 * common idiom, that halved a disguised copy's similarity here
 * (docs/decisions/042).
 */
function profiles(index: FingerprintIndex): Map<TokenizedFile, Profile> {
  const idOf = new Map<SharedFingerprint, number>();
  const out = new Map<TokenizedFile, Profile>();
  for (const entry of index.entries()) {
    const shared = [...entry.shared].map((f) => {
      let id = idOf.get(f);
      if (id === undefined) idOf.set(f, (id = idOf.size));
      return { id, count: f.occurrencesOf(entry.file).length };
    });
    shared.sort((a, b) => a.id - b.id);
    let ignored = 0;
    for (const f of entry.ignored) ignored += f.occurrencesOf(entry.file).length;
    out.set(entry.file, {
      file: entry.file,
      ids: Int32Array.from(shared, (s) => s.id),
      counts: Int32Array.from(shared, (s) => s.count),
      counted: entry.kgrams.length - ignored,
    });
  }
  return out;
}

function summary(a: Profile, b: Profile): PairSummary {
  let i = 0;
  let j = 0;
  let leftCovered = 0;
  let rightCovered = 0;
  const x = a.ids;
  const y = b.ids;
  while (i < x.length && j < y.length) {
    const u = x[i]!;
    const v = y[j]!;
    if (u === v) {
      leftCovered += a.counts[i++]!;
      rightCovered += b.counts[j++]!;
    } else if (u < v) i++;
    else j++;
  }
  const counted = a.counted + b.counted;
  return {
    left: a.file.path,
    right: b.file.path,
    similarity: counted > 0 ? Math.min(1, (leftCovered + rightCovered) / counted) : 0,
    overlap: leftCovered + rightCovered,
    longest: 0,
    leftCovered,
    rightCovered,
    leftTotal: a.counted,
    rightTotal: b.counted,
  };
}

/**
 * Compares `programs` (in the order given: put earlier submissions first).
 * @throws never for bad code (it still parses, with error nodes); throws when a grammar's .wasm is missing (a broken install).
 */
export async function analyse(
  programs: readonly Program[],
  templates: readonly Template[],
  options: EngineOptions = DEFAULT_ENGINE,
  onProgress: Progress = () => {},
  grammars: Partial<Record<LanguageId, Grammar>> = grammarsFor(options),
): Promise<Analysis> {
  const started = performance.now();
  const notCompared: Analysis["notCompared"] = [];
  const byGrammar = new Map<string, { grammar: Grammar; problemId: string | null; files: TokenizedFile[]; past: Set<string>; languages: Set<LanguageId> }>();
  let done = 0;
  for (const program of programs) {
    const grammar = grammars[program.language];
    const file = grammar ? await tokenizeProgram(program.id, program.language, program.code, grammars) : null;
    if (!grammar || !file) {
      notCompared.push({ id: program.id, language: program.language, why: `no grammar for ${program.language} on this server` });
    } else {
      const key = `${program.problemId ?? ""}\u0000${grammar.name}`;
      const group = byGrammar.get(key) ?? { grammar, problemId: program.problemId ?? null, files: [], past: new Set(), languages: new Set() };
      group.files.push(file);
      group.languages.add(program.language);
      if (program.past) group.past.add(program.id);
      byGrammar.set(key, group);
    }
    if (++done % 25 === 0) onProgress((0.4 * done) / programs.length, "tokenizing");
  }
  const tokenizeMs = performance.now() - started;

  const fine = new Array<number>(FINE_BINS).fill(0);
  const kept: PairSummary[] = [];
  const best: Analysis["best"] = {};
  const groups: GroupSummary[] = [];
  let pairsTotal = 0;
  const totalPairs = [...byGrammar.values()].reduce((s, g) => s + (g.files.length * (g.files.length - 1)) / 2, 0);
  let compared = 0;
  let floor = -1; // the lowest similarity still kept once `kept` is full
  for (const group of byGrammar.values()) {
    const tokenizedTemplates: TokenizedFile[] = [];
    for (const t of templates) {
      if (grammars[t.language]?.name !== group.grammar.name) continue;
      const file = await tokenizeProgram(`template:${tokenizedTemplates.length}`, t.language, t.code, grammars);
      if (file) tokenizedTemplates.push(file);
    }
    const index = buildIndex(group.files, tokenizedTemplates, options);
    groups.push({
      grammar: group.grammar.name,
      problemId: group.problemId,
      languages: [...group.languages],
      programs: group.files.length,
      ignoredHashes: index
        .sharedFingerprints()
        .filter((s) => s.ignored && !s.files().some((f) => tokenizedTemplates.includes(f)))
        .map((s) => s.hash),
    });
    const files = group.files;
    const byFile = profiles(index);
    for (let i = 0; i < files.length; i++) {
      for (let j = i + 1; j < files.length; j++) {
        compared++;
        if (group.past.has(files[i]!.path) && group.past.has(files[j]!.path)) continue;
        const s = summary(byFile.get(files[i]!)!, byFile.get(files[j]!)!);
        pairsTotal++;
        fine[fineBin(s.similarity)]!++;
        keepBest(best, group.past, s.left, s.right, s.similarity);
        keepBest(best, group.past, s.right, s.left, s.similarity);
        if (s.similarity > floor) {
          kept.push(s);
          if (kept.length >= options.pairsKept * 2) {
            kept.sort(bySimilarity);
            kept.length = options.pairsKept;
            floor = kept[kept.length - 1]!.similarity;
          }
        }
      }
      onProgress(0.4 + (0.6 * compared) / Math.max(1, totalPairs), "comparing");
    }
    // The longest common fragment, from dolos-core's Pair, for this group's pairs still kept.
    const fileOf = new Map(files.map((f) => [f.path, f]));
    kept.sort(bySimilarity);
    if (kept.length > options.pairsKept) kept.length = options.pairsKept;
    floor = kept.length >= options.pairsKept ? kept[kept.length - 1]!.similarity : -1;
    for (let k = 0; k < kept.length; k++) {
      const s = kept[k]!;
      const a = fileOf.get(s.left);
      const b = fileOf.get(s.right);
      if (a && b && s.longest === 0 && s.overlap > 0) s.longest = index.getPair(a, b).longest;
    }
  }
  kept.sort(bySimilarity);
  if (kept.length > options.pairsKept) kept.length = options.pairsKept;
  return { groups, notCompared, pairsTotal, pairs: kept, fine, best, tokenizeMs, totalMs: performance.now() - started };
}

/** Records `other` as `me`'s most similar partner when it beats the one held (current programs only). */
function keepBest(best: Analysis["best"], past: Set<string>, me: string, other: string, similarity: number): void {
  if (past.has(me)) return;
  const held = best[me];
  if (!held || similarity > held.similarity) best[me] = { similarity, with: other };
}

function bySimilarity(a: PairSummary, b: PairSummary): number {
  return b.similarity - a.similarity || b.longest - a.longest || a.left.localeCompare(b.left) || a.right.localeCompare(b.right);
}

/** A matched fragment: the same code (as tokens) on both sides, rows and columns from 0, end exclusive. */
export interface FragmentView {
  left: { startRow: number; startCol: number; endRow: number; endCol: number };
  right: { startRow: number; startCol: number; endRow: number; endCol: number };
  /** Consecutive shared fingerprints in it. */
  length: number;
}

/**
 * The fragments two programs share, as the report saw them: the same
 * templates ignored and the same over-shared fingerprints (`ignoredHashes`
 * from the report's group) left out. Longest first.
 */
export async function pairFragments(left: Program, right: Program, templates: readonly Template[], ignoredHashes: readonly number[], options: EngineOptions = DEFAULT_ENGINE): Promise<FragmentView[]> {
  const grammars = grammarsFor(options);
  const grammar = grammars[left.language];
  if (!grammar || grammars[right.language]?.name !== grammar.name) return [];
  const a = await tokenizeProgram(left.id, left.language, left.code, grammars);
  const b = await tokenizeProgram(right.id, right.language, right.code, grammars);
  if (!a || !b) return [];
  const ignored: TokenizedFile[] = [];
  for (const t of templates) {
    if (grammars[t.language]?.name !== grammar.name) continue;
    const f = await tokenizeProgram(`template:${ignored.length}`, t.language, t.code, grammars);
    if (f) ignored.push(f);
  }
  const index = new FingerprintIndex(options.kgramLength, options.windowLength, false);
  index.addFiles([a, b]);
  for (const f of ignored) index.addIgnoredFile(f);
  index.addIgnoredHashes([...ignoredHashes]);
  const region = (r: { startRow: number; startCol: number; endRow: number; endCol: number }) => ({ startRow: r.startRow, startCol: r.startCol, endRow: r.endRow, endCol: r.endCol });
  return index
    .getPair(a, b)
    .buildFragments()
    .map((f) => ({ left: region(f.leftSelection), right: region(f.rightSelection), length: f.pairs.length }))
    .sort((x, y) => y.length - x.length || x.left.startRow - y.left.startRow);
}
