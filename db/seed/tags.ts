/**
 * The seed problems' topic tags, by seed slug: slugs of the base vocabulary
 * (migration 0032), the techniques a solver would reach for. The seed links
 * them through src/problems/tags (the tables' one writer).
 */
export const SEED_TAGS: Readonly<Record<string, readonly string[]>> = {
  "sum-two": ["implementation", "math"],
  "reverse-string": ["strings", "implementation"],
  fizzbuzz: ["implementation", "math"],
  palindrome: ["strings", "two-pointers"],
  "largest-element": ["implementation", "ad-hoc"],
  "balanced-brackets": ["data-structures", "strings"],
  "two-sum": ["hashing", "data-structures", "two-pointers"],
  lis: ["dynamic-programming", "binary-search"],
  "merge-intervals": ["sorting", "greedy"],
  islands: ["graphs", "graph-traversal"],
  "grid-path": ["graphs", "graph-traversal", "shortest-paths"],
  knapsack: ["dynamic-programming"],
  "edit-distance": ["dynamic-programming", "strings"],
  dijkstra: ["graphs", "shortest-paths", "data-structures"],
};
