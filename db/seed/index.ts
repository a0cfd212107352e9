/**
 * Seeds the classic problems, owned by a system account that cannot sign in
 * (no password hash, `isSystem`). Idempotent: it runs at every start and adds
 * only the seed problems the system account does not own yet (matched by
 * title, deleted ones included), so restarts never duplicate and a new seed
 * problem reaches old databases.
 *
 * Hidden tests are generated at seed time: each problem's deterministic
 * generator (fixed mulberry32 seed per problem) makes the inputs and its
 * reference solution in db/seed/problems/ computes the expected outputs; the
 * sample output comes from the same solution. See docs/decisions/023-seed-problems.md.
 * Each gets its topic tags (./tags.ts), also a seed problem of an older
 * database that has none yet.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../index.ts";
import { newId } from "../ids.ts";
import { problems, testCases, users } from "../schema.ts";
import { Rng } from "./rng.ts";
import { SEED_TAGS } from "./tags.ts";
import { resolveWords } from "../../src/problems/tags/vocabulary.ts";
import { addTagsStatements, readProblemTags } from "../../src/problems/tags/problem-tags.ts";
import type { SeedProblem } from "./types.ts";
import { balancedBrackets } from "./problems/balanced-brackets.ts";
import { dijkstra } from "./problems/dijkstra.ts";
import { editDistance } from "./problems/edit-distance.ts";
import { fizzBuzz } from "./problems/fizzbuzz.ts";
import { gridShortestPath } from "./problems/grid-path.ts";
import { numberOfIslands } from "./problems/islands.ts";
import { knapsack } from "./problems/knapsack.ts";
import { largestElement } from "./problems/largest-element.ts";
import { longestIncreasingSubsequence } from "./problems/lis.ts";
import { mergeIntervals } from "./problems/merge-intervals.ts";
import { palindromeCheck } from "./problems/palindrome.ts";
import { reverseString } from "./problems/reverse-string.ts";
import { sumTwo } from "./problems/sum-two.ts";
import { twoSum } from "./problems/two-sum.ts";

/** In list order: easy, medium, hard. */
export const SEED_PROBLEMS: readonly SeedProblem[] = [
  sumTwo,
  reverseString,
  fizzBuzz,
  palindromeCheck,
  largestElement,
  balancedBrackets,
  twoSum,
  longestIncreasingSubsequence,
  mergeIntervals,
  numberOfIslands,
  gridShortestPath,
  knapsack,
  editDistance,
  dijkstra,
];

/** The system account: fixed id, an email nobody can own (`.invalid` TLD, RFC 2606), no password. */
export const SYSTEM_USER = {
  id: "system",
  firstName: "Online",
  lastName: "Judge",
  email: "system@online-judge.invalid",
} as const;

/** Stable per-problem seed from the slug (FNV-1a), so adding a problem never changes another's tests. */
function seedOf(slug: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < slug.length; i++) h = Math.imul(h ^ slug.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export interface BuiltSeedProblem {
  problem: SeedProblem;
  sampleOutput: string;
  tests: { input: string; expectedOutput: string }[];
}

/**
 * Generates one problem's sample output and hidden tests by running its
 * reference solution.
 * @throws when the generator yields fewer than 5 tests.
 */
export function buildSeedProblem(problem: SeedProblem): BuiltSeedProblem {
  const inputs = problem.tests(new Rng(seedOf(problem.slug)));
  if (inputs.length < 5) throw new Error(`seed ${problem.slug}: at least 5 hidden tests required`);
  return {
    problem,
    sampleOutput: problem.solve(problem.sampleInput),
    tests: inputs.map((input) => ({ input, expectedOutput: problem.solve(input) })),
  };
}

/**
 * Ensures the system account and every seed problem exist.
 * @returns how many problems were inserted (0 on every start after the first).
 */
export async function seedDatabase(db: Database): Promise<{ inserted: number }> {
  await db
    .insert(users)
    .values({
      ...SYSTEM_USER,
      emailNormalized: SYSTEM_USER.email,
      passwordHash: null,
      isSystem: true,
    })
    .onConflictDoNothing();
  const owned = await db.select({ id: problems.id, title: problems.title }).from(problems).where(eq(problems.userId, SYSTEM_USER.id));
  const existing = new Set(owned.map((r) => r.title));
  // Tag slugs → tag ids (a tag an admin deleted since is left out; a merged one resolves through its synonym).
  const tagIds = await resolveWords(db, [...new Set(Object.values(SEED_TAGS).flat())]);
  const tagsOf = (problem: SeedProblem) => (SEED_TAGS[problem.slug] ?? []).flatMap((slug) => tagIds.get(slug)?.id ?? []);
  const tagged = await readProblemTags(db, owned.map((r) => r.id));
  for (const problem of SEED_PROBLEMS) {
    const row = owned.find((r) => r.title === problem.title);
    if (row && !tagged.get(row.id)?.length) {
      const writes = addTagsStatements(db, row.id, tagsOf(problem));
      if (writes.length) await db.batch(writes as [(typeof writes)[number]]);
    }
  }
  let inserted = 0;
  for (const problem of SEED_PROBLEMS) {
    if (existing.has(problem.title)) continue;
    const built = buildSeedProblem(problem);
    const id = newId();
    // Spread creation times 1 ms apart so the list keeps SEED_PROBLEMS' order.
    const createdAt = new Date(Date.now() - (SEED_PROBLEMS.length - inserted) * 1000);
    await db.batch([
      db.insert(problems).values({
        id,
        title: problem.title,
        description: problem.description,
        inputFormat: problem.inputFormat,
        outputFormat: problem.outputFormat,
        constraints: problem.constraints,
        sampleInput: problem.sampleInput,
        sampleOutput: built.sampleOutput,
        difficulty: problem.difficulty,
        userId: SYSTEM_USER.id,
        timeLimitMs: problem.timeLimitMs ?? 2000,
        memoryLimitKib: problem.memoryLimitKib ?? 262144,
        checker: problem.checker ?? "lines",
        createdAt,
        updatedAt: createdAt,
      }),
      db.insert(testCases).values(built.tests.map((tc, ordinal) => ({ problemId: id, ordinal, ...tc }))),
      ...addTagsStatements(db, id, tagsOf(problem)),
    ]);
    inserted++;
  }
  return { inserted };
}

/** True when the system account owns a problem with this title (used by tests and doctor). */
export async function isSeeded(db: Database, title: string): Promise<boolean> {
  const [row] = await db
    .select({ id: problems.id })
    .from(problems)
    .where(and(eq(problems.userId, SYSTEM_USER.id), eq(problems.title, title)))
    .limit(1);
  return !!row;
}
