/**
 * The ICPC Contest API's read side (ccs-specs 2023-06 or 2026-01, "Interface
 * specification"; which one is the caller's `release`, from CCS_API_VERSION,
 * and ./release.ts says what differs), served under /api/ccs/ by
 * src/rest/ccs.ts: who reads
 * (`openContest`: the contest role decides the feed reader: the jury sees
 * everything, a team its own too, everyone else the public view), the
 * collections, `access`, `accounts`/`account`, the `scoreboard` and a
 * submission's `files`.
 *
 * Every collection is read from the contest's change log (../feed.ts
 * `latestObjects`): an endpoint shows exactly the newest event of each
 * object its reader's event feed carries, so the freeze holds in both
 * alike and a `GET` never shows a state older than a notification already
 * sent (the spec's ordering guarantee).
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { contestRoles, contestTeamMembers, contestTeams, courseMembers, submissions, users } from "../../../db/schema.ts";
import { LANGUAGES, type LanguageId } from "../../../isolate/languages/index.ts";
import type { Caller, SessionUser } from "../../accounts/user.ts";
import { isStaff } from "../../courses/permissions.ts";
import { AppError } from "../../errors.ts";
import { requireContest, type ContestAccess, type ContestRow } from "../access.ts";
import { contestCaughtUp, visibleContests, type ContestDeps } from "../contests.ts";
import { latestObjects, type FeedReader } from "../feed.ts";
import { canInContest } from "../permissions.ts";
import { absTime, relTime } from "./format.ts";
import { contestObject, stateObject } from "./objects.ts";
import { CCS_VERSION_URL, inRelease, minutesIn, type CcsRelease } from "./release.ts";

/** The collections served from the change log, as the event types name them. */
export const CCS_COLLECTIONS = ["judgement-types", "languages", "problems", "groups", "organizations", "teams", "submissions", "judgements", "runs", "clarifications", "awards"] as const;
export type CcsCollection = (typeof CCS_COLLECTIONS)[number];

export const isCollection = (s: string): s is CcsCollection => (CCS_COLLECTIONS as readonly string[]).includes(s);

/** A reader of one contest through the API. */
export interface CcsCaller extends ContestAccess {
  user: SessionUser | null;
  reader: FeedReader;
  /** The release whose shapes this caller is answered in. */
  release: CcsRelease;
}

/** The feed reader of a contest role: a virtual participant reads as the public (their window is not the contest's). */
export function readerOf(a: ContestAccess): FeedReader {
  if (a.role === "jury") return { kind: "jury" };
  if (a.role === "participant" && a.team && a.team.virtualStartsAt === null) return { kind: "team", teamId: a.team.id };
  return { kind: "public" };
}

/**
 * A contest the caller may read, caught up with the clock's thresholds.
 * @throws AppError CONTEST_NOT_FOUND (404) when absent or hidden from the caller (a course contest outside the course).
 */
export async function openContest(deps: ContestDeps, user: SessionUser | null, id: string, release: CcsRelease = "2023-06"): Promise<CcsCaller> {
  const access = await requireContest(deps.db, user, id, "contest.view");
  const contest = await contestCaughtUp(deps, access.contest);
  return { ...access, contest, user, reader: readerOf(access), release };
}

/**
 * `GET /`: the API information object. The software's name is the `provider`'s
 * (both releases' schemas allow no other top-level property but `version` and `version_url`).
 */
export function apiInfo(release: CcsRelease, providerName: string) {
  return { version: release, version_url: CCS_VERSION_URL[release], provider: { name: providerName } };
}

/** A contest as the release shows it (`GET /contests/<id>`, and each of `GET /contests`). */
export function contestIn(release: CcsRelease, c: ContestRow): Record<string, unknown> {
  return inRelease(release, "contest", contestObject(c)) as Record<string, unknown>;
}

/** `GET /contests`: every contest the caller may see. */
export async function contestsFor(deps: ContestDeps, user: Caller | null, release: CcsRelease = "2023-06") {
  return (await visibleContests(deps.db, user)).map((c) => contestIn(release, c));
}

