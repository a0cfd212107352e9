/**
 * Clarifications: a team asks (about a problem or in general); the jury
 * answers to that team or to all, or announces. A team reads its own
 * questions, the answers to it and everything sent to all; the jury reads all.
 */
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { contestClarifications, contestProblems, contestTeams } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { requireContest, requireContestAction, type ContestAccess } from "./access.ts";
import { clarificationObject } from "./ccs/objects.ts";
import type { ContestDeps } from "./contests.ts";
import { appendEvents } from "./feed.ts";
import { notifyClarificationAnswered } from "../notifications/events.ts";
import type { clarificationInput } from "./shape.ts";
import { describeRate, type RateLimiter } from "../lib/rate-limit.ts";

export type ClarificationRow = typeof contestClarifications.$inferSelect;

export interface ClarificationItem {
  id: string;
  fromTeamId: string | null;
  fromTeamName: string | null;
  toTeamId: string | null;
  replyToId: string | null;
  problemId: string | null;
  text: string;
  createdAt: string;
  /** A question with an answer (for the jury's queue). */
  answered: boolean;
}

/**
 * Sends a clarification: a participant's question, or the jury's answer/announcement.
 * @throws CONTEST_NOT_FOUND (404); FORBIDDEN (403); COURSE_ARCHIVED (403) in an archived course's contest; RATE_LIMITED (429) past a participant's questions (RATE_LIMIT_CLARIFICATIONS_PER_USER, 30 an hour by default; the jury's answers are not limited); CONTEST_PROBLEM_NOT_FOUND (404, field `problemId`);
 *   CLARIFICATION_NOT_FOUND (404, field `replyToId`); CONTEST_TEAM_NOT_FOUND (404, field `toTeamId`).
 */
export async function sendClarification(deps: ContestDeps & { clarifyLimiter: RateLimiter }, user: Caller, input: z.infer<typeof clarificationInput>): Promise<ClarificationItem> {
  const access = await requireContest(deps.db, user, input.id, "contest.view");
  const c = access.contest;
  const jury = access.role === "jury";
  await requireContestAction(deps.db, user, access, jury ? "clarification.answer" : "clarification.ask");
  if (input.problemId !== undefined) {
    const [p] = await deps.db.select({ id: contestProblems.problemId }).from(contestProblems).where(and(eq(contestProblems.contestId, c.id), eq(contestProblems.problemId, input.problemId)));
    if (!p) throw new AppError("CONTEST_PROBLEM_NOT_FOUND", { field: "problemId" });
  }
  let fromTeamId: string | null = null;
  let toTeamId: string | null = null;
  let replyToId: string | null = null;
  let askingTeamId: string | null = null;
  let problemId = input.problemId ?? null;
  if (!jury) {
    if (input.replyToId || input.toTeamId || input.toAll) throw new AppError("FORBIDDEN", { message: "Only the jury answers or sends to teams" });
    const rate = deps.clarifyLimiter.hit(user.id);
    if (!rate.ok) throw new AppError("RATE_LIMITED", { message: `At most ${describeRate(deps.clarifyLimiter.options, "questions")}. Try again in ${rate.retryAfterSeconds} s.`, retryAfterSeconds: rate.retryAfterSeconds });
    fromTeamId = access.team!.id;
  } else {
    if (input.replyToId) {
      const [q] = await deps.db.select().from(contestClarifications).where(and(eq(contestClarifications.id, input.replyToId), eq(contestClarifications.contestId, c.id)));
      if (!q) throw new AppError("CLARIFICATION_NOT_FOUND", { field: "replyToId" });
      replyToId = q.id;
      askingTeamId = q.fromTeamId;
      problemId ??= q.problemId;
      toTeamId = input.toAll ? null : (input.toTeamId ?? q.fromTeamId);
    } else if (!input.toAll && input.toTeamId) {
      toTeamId = input.toTeamId;
    }
    if (toTeamId) {
      const [t] = await deps.db.select({ id: contestTeams.id }).from(contestTeams).where(and(eq(contestTeams.id, toTeamId), eq(contestTeams.contestId, c.id)));
      if (!t) throw new AppError("CONTEST_TEAM_NOT_FOUND", { field: "toTeamId", message: "toTeamId: no such team in this contest" });
    }
  }
  const nowMs = deps.now();
  const [row] = await deps.db
    .insert(contestClarifications)
    .values({ contestId: c.id, fromTeamId, toTeamId, replyToId, problemId, text: input.text, createdBy: user.id, createdAt: new Date(nowMs) })
    .returning();
  // A virtual participant's question is not part of the contest's log.
  if (!(fromTeamId && access.team?.virtualStartsAt)) {
    const data = clarificationObject(c, row!);
    const audience = fromTeamId === null && toTeamId === null ? "all" : "team";
    await appendEvents(deps.db, null, c.id, [{ type: "clarifications", id: row!.id, data, audience, teamId: fromTeamId ?? toTeamId, atMs: nowMs }]);
  }
  // The asking team hears of the answer (a notice, and an e-mail if they chose one: src/notifications).
  if (replyToId && askingTeamId) {
    await notifyClarificationAnswered(deps.db, { contestId: c.id, questionId: replyToId, askingTeamId, answerId: row!.id, answer: input.text }, nowMs);
  }
  deps.contests.bus.changed(c.id);
  return (await readFor(deps, access, row!.id))[0]!;
}

/**
 * The clarifications the caller may read, oldest first.
 * @throws CONTEST_NOT_FOUND (404), FORBIDDEN (403) for non-participants.
 */
export async function listClarifications(deps: ContestDeps, user: Caller | null, id: string): Promise<ClarificationItem[]> {
  const access = await requireContest(deps.db, user, id, "clarification.read");
  return readFor(deps, access);
}

async function readFor(deps: ContestDeps, access: ContestAccess, onlyId?: string): Promise<ClarificationItem[]> {
  const c = access.contest;
  const teamId = access.team?.id ?? "";
  const visible =
    access.role === "jury"
      ? undefined
      : or(eq(contestClarifications.fromTeamId, teamId), eq(contestClarifications.toTeamId, teamId), and(isNull(contestClarifications.fromTeamId), isNull(contestClarifications.toTeamId)));
  const rows = await deps.db
    .select({ clar: contestClarifications, teamName: contestTeams.name })
    .from(contestClarifications)
    .leftJoin(contestTeams, eq(contestTeams.id, contestClarifications.fromTeamId))
    .where(and(eq(contestClarifications.contestId, c.id), visible, onlyId ? eq(contestClarifications.id, onlyId) : undefined))
    // Insertion order breaks ties of the same millisecond (ids are random).
    .orderBy(asc(contestClarifications.createdAt), sql`contest_clarifications.rowid`);
  const all = onlyId ? await deps.db.select({ replyToId: contestClarifications.replyToId }).from(contestClarifications).where(eq(contestClarifications.contestId, c.id)) : rows.map((r) => ({ replyToId: r.clar.replyToId }));
  const answered = new Set(all.map((r) => r.replyToId).filter((x): x is string => x !== null));
  return rows.map(({ clar, teamName }) => ({
    id: clar.id,
    fromTeamId: clar.fromTeamId,
    fromTeamName: teamName,
    toTeamId: clar.toTeamId,
    replyToId: clar.replyToId,
    problemId: clar.problemId,
    text: clar.text,
    createdAt: clar.createdAt.toISOString(),
    answered: answered.has(clar.id),
  }));
}
