/**
 * Teams: who takes part in a contest. A team is one or more users (at most
 * TEAM_MAX_MEMBERS, the ICPC's three) sharing submissions, with an
 * affiliation. In a course contest each student is a one-person team made on
 * first use; a public contest's teams register (./registration.ts).
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { newId } from "../../db/ids.ts";
import { contestTeamMembers, contestTeams, users } from "../../db/schema.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";

export type TeamRow = typeof contestTeams.$inferSelect;

/** ICPC teams are three contestants. */
export const TEAM_MAX_MEMBERS = 3;

/** The user's team in the contest, or null. */
export async function teamOf(db: Database, contestId: string, userId: string): Promise<TeamRow | null> {
  const [row] = await db
    .select({ team: contestTeams })
    .from(contestTeamMembers)
    .innerJoin(contestTeams, eq(contestTeams.id, contestTeamMembers.teamId))
    .where(and(eq(contestTeamMembers.contestId, contestId), eq(contestTeamMembers.userId, userId)))
    .limit(1);
  return row?.team ?? null;
}

/** Every team of the contest (virtual ones included), oldest first. */
export async function teamsOf(db: Database, contestId: string): Promise<TeamRow[]> {
  return db.select().from(contestTeams).where(eq(contestTeams.contestId, contestId)).orderBy(contestTeams.createdAt, contestTeams.id);
}

/** The members of a team: id and name. */
export async function membersOf(db: Database, teamId: string): Promise<{ userId: string; name: string }[]> {
  const rows = await db
    .select({ userId: users.id, first: users.firstName, last: users.lastName })
    .from(contestTeamMembers)
    .innerJoin(users, eq(users.id, contestTeamMembers.userId))
    .where(eq(contestTeamMembers.teamId, teamId));
  return rows.map((r) => ({ userId: r.userId, name: `${r.first} ${r.last}`.trim() }));
}

export const normalizeTeamName = (name: string): string => name.trim().toLowerCase();

/**
 * Inserts a team with its first member. Returns null when the name is taken
 * or the user already has a team (a unique index said so).
 */
export async function insertTeam(
  db: Database,
  t: { contestId: string; name: string; organization: string; userId: string; joinCode: string | null; virtualStartsAt: Date | null },
): Promise<TeamRow | "name-taken" | "already-registered"> {
  try {
    // One batch: libSQL runs it as one transaction on the client's own connection (decision 041).
    const id = newId();
    const [made] = await db.batch([
      db
        .insert(contestTeams)
        .values({ id, contestId: t.contestId, name: t.name, nameNormalized: normalizeTeamName(t.name), organization: t.organization, joinCode: t.joinCode, virtualStartsAt: t.virtualStartsAt })
        .returning(),
      db.insert(contestTeamMembers).values({ contestId: t.contestId, teamId: id, userId: t.userId }),
    ]);
    return made[0]!;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return (await teamOf(db, t.contestId, t.userId)) ? "already-registered" : "name-taken";
  }
}

/** Adds a member to a team. @returns false when the user already has a team in the contest. */
export async function addMember(db: Database, team: TeamRow, userId: string): Promise<boolean> {
  try {
    await db.insert(contestTeamMembers).values({ contestId: team.contestId, teamId: team.id, userId });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * A course student's one-person team, made on first use: named after the
 * student (a number added when another team has the name).
 */
export async function ensureStudentTeam(db: Database, contestId: string, user: { id: string }): Promise<TeamRow> {
  const existing = await teamOf(db, contestId, user.id);
  if (existing) return existing;
  const [u] = await db.select({ first: users.firstName, last: users.lastName }).from(users).where(eq(users.id, user.id));
  const base = `${u?.first ?? ""} ${u?.last ?? ""}`.trim() || "Student";
  for (let n = 1; n <= 50; n++) {
    const made = await insertTeam(db, { contestId, name: n === 1 ? base : `${base} (${n})`, organization: "", userId: user.id, joinCode: null, virtualStartsAt: null });
    if (typeof made !== "string") return made;
    if (made === "already-registered") return (await teamOf(db, contestId, user.id))!;
  }
  throw new Error(`could not name a team for ${user.id} in ${contestId}`);
}
