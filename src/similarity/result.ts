/**
 * What a report's row stores: its input (the options and the programs
 * chosen when it was asked for) and, once done, its result (the analysis
 * reduced to what the pages read: pairs kept, the histogram, the threshold).
 */
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { Analysis, EngineOptions, GroupSummary, PairSummary, Template } from "./engine.ts";
import type { Pick, ProgramMeta } from "./selection.ts";
import { coarseHistogram, suggestThreshold, FINE_BINS } from "./threshold.ts";

/** Bins of the stored display histogram (0.02 wide). */
export const HISTOGRAM_BINS = 50;

/** A report's input, as asked for. */
export interface StoredInput {
  pick: Pick;
  against: "none" | "past";
  /** The instructor's starter code, ignored like the boilerplate. */
  starterCode: Template[];
  engine: EngineOptions;
  programs: ProgramMeta[];
}

/** A report's result. */
export interface StoredResult {
  groups: (Omit<GroupSummary, "languages"> & { languages: LanguageId[] })[];
  notCompared: Analysis["notCompared"];
  pairsTotal: number;
  pairs: PairSummary[];
  /** Pairs per similarity bin, HISTOGRAM_BINS bins over [0, 1]. */
  histogram: number[];
  /** Mean similarity over all pairs compared. */
  mean: number;
  /** Dolos's suggested threshold (./threshold.ts). */
  threshold: number;
  best: Analysis["best"];
  tokenizeMs: number;
  totalMs: number;
}

/** The analysis as stored. */
export function storeResult(a: Analysis): StoredResult {
  let n = 0;
  let sum = 0;
  a.fine.forEach((count, i) => {
    n += count;
    sum += count * ((i + 0.5) / FINE_BINS);
  });
  return {
    groups: a.groups,
    notCompared: a.notCompared,
    pairsTotal: a.pairsTotal,
    pairs: a.pairs,
    histogram: coarseHistogram(a.fine, HISTOGRAM_BINS),
    mean: n ? sum / n : 0,
    threshold: suggestThreshold(a.fine),
    best: a.best,
    tokenizeMs: Math.round(a.tokenizeMs),
    totalMs: Math.round(a.totalMs),
  };
}

/** A pair's id in URLs: the two submission ids, the earlier first. */
export function pairIdOf(p: { left: string; right: string }): string {
  return `${p.left}-${p.right}`;
}
