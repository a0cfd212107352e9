/**
 * What erasing an account (src/account-data/erase.ts, decision 072) changes in contests:
 * - the roles granted to the user (jury, balloon runner) go;
 * - the clarification questions the user sent from a team go, with their feed events (jury messages the user
 *   wrote as a contest's jury stay: they are the contest's record, sent to its participants);
 * - a team of which the user is the only member keeps its place on the standings as "Deleted user …"
 *   (unique within the contest by the team's id), without affiliation or join code, and its past `teams`
 *   events in the feed are rewritten the same way, so the ICPC Contest API serves no name either;
 * - teams with other members keep their name (it is theirs too), the membership row pointing at the tombstone.
 */
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { contestClarifications, contestEvents, contestRoles, contestTeamMembers, contestTeams } from "../../db/schema.ts";
import { contestRuntimeFor } from "./runtime.ts";

/** A one-person team's name after erasure (stored data, like any team name: shown as is on scoreboards and the ICPC feed). */
export function erasedTeamName(teamId: string): string {
  return `Deleted user ${teamId.slice(0, 8)}`; // i18n-ignore: stored data, not interface text
}

/** What the contest writes need, read before the batch. */
export interface ContestErasurePlan {
  /** Teams of which the user is the only member. */
  soloTeamIds: string[];
  /** Clarification questions the user sent from a team. */
  questionIds: string[];
  /** The contests those teams and questions belong to (their boards and feeds are told). */
  contestIds: string[];
}

/** Reads the user's one-person teams and questions. */
export async function planContestErasure(db: Database, userId: string): Promise<ContestErasurePlan> {
  const [solo, questions] = await Promise.all([
    db
      .select({ teamId: contestTeamMembers.teamId, contestId: contestTeamMembers.contestId })
      .from(contestTeamMembers)
      .where(and(eq(contestTeamMembers.userId, userId), sql`(SELECT count(*) FROM contest_team_members m WHERE m.team_id = ${contestTeamMembers.teamId}) = 1`)),
    db
      .select({ id: contestClarifications.id, contestId: contestClarifications.contestId })
      .from(contestClarifications)
      .where(and(eq(contestClarifications.createdBy, userId), isNotNull(contestClarifications.fromTeamId))),
  ]);
  return {
    soloTeamIds: solo.map((r) => r.teamId),
    questionIds: questions.map((r) => r.id),
    contestIds: [...new Set([...solo, ...questions].map((r) => r.contestId))],
  };
}

/** After the batch: the scoreboards this process holds rebuild without the old team names, and live listeners hear of it. */
export function afterContestErasure(db: Database, plan: ContestErasurePlan): void {
  for (const contestId of plan.contestIds) contestRuntimeFor(db).contestChanged(contestId);
}

// The same name as erasedTeamName, in SQL (over the row's id column).
const ERASED_NAME_SQL = "'Deleted user ' || substr(id, 1, 8)"; // i18n-ignore: stored data, as erasedTeamName
const ERASED_EVENT_NAME_SQL = "'Deleted user ' || substr(object_id, 1, 8)"; // i18n-ignore: stored data, as erasedTeamName

/** The writes, for the erasure's batch. */
export function contestsErasure(db: Database, userId: string, plan: ContestErasurePlan) {
  const { soloTeamIds, questionIds } = plan;
  return [
    db.delete(contestRoles).where(eq(contestRoles.userId, userId)),
    ...(questionIds.length > 0
      ? [
          db.delete(contestEvents).where(and(eq(contestEvents.type, "clarifications"), inArray(contestEvents.objectId, questionIds))),
          db.delete(contestClarifications).where(inArray(contestClarifications.id, questionIds)),
        ]
      : []),
    ...(soloTeamIds.length > 0
      ? [
          db
            .update(contestTeams)
            .set({ name: sql.raw(ERASED_NAME_SQL), nameNormalized: sql.raw("'deleted user ' || id"), organization: "", joinCode: null })
            .where(inArray(contestTeams.id, soloTeamIds)),
          db
            .update(contestEvents)
            .set({
              data: sql`json_set(data, '$.name', ${sql.raw(ERASED_EVENT_NAME_SQL)}, '$.display_name', ${sql.raw(ERASED_EVENT_NAME_SQL)}, '$.organization_id', json('null'))`,
            })
            .where(and(eq(contestEvents.type, "teams"), inArray(contestEvents.objectId, soloTeamIds), isNotNull(contestEvents.data))),
        ]
      : []),
  ];
}
