/**
 * The similarity histogram, the suggested threshold and clusters: pure, so
 * the report page recomputes clusters as the threshold slider moves.
 *
 * The suggested threshold follows Dolos's method (dodona-edu/dolos,
 * web/src/api/utils/cutoff.ts, guessSimilarityThreshold): pair similarities
 * in overlapping bins of 0.03, the local minima of those counts, each weighted
 * by (√count + 1) times a parabola that is lowest at 0.8 (copies usually sit
 * between 0.6 and 0.85), the lightest one chosen, and never below the mean
 * similarity. Where the counts have no local minimum (Dolos answers NaN
 * there) this answers max(mean, 0.8).
 */

/** Resolution of the stored histogram: similarities are counted in 1000 bins of 0.001. */
export const FINE_BINS = 1000;
/** Dolos's bin width for finding the threshold. */
export const THRESHOLD_STEP = 0.03;
/** Where Dolos's weighting parabola is lowest (the most likely threshold). */
export const THRESHOLD_TOP = 0.8;

/** The fine bin of a similarity in [0, 1]. */
export function fineBin(similarity: number): number {
  return Math.min(FINE_BINS - 1, Math.max(0, Math.floor(similarity * FINE_BINS)));
}

/** Dolos's weight of a bin at `x`: a parabola, lowest (0.1) at `top`, 3.42 at 0 for top = 0.8. */
export function binWeight(x: number, top = THRESHOLD_TOP): number {
  const a = 0.9 / (1 / 3 - top + top * top);
  const b = -2 * top * a;
  const c = -top * top * a - top * b + 0.1;
  return Math.round((a * x * x + b * x + c) * 1000) / 1000;
}

/** Indices i where counts turn from falling to rising (Dolos's getLocalMinima). */
export function localMinima(counts: readonly number[]): number[] {
  const out: number[] = [];
  let rising = counts[0]! < counts[1]!;
  for (let i = 0; i < counts.length - 1; i++) {
    const up = counts[i]! < counts[i + 1]!;
    if (up !== rising) {
      if (!rising) out.push(i);
      rising = up;
    }
  }
  return out;
}

/**
 * The suggested threshold, from a fine histogram (FINE_BINS counts of every pair's similarity).
 * @returns a similarity in [0, 1]; 0.8 when there are no pairs.
 */
export function suggestThreshold(fine: readonly number[]): number {
  let n = 0;
  let sum = 0;
  let highest = -1;
  fine.forEach((count, i) => {
    n += count;
    sum += count * ((i + 0.5) / FINE_BINS);
    if (count > 0) highest = i;
  });
  if (n === 0) return THRESHOLD_TOP;
  const mean = sum / n;
  // Overlapping bins of THRESHOLD_STEP up to the highest similarity: bin k counts [(k-1)·step, (k+1)·step).
  const per = Math.round(THRESHOLD_STEP * FINE_BINS);
  const plain: number[] = [];
  for (let from = 0; from <= highest; from += per) plain.push(fine.slice(from, from + per).reduce((a, b) => a + b, 0));
  const binned = plain.map((count, k) => count + (k > 0 ? plain[k - 1]! : 0));
  const minima = binned.length > 1 ? localMinima(binned) : [];
  if (minima.length === 0) return Math.max(mean, THRESHOLD_TOP);
  let best = minima[0]!;
  let bestWeight = Infinity;
  for (const k of minima) {
    const weight = (Math.sqrt(binned[k]!) + 1) * binWeight(k * THRESHOLD_STEP);
    if (weight < bestWeight) {
      bestWeight = weight;
      best = k;
    }
  }
  return Math.min(1, Math.max(mean, best * THRESHOLD_STEP + THRESHOLD_STEP / 2));
}

/** The display histogram: `bins` counts of equal width over [0, 1], folded from the fine one. */
export function coarseHistogram(fine: readonly number[], bins = 20): number[] {
  const out = new Array<number>(bins).fill(0);
  fine.forEach((count, i) => {
    out[Math.min(bins - 1, Math.floor((i / FINE_BINS) * bins))]! += count;
  });
  return out;
}

/**
 * A similarity or threshold as the pages show it: a whole percent (0.8182 → 82).
 * Pairs are compared with the threshold at this precision (decision 057): a
 * pair shown as 82 % is at a threshold shown as 82 %, whatever the digits behind.
 */
export function percentOf(x: number): number {
  return Math.round(x * 100);
}

/** True when `similarity` is at or above `threshold` as both are shown (whole percents). */
export function atOrAbove(similarity: number, threshold: number): boolean {
  return percentOf(similarity) >= percentOf(threshold);
}

/** A pair as clustering needs it: two program ids and their similarity. */
export interface Linked {
  left: string;
  right: string;
  similarity: number;
}

/**
 * Clusters: single linkage over the pairs at or above `threshold` as shown (`atOrAbove`: whole percents; connected
 * components of that graph), each with its program ids, largest first; programs
 * alone are not clusters.
 */
export function clusters(pairs: readonly Linked[], threshold: number): string[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    while (parent.get(x) !== root) {
      const next = parent.get(x)!;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  for (const p of pairs) {
    if (!atOrAbove(p.similarity, threshold)) continue;
    if (!parent.has(p.left)) parent.set(p.left, p.left);
    if (!parent.has(p.right)) parent.set(p.right, p.right);
    const a = find(p.left);
    const b = find(p.right);
    if (a !== b) parent.set(a, b);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const root = find(id);
    const group = groups.get(root) ?? [];
    group.push(id);
    groups.set(root, group);
  }
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}
