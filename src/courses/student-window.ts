/**
 * One student's window adjustments read together (issue 37): their extra time
 * in the course (./exam/extra-time.ts, decision 075) and the late days they
 * spent on the assignment (./late-days, decision 077). Every door that decides
 * whether a student's window is open, closed or late reads them through here
 * (or batches the same two reads), so no rule forgets one of them.
 */
import type { Database } from "../../db/index.ts";
import type { AssignmentRow } from "./access.ts";
import type { WindowAdjust } from "./deadlines.ts";
import { extraTimeFor, windowAdjust } from "./exam/extra-time.ts";
import { readSpends } from "./late-days/store.ts";

/**
 * @param lateDays the late days to count instead of those spent (a spend being tried).
 * @returns the adjustment for `./scores.ts` `windowOf`.
 */
export async function studentAdjust(db: Database, a: AssignmentRow, userId: string, lateDays?: number): Promise<WindowAdjust> {
  const [extra, spends] = await Promise.all([extraTimeFor(db, a.courseId, userId), lateDays === undefined ? readSpends(db, [a.id], userId) : null]);
  return { ...windowAdjust(a, extra), lateDays: lateDays ?? spends?.get(`${a.id}\u0000${userId}`) ?? 0 };
}
