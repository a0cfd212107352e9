/** Course membership as the LMS says it: launches and roster syncs put people in with their LTI role. */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { courseMembers } from "../../db/schema.ts";

/**
 * Puts the user in the course with the LMS's role (or changes their role to it); an owner stays owner.
 * @returns what changed.
 */
export async function joinWithRole(db: Database, courseId: string, userId: string, role: "instructor" | "ta" | "student"): Promise<"added" | "updated" | "unchanged"> {
  const [member] = await db.select().from(courseMembers).where(and(eq(courseMembers.courseId, courseId), eq(courseMembers.userId, userId))).limit(1);
  if (member?.role === "owner" || member?.role === role) return "unchanged";
  await db
    .insert(courseMembers)
    .values({ courseId, userId, role })
    .onConflictDoUpdate({ target: [courseMembers.courseId, courseMembers.userId], set: { role } });
  return member ? "updated" : "added";
}
