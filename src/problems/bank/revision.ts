/**
 * The revisions the bank's memory (./catalogue.ts) is keyed by, read together with the viewer's
 * spoiler-free setting in one statement per request (docs/decisions/082-bank-in-memory.md):
 * - `revisions('problems')`: bumped by triggers on every write to `problems` and `test_cases`
 *   (migration 0003), so by every problem create, edit (title, statement, tags: written in the same
 *   batch as the row), visibility change (course, staged, deleted) and delete; tag curation and the
 *   vocabulary's writes (src/problems/tags/curation.ts) bump it in their own batch.
 * - `revisions('problem-stats')`: bumped in the same batch as every write to `problem_stats`
 *   (./status.ts `recordProblemStatus` on each verdict and rejudge, ./erasure.ts on an erased account).
 *   The row is made by its first bump; a missing row reads as 0 (nothing has moved the counters since
 *   the migration computed them).
 * - `revisions('sight')`: bumped by migration 0044's triggers on every write that can change which
 *   course-private problems someone sees (./sight-cache.ts); null when the row is missing.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";

/** The name of the counters' revision row. */
export const STATS_REVISION = "problem-stats";

/** What one request reads before using the memory. */
export interface BankState {
  /** `revisions('problems')`; null when the row is missing (a database migrated without 0003): nothing is cached then. */
  problems: number | null;
  /** `revisions('problem-stats')` (0 before the first bump). */
  stats: number;
  /** `revisions('sight')`; null when the row is missing (a database migrated without 0044): no sight is kept then. */
  sight: number | null;
  /** The viewer's spoiler-free setting. */
  hideTags: boolean;
}

/** The three revisions and the viewer's hide_tags: one statement of four primary-key reads. */
export async function readBankState(db: Database, userId: string): Promise<BankState> {
  const [row] = await db.all<{ p: number | null; s: number | null; v: number | null; h: number | null }>(sql`SELECT
      (SELECT value FROM revisions WHERE name = 'problems') AS p,
      (SELECT value FROM revisions WHERE name = ${STATS_REVISION}) AS s,
      (SELECT value FROM revisions WHERE name = 'sight') AS v,
      (SELECT hide_tags FROM users WHERE id = ${userId}) AS h`);
  return { problems: row?.p ?? null, stats: row?.s ?? 0, sight: row?.v ?? null, hideTags: Boolean(row?.h) };
}

/** The statement that bumps the counters' revision; for the batch that writes `problem_stats`. */
export function bumpStatsRevision(db: Database) {
  return db.run(sql`INSERT INTO revisions (name, value) VALUES (${STATS_REVISION}, 1)
    ON CONFLICT (name) DO UPDATE SET value = value + 1`);
}
