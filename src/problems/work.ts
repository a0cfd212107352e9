/**
 * The judging work a problem asks of every submission (hidden tests × passes
 * × time limit), bounded for public problems of ordinary users. Anyone may
 * create a public problem, and every submission to it runs every test: at
 * the other ceilings (1000 tests, 20 passes, 10 s) one problem could ask for
 * days of judging per submission (review N1, 2026-11-26). Staff problems
 * (course problems, problems of site admins and course creators) answer to
 * the other ceilings only; every submission also has a wall-clock budget
 * (src/judge/budget.ts) whoever wrote the problem.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { ceilingMessage, type ProblemCeilings } from "./ceilings.ts";
import { DEFAULT_TIME_LIMIT_MS } from "./limits.ts";

/** What the work of a problem is computed from, as it will be stored. */
export interface ProblemWork {
  /** The problem's owner (the author, or the importer). */
  ownerId: string;
  /** Its course: a course problem is staff's. */
  courseId: string | null;
  /** The problem's time limit, ms (before any language multiplier); default DEFAULT_TIME_LIMIT_MS. */
  timeLimitMs?: number | null;
  /** Validation passes per test (multi-pass), default 1. */
  validationPasses?: number | null;
  /** Hidden tests. */
  testCount: number;
}

/** Tests × passes × time limit, ms. */
export function workMs(p: Pick<ProblemWork, "timeLimitMs" | "validationPasses" | "testCount">): number {
  return p.testCount * (p.validationPasses ?? 1) * (p.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
}

/**
 * Refuses a public problem of an ordinary user whose work passes `ceilings.publicWorkMs`.
 * @throws AppError BAD_INPUT naming `hiddenTestCases`, the work and the setting PUBLIC_PROBLEM_WORK_MAX_SECONDS.
 */
export async function assertPublicWork(db: Database, p: ProblemWork, ceilings: ProblemCeilings): Promise<void> {
  if (p.courseId) return;
  const work = workMs(p);
  if (work <= ceilings.publicWorkMs) return;
  const [owner] = await db.select({ siteRole: users.siteRole, canCreateCourses: users.canCreateCourses }).from(users).where(eq(users.id, p.ownerId));
  if (owner && (owner.siteRole === "admin" || owner.canCreateCourses)) return;
  const passes = p.validationPasses ?? 1;
  throw new AppError("BAD_INPUT", {
    field: "hiddenTestCases",
    message:
      `hiddenTestCases: ${p.testCount} tests × ${passes} pass${passes === 1 ? "" : "es"} × ${(p.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS) / 1000} s = ` +
      `${Math.round(work / 1000)} s of judging per submission; a public problem may ask ${ceilingMessage("publicWorkMs", ceilings)} ` +
      "(fewer tests or a lower time limit; course problems are not bound by it)",
  });
}