/** `GET /contests/<id>/state` (also the scoreboard's `state`). */
export function stateNow(deps: ContestDeps, caller: CcsCaller) {
  return stateObject(caller.contest, deps.now());
}

/** Whether the caller may fetch a submission's files: the jury, and the submitting team. */
function mayFetch(caller: CcsCaller, teamId: unknown): boolean {
  return caller.reader.kind === "jury" || (caller.reader.kind === "team" && caller.reader.teamId === teamId);
}

/**
 * A stored submission object as this caller reads it: its `files` are the zip
 * (a reference relative to the base URL) for those who may fetch it, and empty
 * for everyone else (both releases require the property; an empty list is how
 * the schema lets it say "none for you").
 */
export function withFiles(caller: CcsCaller, s: Record<string, unknown>): Record<string, unknown> {
  if (!mayFetch(caller, s.team_id)) return { ...s, files: [] };
  return { ...s, files: [{ href: `contests/${caller.contest.shortName}/submissions/${s.id}/files`, filename: "files.zip", mime: "application/zip" }] };
}

/** A logged object as this caller reads it: in their release's shape, a submission with its `files`. */
export function asRead(caller: CcsCaller, type: string, data: unknown): unknown {
  const shaped = inRelease(caller.release, type, data);
  return type === "submissions" && shaped !== null ? withFiles(caller, shaped as Record<string, unknown>) : shaped;
}

/**
 * A collection as the caller may see it (`groups` is always empty: teams
 * have no groups here). Submissions carry `files` for those who may fetch them.
 */
export async function collectionOf(deps: ContestDeps, caller: CcsCaller, type: CcsCollection): Promise<Record<string, unknown>[]> {
  if (type === "groups") return [];
  const objects = [...(await latestObjects(deps.db, caller.contest.id, caller.reader, type)).values()];
  return objects.map((o) => asRead(caller, type, o) as Record<string, unknown>);
}

/**
 * The spec's filtering: a query argument named after an ID property (`team_id=X`)
 * keeps the objects whose property equals it; an empty value keeps those where it is null.
 */
export function filtered<T extends Record<string, unknown>>(list: T[], query: Record<string, string>): T[] {
  const keys = Object.keys(query).filter((k) => k.endsWith("_id"));
  if (keys.length === 0) return list;
  return list.filter((o) => keys.every((k) => (query[k] === "" ? o[k] === null || o[k] === undefined : o[k] === query[k])));
}

/** One object of a collection (its events only are read). @throws AppError CCS_OBJECT_NOT_FOUND (404). */
export async function objectOf(deps: ContestDeps, caller: CcsCaller, type: CcsCollection, id: string): Promise<Record<string, unknown>> {
  const found = type === "groups" ? undefined : ((await latestObjects(deps.db, caller.contest.id, caller.reader, type, id)).get(id) as Record<string, unknown> | undefined);
  if (!found) throw new AppError("CCS_OBJECT_NOT_FOUND", { message: `No ${type} object with id ${id}` });
  return asRead(caller, type, found) as Record<string, unknown>;
}

/**
 * The properties of each endpoint's objects, as the caller sees them (`access`).
 * `type` is the event type (the schemas' list: `contest`, not `contests`);
 * a property is listed when this server sends it to this caller (`rgb` only
 * on problems given a colour; `files` to those who may fetch them: the
 * others get an empty list).
 */
