/**
 * Registering for a public contest: a new team (named, with an affiliation;
 * the registrant is its first member and gets a team code to share), joining
 * a team by its code (at most TEAM_MAX_MEMBERS), or — once a public contest
 * is over — a virtual participation (a window of the contest's length
 * starting now, with the scoreboard as it was at the same elapsed time).
 */
import { timingSafeEqual } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import { contestTeamMembers, contestTeams } from "../../db/schema.ts";
import type { SessionUser } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import { requireContest, requireContestAction, timesOf } from "./access.ts";
import { phaseAt } from "./clock.ts";
import { appendEvents } from "./feed.ts";
import type { ContestDeps, ContestView } from "./contests.ts";
import { viewContest } from "./contests.ts";
import type { registerInput } from "./shape.ts";
import { teamEvents } from "./store.ts";
import { addMember, insertTeam, TEAM_MAX_MEMBERS } from "./teams.ts";

const newTeamCode = (): string => crypto.randomUUID().replaceAll("-", "").slice(0, 12);

/** What registering needs beyond the contest deps: the budget of code guesses (Limiters.joinsByUser, 10 per 10 minutes, as for a course's invite code). */
export type RegisterDeps = ContestDeps & { codeLimiter: RateLimiter };

/** The limiter's key: one budget per user and contest (a wrong guess in one contest spends nothing in another, nor in a course). */
const guessKey = (contestId: string, userId: string) => `contest-code:${contestId}:${userId}`;

/**
 * Registers the caller.
 * A wrong registration code or team code spends one of the caller's guesses
 * in this contest (`codeLimiter`); a right one gives it back, so only wrong
 * guesses count.
 * @throws CONTEST_NOT_FOUND (404); FORBIDDEN (403) for the jury or a course contest; CONTEST_REGISTRATION_CLOSED (403)
 *   after the end (unless virtual); CONTEST_CODE_WRONG (403, field `code`); RATE_LIMITED (429) past the guesses;
 *   CONTEST_ALREADY_REGISTERED (409); CONTEST_TEAM_NAME_TAKEN (409, field `teamName`); CONTEST_TEAM_NOT_FOUND (404, field `teamCode`);
 *   CONTEST_TEAM_FULL (409); BAD_INPUT (400, field `virtual`) for a virtual start before the contest is over.
 */
export async function register(deps: RegisterDeps, user: SessionUser, input: z.infer<typeof registerInput>): Promise<ContestView> {
  const access = await requireContest(deps.db, user, input.id, "contest.view");
  // A participant asking again is told so; the jury may not take part in its own contest.
  if (access.role === "participant") throw new AppError("CONTEST_ALREADY_REGISTERED");
  await requireContestAction(deps.db, user, access, "contest.register");
  const contest = access.contest;
  const nowMs = deps.now();
  const over = phaseAt(timesOf(contest), nowMs) === "over";
  if (input.virtual) {
    if (!over) throw new AppError("BAD_INPUT", { field: "virtual", message: "virtual: a contest can be taken virtually once it is over" });
  } else if (over) {
    throw new AppError("CONTEST_REGISTRATION_CLOSED", { message: "The contest is over; take it virtually instead" });
  }
  const guessesCode = contest.registration === "code" && !input.virtual && input.teamCode === undefined;
  const guessesTeam = input.teamCode !== undefined && !input.virtual;
  if (guessesCode || guessesTeam) {
    // Spent before the comparison (concurrent guesses cannot all pass a check), given back when right.
    const rate = deps.codeLimiter.hit(guessKey(contest.id, user.id));
    if (!rate.ok) {
      throw new AppError("RATE_LIMITED", { message: `Too many wrong codes for this contest. Try again in ${rate.retryAfterSeconds} s.`, retryAfterSeconds: rate.retryAfterSeconds });
    }
  }
  if (guessesCode) {
    if (!codesEqual(input.code ?? "", contest.registrationCode ?? "")) throw new AppError("CONTEST_CODE_WRONG", { field: "code" });
    deps.codeLimiter.refund(guessKey(contest.id, user.id));
  }
  if (guessesTeam) {
    const [team] = await deps.db.select().from(contestTeams).where(eq(contestTeams.joinCode, input.teamCode!)).limit(1);
    if (!team || team.contestId !== contest.id) throw new AppError("CONTEST_TEAM_NOT_FOUND", { field: "teamCode" });
    deps.codeLimiter.refund(guessKey(contest.id, user.id));
    const [{ n }] = (await deps.db.select({ n: count() }).from(contestTeamMembers).where(eq(contestTeamMembers.teamId, team.id))) as [{ n: number }];
    if (n >= TEAM_MAX_MEMBERS) throw new AppError("CONTEST_TEAM_FULL", { message: `A team has at most ${TEAM_MAX_MEMBERS} members` });
    if (!(await addMember(deps.db, team, user.id))) throw new AppError("CONTEST_ALREADY_REGISTERED");
    return viewContest(deps, user, contest.id);
  }
  const name = input.teamName ?? (`${user.firstName} ${user.lastName}`.trim() || "Team");
  const made = await insertTeam(deps.db, {
    contestId: contest.id,
    name: input.virtual ? `${name} (virtual)` : name,
    organization: input.organization ?? "",
    userId: user.id,
    joinCode: input.virtual ? null : newTeamCode(),
    virtualStartsAt: input.virtual ? new Date(nowMs) : null,
  });
  if (made === "already-registered") throw new AppError("CONTEST_ALREADY_REGISTERED");
  if (made === "name-taken") throw new AppError("CONTEST_TEAM_NAME_TAKEN", { field: "teamName" });
  await appendEvents(deps.db, null, contest.id, teamEvents(made, nowMs));
  deps.contests.contestChanged(contest.id);
  return viewContest(deps, user, contest.id);
}

/** Compares a guess with the code in time independent of where they differ (an empty code never matches). */
function codesEqual(guess: string, code: string): boolean {
  const a = Buffer.from(guess);
  const b = Buffer.from(code);
  return code.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}
