/**
 * The caller-facing problem operations the doors (tRPC, REST) call: each
 * checks who may do it (access.ts) and the write rate limit, then acts
 * (store.ts). Shapes: ProblemShape (shape.ts).
 */
import type { Database } from "../../db/index.ts";
import type { Caller } from "../accounts/user.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";
import { authorizeProblemWrite, requireEditableProblem, requireVisibleProblem } from "./access.ts";
import type { ProblemInput, ProblemUpdate } from "./input.ts";
import type { ProblemShape } from "./shape.ts";
import type { ProblemCeilings } from "./ceilings.ts";
import type { ProblemRow } from "./shape.ts";
import { createProblem, limitProblemWrites, publicShape, readHiddenTests, softDeleteProblem, updateProblem } from "./store.ts";

/**
 * Another domain's hold on a problem's judging: while it depends on the
 * problem's tests, validator, limits and verdicts staying as they are, it
 * refuses a caller who may not change them there (src/contests registers
 * one: a contest not yet finalized holds its problems for its jury). A guard
 * throws an AppError naming what holds the problem; it only narrows who may
 * change a problem, never widens it.
 */
export type ProblemChangeGuard = (db: Database, caller: Caller, problem: ProblemRow, nowMs: number) => Promise<void>;

const changeGuards: ProblemChangeGuard[] = [];

/** Registers a guard (once: registering the same function again does nothing). */
export function guardProblemChanges(guard: ProblemChangeGuard): void {
  if (!changeGuards.includes(guard)) changeGuards.push(guard);
}

/**
 * Asks every registered guard whether `caller` may change `problem`'s judging
 * now: its statement, tests, validator or limits (an edit), its existence (a
 * delete), or its verdicts (a rejudge, a verify that derives a time limit).
 * Called after the caller's own right to the problem was checked.
 * @throws the refusing guard's AppError (403, naming what holds the problem).
 */
export async function requireProblemChangeAllowed(db: Database, caller: Caller, problem: ProblemRow, nowMs: number): Promise<void> {
  for (const guard of changeGuards) await guard(db, caller, problem, nowMs);
}

/**
 * One live problem without hidden tests, for whoever may see it (a public one signed out too).
 * @throws PROBLEM_NOT_FOUND (404).
 */
export async function viewProblem(db: Database, user: Caller | null, problemId: string, now: number): Promise<ProblemShape> {
  return publicShape(db, await requireVisibleProblem(db, user, problemId, now));
}

/**
 * One problem whole, as its edit form needs it: the public shape with its
 * hidden tests and validator, for those who may edit it (./access.ts
 * `requireEditableProblem`: its author, its course's teachers, site admins).
 * The bank's pages carry neither, so the form asks for this one problem
 * instead of the whole list.
 * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403).
 */
export async function problemForEdit(db: Database, user: Caller, problemId: string, now: number): Promise<ProblemShape> {
  const row = await requireEditableProblem(db, user, problemId, "NOT_PROBLEM_OWNER_UPDATE", now);
  const [shape, hidden] = await Promise.all([publicShape(db, row), readHiddenTests(db, [row.id])]);
  return { ...shape, hiddenTestCases: hidden.get(row.id) ?? [], validator: row.validator ?? null };
}

/**
 * Creates a problem owned by `user`; with `courseId`, a course-private one (problem.edit there).
 * @throws RATE_LIMITED (429); COURSE_NOT_FOUND (404), FORBIDDEN (403), COURSE_ARCHIVED (403) with `courseId`;
 *   BAD_INPUT / PAYLOAD_TOO_LARGE beyond this server's `ceilings` (naming the setting).
 */
export async function createProblemAs(db: Database, user: Caller, input: ProblemInput, limiter: RateLimiter, ceilings: ProblemCeilings): Promise<ProblemShape> {
  await authorizeProblemWrite(db, user, input.courseId, limiter);
  return createProblem(db, user.id, input, ceilings);
}

/**
 * Updates a problem its owner (or its course's staff) may edit; bumps `__v`.
 * @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_UPDATE (403), a guard's FORBIDDEN (403: a contest holds it), RATE_LIMITED (429), BAD_INPUT (400).
 */
export async function editProblem(
  db: Database,
  user: Caller,
  input: ProblemUpdate & { id: string },
  now: number,
  limiter: RateLimiter,
  ceilings: ProblemCeilings,
): Promise<ProblemShape> {
  const current = await requireEditableProblem(db, user, input.id, "NOT_PROBLEM_OWNER_UPDATE", now);
  await requireProblemChangeAllowed(db, user, current, now);
  limitProblemWrites(limiter, user.id);
  return updateProblem(db, current, input, ceilings);
}

/**
 * Soft-deletes a problem (it leaves every list; its submissions stay readable by their authors).
 * @returns the spec's answer. @throws PROBLEM_NOT_FOUND (404), NOT_PROBLEM_OWNER_DELETE (403), a guard's FORBIDDEN (403: a contest holds it).
 */
export async function deleteProblem(db: Database, user: Caller, problemId: string, now: number): Promise<{ message: string; _id: string }> {
  await requireProblemChangeAllowed(db, user, await requireEditableProblem(db, user, problemId, "NOT_PROBLEM_OWNER_DELETE", now), now);
  await softDeleteProblem(db, problemId);
  return { message: "Problem deleted successfully!", _id: problemId };
}
