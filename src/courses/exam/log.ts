/**
 * The exam access log: who started, from which address, who was refused by
 * which rule (and staff releases). Written by ./gate.ts and ./start.ts, read by staff (./staff.ts).
 */
import type { Database } from "../../../db/index.ts";
import { examAccessLog } from "../../../db/schema.ts";
import type { ExamRule } from "./rules.ts";

export type ExamLogEvent = "started" | "released" | ExamRule;

/** One entry (never throws: a failed write must not turn a refusal into a 500). */
export async function logExamEvent(
  db: Database,
  e: { assignmentId?: string | null; contestId?: string | null; userId: string | null; ip: string | null; event: ExamLogEvent; detail?: string; atMs: number },
): Promise<void> {
  try {
    await db.insert(examAccessLog).values({
      assignmentId: e.assignmentId ?? null,
      contestId: e.contestId ?? null,
      userId: e.userId,
      ip: e.ip && e.ip !== "unknown" ? e.ip : null,
      event: e.event,
      detail: (e.detail ?? "").slice(0, 200),
      at: new Date(e.atMs),
    });
  } catch {
    // The refusal itself still stands.
  }
}
