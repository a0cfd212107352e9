/**
 * The problem and hidden tests a job is judged against, cached per database
 * handle while `revisions('problems')` stays the same (any write to problems
 * or test cases bumps it, by any process: migration 0003). A job then costs
 * one primary-key read instead of reading the problem and all its hidden test
 * files again: near a deadline the same few problems are judged thousands of
 * times (scripts/bench-judge-hosts.ts). Bounded by JUDGED_PROBLEM_CACHE_BYTES
 * of test text, least recently used first out.
 */
import type { Database } from "../../db/index.ts";
import type { HiddenTestCase, ProblemRow } from "../problems/shape.ts";
import { problemsRevision } from "../problems/list-cache.ts";
import { getProblemEvenDeleted, readHiddenTests } from "../problems/store.ts";

/** Test text kept per database handle, bytes. */
export const JUDGED_PROBLEM_CACHE_BYTES = 256 * 1024 * 1024;

export interface JudgedProblemData {
  problem: ProblemRow;
  hidden: HiddenTestCase[];
}

interface Cache {
  revision: number;
  entries: Map<string, { data: JudgedProblemData; bytes: number }>;
  bytes: number;
}
const caches = new WeakMap<Database, Cache>();

function sizeOf(d: JudgedProblemData): number {
  let n = d.problem.sampleInput.length + d.problem.sampleOutput.length;
  for (const t of d.hidden) n += t.input.length + t.expectedOutput.length;
  return n;
}

/**
 * The problem (deleted ones too: a queued job still gets its verdict) and its hidden tests.
 * The objects are shared between jobs: never mutate them.
 * @returns null when the problem does not exist.
 */
export async function judgedProblem(db: Database, problemId: string): Promise<JudgedProblemData | null> {
  const revision = await problemsRevision(db);
  let cache = caches.get(db);
  if (!cache || revision === null || cache.revision !== revision) {
    cache = { revision: revision ?? -1, entries: new Map(), bytes: 0 };
    if (revision !== null) caches.set(db, cache);
  }
  const hit = cache.entries.get(problemId);
  if (hit) {
    cache.entries.delete(problemId);
    cache.entries.set(problemId, hit);
    return hit.data;
  }
  const problem = await getProblemEvenDeleted(db, problemId);
  if (!problem) return null;
  const data = { problem, hidden: (await readHiddenTests(db, [problemId])).get(problemId) ?? [] };
  const bytes = sizeOf(data);
  if (revision !== null && bytes <= JUDGED_PROBLEM_CACHE_BYTES) {
    cache.entries.set(problemId, { data, bytes });
    cache.bytes += bytes;
    for (const [k, v] of cache.entries) {
      if (cache.bytes <= JUDGED_PROBLEM_CACHE_BYTES) break;
      cache.entries.delete(k);
      cache.bytes -= v.bytes;
    }
  }
  return data;
}