function endpointProperties(caller: CcsCaller): { type: string; properties: string[] }[] {
  const score = caller.contest.scoring === "ioi";
  const jury = caller.reader.kind === "jury";
  const r2026 = caller.release === "2026-01";
  const list: { type: string; properties: string[] }[] = [
    {
      type: "contest",
      properties: ["id", "name", "formal_name", "start_time", "countdown_pause_time", "duration", "scoreboard_freeze_duration", "scoreboard_type", ...(score ? [] : ["penalty_time"])],
    },
    { type: "judgement-types", properties: ["id", "name", "penalty", "solved"] },
    { type: "languages", properties: ["id", "name", "entry_point_required", "extensions"] },
    { type: "problems", properties: ["id", "label", "name", "ordinal", "rgb", "time_limit", "test_data_count", ...(score ? ["max_score"] : [])] },
    { type: "groups", properties: ["id", "icpc_id", "name", "type"] },
    { type: "organizations", properties: ["id", "icpc_id", "name", "formal_name"] },
    { type: "teams", properties: ["id", "icpc_id", "name", "label", "display_name", "organization_id", "group_ids", "hidden"] },
    { type: "state", properties: ["started", "frozen", "ended", "thawed", "finalized", "end_of_updates"] },
    { type: "submissions", properties: ["id", "language_id", "problem_id", "team_id", "time", "contest_time", "entry_point", ...(caller.reader.kind === "public" ? [] : ["files"])] },
    {
      type: "judgements",
      properties: [
        "id",
        "submission_id",
        "judgement_type_id",
        ...(score ? ["score"] : []),
        ...(r2026 ? ["current"] : []),
        "start_time",
        "start_contest_time",
        "end_time",
        "end_contest_time",
        "max_run_time",
      ],
    },
    { type: "runs", properties: ["id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time", "run_time"] },
    { type: "clarifications", properties: ["id", "from_team_id", "to_team_id", "reply_to_id", "problem_id", "text", "time", "contest_time"] },
    { type: "awards", properties: ["id", "citation", "team_ids"] },
  ];
  if (jury) list.push({ type: "accounts", properties: ["id", "username", "type", "team_id"] });
  return list;
}

/**
 * `GET /contests/<id>/access`. No capabilities: this API is read-only
 * (teams submit and ask through the site; the jury answers there).
 */
export function accessOf(caller: CcsCaller) {
  return { capabilities: [] as string[], endpoints: endpointProperties(caller) };
}

export type CcsAccount = {
  id: string;
  username: string;
  /** The schemas' list (team, judge, admin, analyst, staff; staff: a balloon runner) or null: a signed-in reader with no role in the contest. */
  type: "team" | "judge" | "admin" | "staff" | null;
  team_id?: string;
};

/**
 * `GET /contests/<id>/accounts` (the jury only): each member of a real team
 * (`team`), the contest's creator, in a course contest its staff, and its
 * granted jury (`judge`); its granted balloon runners (`staff`).
 * Usernames are the emails that sign in with HTTP Basic.
 * @throws AppError UNAUTHENTICATED (401) signed out, FORBIDDEN (403) for others.
 */
export async function accountsOf(deps: ContestDeps, caller: CcsCaller): Promise<CcsAccount[]> {
  if (!canInContest(caller.role, "api.accounts")) throw new AppError(caller.user ? "FORBIDDEN" : "UNAUTHENTICATED");
  const c = caller.contest;
  const members = await deps.db
    .select({ userId: users.id, email: users.email, teamId: contestTeams.id })
    .from(contestTeamMembers)
    .innerJoin(contestTeams, eq(contestTeams.id, contestTeamMembers.teamId))
    .innerJoin(users, eq(users.id, contestTeamMembers.userId))
    .where(and(eq(contestTeams.contestId, c.id), isNull(contestTeams.virtualStartsAt)));
  const judges = new Set<string>([c.createdBy]);
  if (c.courseId) {
    const staff = await deps.db.select({ userId: courseMembers.userId, role: courseMembers.role }).from(courseMembers).where(eq(courseMembers.courseId, c.courseId));
    for (const s of staff) if (isStaff(s.role)) judges.add(s.userId);
  }
  const granted = await deps.db.select({ userId: contestRoles.userId, role: contestRoles.role }).from(contestRoles).where(eq(contestRoles.contestId, c.id));
  for (const g of granted) if (g.role === "jury") judges.add(g.userId);
  const teamUsers = new Set(members.map((m) => m.userId));
  const staff = new Set(granted.filter((g) => g.role === "balloon" && !judges.has(g.userId) && !teamUsers.has(g.userId)).map((g) => g.userId));
  const rows = judges.size + staff.size ? await deps.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, [...judges, ...staff])) : [];
  return [
    ...rows.map((u): CcsAccount => ({ id: u.id, username: u.email, type: judges.has(u.id) ? "judge" : "staff" })),
    ...members.filter((m) => !judges.has(m.userId)).map((m): CcsAccount => ({ id: m.userId, username: m.email, type: "team", team_id: m.teamId })),
  ];
}

