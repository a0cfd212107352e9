/**
 * The paste record: a course setting (off by default, stated to students on
 * the solving page) under which the editor reports large pastes (when, how
 * many characters; never what) with a submission that counts for an
 * assignment. Staff see them beside a similarity pair (./reports.ts).
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { assignments, courses, submissionPastes, submissions } from "../../db/schema.ts";

/** Pastes kept per submission, at most (the newest). */
export const PASTES_MAX = 100;
/** A paste this large or larger is recorded by the editor, characters. */
export const LARGE_PASTE_CHARS = 200;

export const pastesField = () =>
  z
    .array(z.object({ atMs: z.number().int().min(0), chars: z.number().int().min(1).max(10_000_000) }).strict())
    .max(PASTES_MAX)
    .optional();

/**
 * Keeps a submission's pastes when it counts for an assignment of a course that records them; otherwise keeps nothing.
 * @returns whether they were kept.
 */
export async function recordPastes(db: Database, submissionId: string, pastes: { atMs: number; chars: number }[] | undefined): Promise<boolean> {
  if (!pastes?.length) return false;
  const [row] = await db
    .select({ record: courses.recordPastes })
    .from(submissions)
    .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
    .innerJoin(courses, eq(courses.id, assignments.courseId))
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row?.record) return false;
  const events = [...pastes].sort((a, b) => a.atMs - b.atMs).slice(-PASTES_MAX);
  await db.insert(submissionPastes).values({ submissionId, events }).onConflictDoNothing();
  return true;
}
