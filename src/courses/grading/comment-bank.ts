/**
 * A course's comment bank (issue 37 §4): reusable words for line comments.
 * Staff read it (`submission.readAll`), add to it and delete from it
 * (`review.grade`); students never see it (only the comments put on their code).
 */
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { commentBank } from "../../../db/schema.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { idField, requiredText } from "../../lib/fields.ts";
import { requireCourse } from "../access.ts";
import { MAX_COMMENT_CHARS } from "./reviews.ts";

/** Most comments in one course's bank. */
export const MAX_BANK_COMMENTS = 1000;

export interface BankComment {
  id: string;
  text: string;
  createdAt: string;
}

/** POST /api/courses/:id/comment-bank `{text}`. */
export const bankCommentInput = z.object({ courseId: idField(), text: requiredText(MAX_COMMENT_CHARS) });

const shape = (r: typeof commentBank.$inferSelect): BankComment => ({ id: r.id, text: r.text, createdAt: r.createdAt.toISOString() });

/** The bank, newest first. @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: submission.readAll). */
export async function listBank(db: Database, user: Caller, courseId: string): Promise<BankComment[]> {
  await requireCourse(db, user, courseId, "submission.readAll");
  const rows = await db.select().from(commentBank).where(eq(commentBank.courseId, courseId)).orderBy(desc(commentBank.createdAt), desc(commentBank.id)).limit(MAX_BANK_COMMENTS);
  return rows.map(shape);
}

/** Adds a comment (the same words twice are kept once). @throws COURSE_NOT_FOUND (404), FORBIDDEN (403: review.grade), COURSE_ARCHIVED (403). */
export async function addToBank(db: Database, user: Caller, input: z.infer<typeof bankCommentInput>, now: number): Promise<BankComment> {
  await requireCourse(db, user, input.courseId, "review.grade");
  const [same] = await db.select().from(commentBank).where(and(eq(commentBank.courseId, input.courseId), eq(commentBank.text, input.text))).limit(1);
  if (same) return shape(same);
  const [row] = await db.insert(commentBank).values({ courseId: input.courseId, text: input.text, createdBy: user.id, createdAt: new Date(now) }).returning();
  return shape(row!);
}

/** Deletes a comment of the bank (line comments already written keep their words). @throws COMMENT_NOT_FOUND (404), FORBIDDEN (403: review.grade). */
export async function deleteFromBank(db: Database, user: Caller, id: string): Promise<{ deleted: string }> {
  const [row] = await db.select({ courseId: commentBank.courseId }).from(commentBank).where(eq(commentBank.id, id)).limit(1);
  if (!row) throw new AppError("COMMENT_NOT_FOUND");
  await requireCourse(db, user, row.courseId, "review.grade").catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404) throw new AppError("COMMENT_NOT_FOUND");
    throw err;
  });
  await db.delete(commentBank).where(eq(commentBank.id, id));
  return { deleted: id };
}
