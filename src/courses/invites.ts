/**
 * Roster invitations for people without an account yet: when an account is
 * created with an invited email, it joins those courses with the invited
 * role. Without a verified email (password sign-up proves nothing about the
 * address) only student invitations are taken up: anyone could register a
 * TA's address first. Staff invitations wait for a sign-in that proves the
 * email (campus sign-in), or for the instructor to add the account.
 */
import { restrictSignIn } from "../auth/session.ts";
import { refuseSecondSignIn } from "./exam/gate.ts";
import { onJudged } from "../submissions/judged.ts";
import { recomputeAfterJudged } from "./judging.ts";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { courseInvites, courseMembers } from "../../db/schema.ts";
import { normalizeEmail } from "../lib/email.ts";
import { onAccountCreated } from "../accounts/user.ts";

/**
 * Turns the email's invitations into memberships (existing memberships are kept as they are).
 * @returns the ids of the courses joined.
 */
export async function claimCourseInvites(db: Database, userId: string, email: string, opts: { staffRoles: boolean }): Promise<string[]> {
  const key = normalizeEmail(email);
  const invites = await db.select().from(courseInvites).where(eq(courseInvites.emailNormalized, key));
  const taken = invites.filter((i) => opts.staffRoles || i.role === "student");
  if (!taken.length) return [];
  await db.batch([
    db
      .insert(courseMembers)
      .values(taken.map((i) => ({ courseId: i.courseId, userId, role: i.role })))
      .onConflictDoNothing(),
    db.delete(courseInvites).where(
      and(
        eq(courseInvites.emailNormalized, key),
        inArray(
          courseInvites.courseId,
          taken.map((i) => i.courseId),
        ),
      ),
    ),
  ]);
  return taken.map((i) => i.courseId);
}

/** A new account takes up the roster invitations for its email (staff roles only when the way in proved the email). */
async function takeUpInvites(db: Database, user: { id: string; email: string }, opts: { emailVerified: boolean }): Promise<void> {
  await claimCourseInvites(db, user.id, user.email, { staffRoles: opts.emailVerified });
}

/** Registers what courses do when an account is made (`onAccountCreated`); called once where the services are built. */
export function registerCourseHooks(): void {
  onAccountCreated(takeUpInvites);
  onJudged(recomputeAfterJudged);
  restrictSignIn(refuseSecondSignIn);
}
