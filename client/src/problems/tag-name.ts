/**
 * A topic tag's name in the interface's language: the base vocabulary
 * (the 34 slugs seeded by db/migrations/0032_problem_bank.sql) is translated
 * in the `tags` catalogue, keyed by the slug in camelCase; any other tag (one an admin added)
 * shows its stored `name` as it is. For every screen that shows tags.
 */
import type { BankTag } from "../../../src/problems/bank/shape.ts";
import { useT, type Translate } from "../i18n/index.tsx";
import { tags } from "../i18n/catalog/tags/index.ts";

export type TagsT = Translate<NonNullable<typeof tags.keys>>;

/** The base vocabulary's slugs and their catalogue keys (the slug in camelCase; literal, so the unused-key check finds each). */
const BASE = {
  "implementation": "implementation",
  "math": "math",
  "greedy": "greedy",
  "dynamic-programming": "dynamicProgramming",
  "data-structures": "dataStructures",
  "brute-force": "bruteForce",
  "constructive": "constructive",
  "graphs": "graphs",
  "sorting": "sorting",
  "binary-search": "binarySearch",
  "graph-traversal": "graphTraversal",
  "trees": "trees",
  "strings": "strings",
  "number-theory": "numberTheory",
  "combinatorics": "combinatorics",
  "two-pointers": "twoPointers",
  "bitmasks": "bitmasks",
  "geometry": "geometry",
  "disjoint-set-union": "disjointSetUnion",
  "shortest-paths": "shortestPaths",
  "probability": "probability",
  "divide-and-conquer": "divideAndConquer",
  "hashing": "hashing",
  "games": "games",
  "flows": "flows",
  "interactive": "interactive",
  "matrices": "matrices",
  "fft": "fft",
  "suffix-structures": "suffixStructures",
  "segment-tree": "segmentTree",
  "simulation": "simulation",
  "backtracking": "backtracking",
  "ad-hoc": "adHoc",
  "prefix-sums": "prefixSums",
} as const satisfies Record<string, NonNullable<typeof tags.keys>>;

/** Whether `slug` is one of the base vocabulary's (translated) tags. */
export function isBaseTag(slug: string): slug is keyof typeof BASE {
  return Object.hasOwn(BASE, slug);
}

/** `tag`'s display name: the catalogue's for a base slug, else the stored name. */
export function tagName(tag: BankTag, t: TagsT): string {
  return isBaseTag(tag.slug) ? t(BASE[tag.slug]) : tag.name;
}

/** `tagName` bound to the active locale (re-renders on a language switch). */
export function useTagName(): (tag: BankTag) => string {
  const t = useT(tags);
  return (tag) => tagName(tag, t);
}
