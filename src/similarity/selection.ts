/**
 * Which programs a report compares: per problem, each student's (assignment)
 * or team's (contest) best or last counted submission; with `against: "past"`,
 * also those of earlier offerings of the same problem that the caller reviews
 * too (other assignments of courses they are staff of, contests they were
 * jury of that are over), at most PAST_OFFERINGS_MAX of them, newest first.
 *
 * "Counted" is what the scope counts: a judged submission made for the
 * assignment (its `assignmentId`), or a team's judged submission in the
 * contest (jury submissions have no team and are left out). "Best" is the
 * gradebook's best (assignment_scores) or a team's first AC (its last judged
 * submission when it has none); "last" is the latest judged one.
 */
import { and, asc, desc, eq, inArray, isNotNull, ne } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { assignmentScores, contestProblems, contests, contestTeams, submissions, users } from "../../db/schema.ts";
import type { LanguageId } from "../../isolate/languages/index.ts";
import type { Caller } from "../accounts/user.ts";
import { roleIn } from "../contests/access.ts";
import { assignmentsWith, memberRole } from "../courses/access.ts";
import { isStaff } from "../courses/permissions.ts";
import type { Scope, ScopeKind } from "./scope.ts";

/** Earlier offerings a report reaches back to, at most. */
export const PAST_OFFERINGS_MAX = 20;

export type Pick = "best" | "last";

/** A compared program, without its code. */
export interface ProgramMeta {
  submissionId: string;
  problemId: string;
  language: LanguageId;
  createdAtMs: number;
  /** A student (assignment) or a team (contest). */
  owner: { kind: "user" | "team"; id: string; name: string };
  /** Where a past program comes from; null for the report's own scope. */
  past: { kind: ScopeKind; id: string; title: string } | null;
}

interface Row {
  id: string;
  problemId: string;
  language: LanguageId;
  createdAt: Date;
  verdict: string | null;
  ownerId: string;
  ownerName: string;
}

const keyOf = (r: Row) => `${r.ownerId}\u0000${r.problemId}`;

/** Per owner and problem, the last row (rows in time order), replaced by the first row `better` accepts when there is one. */
function choose(rows: Row[], better: ((r: Row) => boolean) | null): Row[] {
  const last = new Map<string, Row>();
  const preferred = new Map<string, Row>();
  for (const r of rows) {
    last.set(keyOf(r), r);
    if (better?.(r) && !preferred.has(keyOf(r))) preferred.set(keyOf(r), r);
  }
  return [...last.entries()].map(([key, r]) => preferred.get(key) ?? r);
}

async function assignmentRows(db: Database, assignmentId: string, problemIds: string[] | null, pick: Pick): Promise<Row[]> {
  const where = [eq(submissions.assignmentId, assignmentId), eq(submissions.status, "done")];
  if (problemIds) where.push(inArray(submissions.problemId, problemIds));
  const rows = await db
    .select({
      id: submissions.id,
      problemId: submissions.problemId,
      language: submissions.language,
      createdAt: submissions.createdAt,
      verdict: submissions.verdict,
      ownerId: submissions.userId,
      first: users.firstName,
      last: users.lastName,
    })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.userId))
    .where(and(...where))
    .orderBy(asc(submissions.createdAt), asc(submissions.id));
  const shaped = rows.map((r) => ({ ...r, ownerName: `${r.first} ${r.last}`.trim() }));
  if (pick === "last") return choose(shaped, null);
  const best = await db
    .select({ id: assignmentScores.bestSubmissionId })
    .from(assignmentScores)
    .where(and(eq(assignmentScores.assignmentId, assignmentId), isNotNull(assignmentScores.bestSubmissionId)));
  const bestIds = new Set(best.map((b) => b.id!));
  // The gradebook's best where it has one; a student without one keeps their last judged submission.
  return choose(shaped, (r) => bestIds.has(r.id));
}

