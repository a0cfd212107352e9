/**
 * Reads of a contest's parts that several contest functions share: its
 * problems with what the API shows of them, its events for problems and
 * teams, and the runtime (event bus and scoreboards) the server holds.
 */
import { asc, count, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestProblems, problems, testCases } from "../../db/schema.ts";
import type { ContestRow } from "./access.ts";
import { organizationObject, problemObject, teamObject, type ContestProblemInfo } from "./ccs/objects.ts";
import type { Audience, ContestEvent } from "./feed.ts";
import type { TeamRow } from "./teams.ts";

/** The contest's problems in label order, with title, time limit and test count (sample + hidden). */
export async function problemsOf(db: Database, contestId: string): Promise<ContestProblemInfo[]> {
  const rows = await db
    .select({ problemId: contestProblems.problemId, label: contestProblems.label, color: contestProblems.color, ordinal: contestProblems.ordinal, title: problems.title, timeLimitMs: problems.timeLimitMs })
    .from(contestProblems)
    .innerJoin(problems, eq(problems.id, contestProblems.problemId))
    .where(eq(contestProblems.contestId, contestId))
    .orderBy(asc(contestProblems.ordinal));
  if (rows.length === 0) return [];
  const counts = await db
    .select({ problemId: testCases.problemId, n: count() })
    .from(testCases)
    .where(inArray(testCases.problemId, rows.map((r) => r.problemId)))
    .groupBy(testCases.problemId);
  const hidden = new Map(counts.map((c) => [c.problemId, c.n]));
  return rows.map((r) => ({ ...r, testCount: 1 + (hidden.get(r.problemId) ?? 0) }));
}

/** Problem events: before the start for the jury only (the start releases them to the others, ./feed.ts). */
export function problemEvents(c: ContestRow, list: readonly ContestProblemInfo[], audience: Audience, atMs: number): ContestEvent[] {
  return list.map((p) => ({ type: "problems", id: p.problemId, data: problemObject(c, p), audience, atMs }));
}

/** A new or changed team's events: its organization (when it has one), then the team. */
export function teamEvents(t: TeamRow, atMs: number): ContestEvent[] {
  const out: ContestEvent[] = [];
  if (t.virtualStartsAt) return out;
  if (t.organization) out.push({ type: "organizations", id: organizationObject(t.organization).id, data: organizationObject(t.organization), audience: "all", atMs });
  out.push({ type: "teams", id: t.id, data: teamObject(t), audience: "all", atMs });
  return out;
}