/**
 * `GET /contests/<id>/account`: the caller's own account (`admin`, `judge`,
 * `team` with its team, `staff` for a balloon runner, or a null type: the schemas have no spectator).
 * @throws AppError CCS_OBJECT_NOT_FOUND (404) when signed out (as the spec asks).
 */
export function accountOf(caller: CcsCaller): CcsAccount {
  const user = caller.user;
  if (!user) throw new AppError("CCS_OBJECT_NOT_FOUND", { message: "Not signed in: no account" });
  if (caller.role === "jury") return { id: user.id, username: user.email, type: user.siteRole === "admin" ? "admin" : "judge" };
  if (caller.reader.kind === "team") return { id: user.id, username: user.email, type: "team", team_id: caller.reader.teamId };
  if (caller.role === "balloon") return { id: user.id, username: user.email, type: "staff" };
  return { id: user.id, username: user.email, type: null };
}

/**
 * `GET /contests/<id>/scoreboard`: the board the caller's view shows (the
 * jury's live; everyone else's frozen during the freeze) in the spec's shape:
 * rows in rank order, `score` as num_solved/total_time (`pass-fail`) or score
 * (`score`), per problem judged/pending counts and the minute solved. Minutes
 * are integers in 2023-06 and RELTIMEs in 2026-01, which also asks for the
 * row's `score.time` (the last improvement's minute; null while there is none).
 */
export async function scoreboardOf(deps: ContestDeps, caller: CcsCaller) {
  const c = caller.contest;
  const release = caller.release;
  const nowMs = deps.now();
  const board = await deps.contests.boards.board(c, caller.reader.kind === "jury" ? "jury" : "public", nowMs);
  const icpc = c.scoring === "icpc";
  const minute = (ms: number) => Math.floor(ms / 60_000);
  return {
    time: absTime(nowMs),
    contest_time: relTime(Math.max(0, nowMs - c.startsAt.getTime())),
    state: stateObject(c, nowMs),
    rows: board.rows.map((r) => {
      const times = r.cells.map((cell) => (icpc ? (cell.solved ? cell.solvedAtMs : null) : cell.score > 0 ? cell.scoreAtMs : null));
      const improved = times.reduce<number | null>((m, t) => (t === null ? m : Math.max(m ?? t, t)), null);
      const last = icpc ? (r.numSolved > 0 ? (r.lastSolvedAtMs ?? improved) : null) : improved;
      const score: Record<string, unknown> = icpc ? { num_solved: r.numSolved, total_time: minutesIn(release, r.penaltyMinutes) } : { score: r.score };
      if (release === "2026-01") score.time = last === null ? null : minutesIn(release, minute(last));
      return {
        rank: r.rank,
        team_id: r.teamId,
        score,
        problems: r.cells.map((cell, i) => {
          const atMs = times[i]!;
          return {
            problem_id: cell.problemId,
            num_judged: cell.numJudged,
            num_pending: cell.numPending,
            ...(icpc ? { solved: cell.solved } : { score: cell.score }),
            ...(atMs !== null ? { time: minutesIn(release, minute(atMs)) } : {}),
          };
        }),
      };
    }),
  };
}

/**
 * `GET /contests/<id>/submissions/<id>/files`: the submission's source as a
 * zip with the file at its root (named as the judge compiles it).
 * @throws AppError CCS_OBJECT_NOT_FOUND (404) for a submission the caller may not fetch.
 */
export async function submissionFiles(deps: ContestDeps, caller: CcsCaller, submissionId: string): Promise<Uint8Array> {
  const [row] = await deps.db
    .select({ teamId: submissions.teamId, language: submissions.language, code: submissions.code })
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.contestId, caller.contest.id)));
  if (!row || !row.teamId || !mayFetch(caller, row.teamId)) throw new AppError("CCS_OBJECT_NOT_FOUND", { message: `No submission with id ${submissionId}` });
  const language = LANGUAGES[row.language as LanguageId];
  return zipSync({ [language.sourceFileName(row.code)]: strToU8(row.code) });
}

export type { ContestRow };