async function contestRows(db: Database, contestId: string, problemIds: string[] | null, pick: Pick): Promise<Row[]> {
  const where = [eq(submissions.contestId, contestId), eq(submissions.status, "done"), isNotNull(submissions.teamId)];
  if (problemIds) where.push(inArray(submissions.problemId, problemIds));
  const rows = await db
    .select({
      id: submissions.id,
      problemId: submissions.problemId,
      language: submissions.language,
      createdAt: submissions.createdAt,
      verdict: submissions.verdict,
      ownerId: contestTeams.id,
      ownerName: contestTeams.name,
    })
    .from(submissions)
    .innerJoin(contestTeams, eq(contestTeams.id, submissions.teamId))
    .where(and(...where))
    .orderBy(asc(submissions.createdAt), asc(submissions.id));
  // Best: the first AC; a team without one keeps its last judged submission.
  return choose(rows, pick === "best" ? (r) => r.verdict === "AC" : null);
}

const meta = (r: Row, kind: "user" | "team", past: ProgramMeta["past"]): ProgramMeta => ({
  submissionId: r.id,
  problemId: r.problemId,
  language: r.language,
  createdAtMs: r.createdAt.getTime(),
  owner: { kind, id: r.ownerId, name: r.ownerName },
  past,
});

/** Earlier offerings of `problemIds` the caller reviews, newest first, at most PAST_OFFERINGS_MAX. */
async function pastOfferings(db: Database, user: Caller, scope: Scope, problemIds: string[], nowMs: number): Promise<{ kind: ScopeKind; id: string; title: string; at: number; problemIds: string[] }[]> {
  const found = new Map<string, { kind: ScopeKind; id: string; title: string; at: number; problemIds: string[] }>();
  for (const problemId of problemIds) {
    for (const a of await assignmentsWith(db, problemId)) {
      if (scope.kind === "assignment" && a.id === scope.id) continue;
      const role = user.siteRole === "admin" ? "owner" : await memberRole(db, a.courseId, user.id);
      if (!isStaff(role)) continue;
      const entry = found.get(`a:${a.id}`) ?? { kind: "assignment" as const, id: a.id, title: a.title, at: a.opensAt.getTime(), problemIds: [] };
      entry.problemIds.push(problemId);
      found.set(`a:${a.id}`, entry);
    }
    const listed = await db
      .select({ c: contests })
      .from(contestProblems)
      .innerJoin(contests, eq(contests.id, contestProblems.contestId))
      .where(and(eq(contestProblems.problemId, problemId), scope.kind === "contest" ? ne(contests.id, scope.id) : undefined))
      .orderBy(desc(contests.startsAt));
    for (const { c } of listed) {
      if (c.deletedAt || c.startsAt.getTime() + c.durationMinutes * 60_000 > nowMs) continue;
      if ((await roleIn(db, c, user))?.role !== "jury") continue;
      const entry = found.get(`c:${c.id}`) ?? { kind: "contest" as const, id: c.id, title: c.title, at: c.startsAt.getTime(), problemIds: [] };
      entry.problemIds.push(problemId);
      found.set(`c:${c.id}`, entry);
    }
  }
  return [...found.values()].sort((x, y) => y.at - x.at).slice(0, PAST_OFFERINGS_MAX);
}

/**
 * The programs of a report, earliest first (so the earlier of a pair is its left side).
 * @param problemId one problem of the scope, or null for all of them.
 */
export async function selectPrograms(db: Database, user: Caller, scope: Scope, problemId: string | null, pick: Pick, against: "none" | "past", nowMs: number): Promise<ProgramMeta[]> {
  const problemIds = problemId ? [problemId] : scope.problems.map((p) => p.id);
  const own = scope.kind === "assignment" ? await assignmentRows(db, scope.id, problemIds, pick) : await contestRows(db, scope.id, problemIds, pick);
  const kind = scope.kind === "assignment" ? "user" : "team";
  const out = own.map((r) => meta(r, kind, null));
  if (against === "past" && problemIds.length) {
    for (const offering of await pastOfferings(db, user, scope, problemIds, nowMs)) {
      const rows = offering.kind === "assignment" ? await assignmentRows(db, offering.id, offering.problemIds, pick) : await contestRows(db, offering.id, offering.problemIds, pick);
      const from = { kind: offering.kind, id: offering.id, title: offering.title };
      out.push(...rows.map((r) => meta(r, offering.kind === "assignment" ? "user" : "team", from)));
    }
  }
  return out.sort((a, b) => a.createdAtMs - b.createdAtMs || a.submissionId.localeCompare(b.submissionId));
}
