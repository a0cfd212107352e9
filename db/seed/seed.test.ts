/** Seed problems: idempotent seeding, the system account, and reference solutions checked against brute force. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "../index.ts";
import { problems, problemTags, testCases, users } from "../schema.ts";
import { readProblemTags } from "../../src/problems/tags/problem-tags.ts";
import { SEED_TAGS } from "./tags.ts";
import { createTestDb } from "../../tests/db.ts";
import { buildSeedProblem, SEED_PROBLEMS, seedDatabase, SYSTEM_USER } from "./index.ts";
import { Rng } from "./rng.ts";
import { dijkstra } from "./problems/dijkstra.ts";
import { editDistance } from "./problems/edit-distance.ts";
import { knapsack } from "./problems/knapsack.ts";
import { longestIncreasingSubsequence } from "./problems/lis.ts";
import { balancedBrackets } from "./problems/balanced-brackets.ts";
import { mergeIntervals } from "./problems/merge-intervals.ts";
import { twoSum } from "./problems/two-sum.ts";

let t: Awaited<ReturnType<typeof createTestDb>>;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.cleanup());

describe("seedDatabase", () => {
  test("seeds at least 12 problems across easy, medium and hard, each with a sample and 5+ hidden tests", async () => {
    expect(await seedDatabase(t.db)).toEqual({ inserted: SEED_PROBLEMS.length });
    const rows = await t.db.select().from(problems);
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(new Set(rows.map((r) => r.difficulty))).toEqual(new Set(["easy", "medium", "hard"]));
    for (const row of rows) {
      expect(row.userId).toBe(SYSTEM_USER.id);
      expect(row.sampleInput.length).toBeGreaterThan(0);
      expect(row.sampleOutput.length).toBeGreaterThan(0);
      const [{ n }] = (await t.db.select({ n: count() }).from(testCases).where(eq(testCases.problemId, row.id))) as [{ n: number }];
      expect([row.title, n >= 5]).toEqual([row.title, true]);
    }
    const [system] = await t.db.select().from(users).where(eq(users.id, SYSTEM_USER.id));
    expect(system).toMatchObject({ isSystem: true, passwordHash: null });
  });

  test("is idempotent across restarts (a new connection to the same file adds nothing)", async () => {
    expect(await seedDatabase(t.db)).toEqual({ inserted: 0 });
    const again = await openDatabase(t.url);
    try {
      await migrateDatabase(again.db);
      expect(await seedDatabase(again.db)).toEqual({ inserted: 0 });
    } finally {
      again.client.close();
    }
    const [{ n }] = (await t.db.select({ n: count() }).from(problems)) as [{ n: number }];
    expect(n).toBe(SEED_PROBLEMS.length);
  });

  test("every seed problem carries topic tags of the base vocabulary; one that lost them (an older database) gets them back", async () => {
    const rows = await t.db.select({ id: problems.id, title: problems.title }).from(problems);
    const tags = await readProblemTags(t.db, rows.map((r) => r.id));
    for (const problem of SEED_PROBLEMS) {
      const row = rows.find((r) => r.title === problem.title)!;
      expect([problem.slug, tags.get(row.id)!.map((x) => x.slug).sort()]).toEqual([problem.slug, [...SEED_TAGS[problem.slug]!].sort()]);
    }
    expect(Object.keys(SEED_TAGS).sort()).toEqual(SEED_PROBLEMS.map((p) => p.slug).sort());
    const knapsackRow = rows.find((r) => r.title === knapsack.title)!;
    await t.db.delete(problemTags).where(eq(problemTags.problemId, knapsackRow.id));
    expect(await seedDatabase(t.db)).toEqual({ inserted: 0 });
    expect((await readProblemTags(t.db, [knapsackRow.id])).get(knapsackRow.id)!.map((x) => x.slug)).toEqual(["dynamic-programming"]);
  });

  test("a soft-deleted seed problem is not re-created", async () => {
    const [first] = await t.db.select().from(problems).limit(1);
    await t.db.update(problems).set({ deletedAt: new Date() }).where(eq(problems.id, first!.id));
    expect(await seedDatabase(t.db)).toEqual({ inserted: 0 });
  });
});

describe("reference solutions", () => {
  test("generation is deterministic", () => {
    for (const p of SEED_PROBLEMS.slice(0, 4)) expect(buildSeedProblem(p)).toEqual(buildSeedProblem(p));
  });

  test("sample outputs match the hand-worked answers", () => {
    const expected: Record<string, string> = {
      "sum-two": "8\n",
      "reverse-string": "olleh\n",
      fizzbuzz: "1\n2\nFizz\n4\nBuzz\n",
      palindrome: "YES\n",
      "largest-element": "9 2\n",
      "balanced-brackets": "YES\n",
      "two-sum": "0 1\n",
      lis: "4\n",
      "merge-intervals": "3\n1 6\n8 10\n15 18\n",
      islands: "3\n",
      "grid-path": "6\n",
      knapsack: "9\n",
      "edit-distance": "3\n",
      dijkstra: "0 3 1 8\n",
    };
    for (const p of SEED_PROBLEMS) expect([p.slug, p.solve(p.sampleInput)]).toEqual([p.slug, expected[p.slug]!]);
  });

  const rng = new Rng(12345);
  const arr = (n: number, lo: number, hi: number) => Array.from({ length: n }, () => rng.int(lo, hi));

  test("LIS matches the O(n^2) definition", () => {
    for (let k = 0; k < 200; k++) {
      const a = arr(rng.int(1, 12), -5, 5);
      const best = a.map(() => 1);
      for (let i = 0; i < a.length; i++) for (let j = 0; j < i; j++) if (a[j]! < a[i]!) best[i] = Math.max(best[i]!, best[j]! + 1);
      expect(longestIncreasingSubsequence.solve(`${a.length}\n${a.join(" ")}\n`)).toBe(`${Math.max(...best)}\n`);
    }
  });

  test("knapsack matches trying every subset", () => {
    for (let k = 0; k < 100; k++) {
      const n = rng.int(1, 10);
      const cap = rng.int(1, 30);
      const items = Array.from({ length: n }, () => [rng.int(1, 15), rng.int(0, 50)] as const);
      let best = 0;
      for (let mask = 0; mask < 1 << n; mask++) {
        let w = 0;
        let v = 0;
        items.forEach(([wi, vi], i) => {
          if (mask & (1 << i)) [w, v] = [w + wi, v + vi];
        });
        if (w <= cap) best = Math.max(best, v);
      }
      const input = `${n} ${cap}\n${items.map(([w, v]) => `${w} ${v}`).join("\n")}\n`;
      expect(knapsack.solve(input)).toBe(`${best}\n`);
    }
  });

  test("edit distance matches the recursive definition", () => {
    const slow = (a: string, b: string): number => {
      const memo = new Map<string, number>();
      const go = (i: number, j: number): number => {
        if (i === a.length) return b.length - j;
        if (j === b.length) return a.length - i;
        const key = `${i},${j}`;
        if (!memo.has(key)) {
          memo.set(key, Math.min(go(i + 1, j) + 1, go(i, j + 1) + 1, go(i + 1, j + 1) + (a[i] === b[j] ? 0 : 1)));
        }
        return memo.get(key)!;
      };
      return go(0, 0);
    };
    for (let k = 0; k < 100; k++) {
      const a = rng.string(rng.int(1, 8), "ab");
      const b = rng.string(rng.int(1, 8), "ab");
      expect(editDistance.solve(`${a}\n${b}\n`)).toBe(`${slow(a, b)}\n`);
    }
  });

  test("shortest routes match Bellman-Ford", () => {
    for (let k = 0; k < 100; k++) {
      const n = rng.int(1, 7);
      const edges = Array.from({ length: rng.int(0, 12) }, () => [rng.int(1, n), rng.int(1, n), rng.int(0, 9)] as const);
      const dist: number[] = Array(n + 1).fill(Infinity);
      dist[1] = 0;
      for (let round = 0; round < n; round++) for (const [u, v, w] of edges) dist[v] = Math.min(dist[v]!, dist[u]! + w);
      const expected = dist.slice(1).map((d) => (d === Infinity ? -1 : d)).join(" ") + "\n";
      const input = `${n} ${edges.length}\n${edges.map((e) => e.join(" ")).join("\n")}\n`;
      expect(dijkstra.solve(input)).toBe(expected);
    }
  });

  test("balanced brackets matches repeatedly removing adjacent pairs", () => {
    for (let k = 0; k < 300; k++) {
      let s = rng.string(rng.int(1, 10), "()[]{}");
      const input = `${s}\n`;
      for (let prev = ""; prev !== s; ) [prev, s] = [s, s.replace(/\(\)|\[\]|\{\}/g, "")];
      expect(balancedBrackets.solve(input)).toBe(s === "" ? "YES\n" : "NO\n");
    }
  });

  test("two-sum and merge-intervals answers check out against their definitions", () => {
    for (const tc of buildSeedProblem(twoSum).tests) {
      const nums = tc.input.split(/\s+/).filter(Boolean).map(Number);
      const [i, j] = tc.expectedOutput.trim().split(" ").map(Number) as [number, number];
      expect(i).toBeLessThan(j);
      expect(nums[2 + i]! + nums[2 + j]!).toBe(nums[1]!);
    }
    for (const tc of buildSeedProblem(mergeIntervals).tests) {
      const out = tc.expectedOutput.trim().split("\n").slice(1).map((l) => l.split(" ").map(Number) as [number, number]);
      for (let i = 1; i < out.length; i++) expect(out[i]![0]).toBeGreaterThan(out[i - 1]![1]);
    }
  });
});
