/**
 * Grade passback (AGS 2.0) through a durable outbox:
 *
 * - `fillOutbox` finds LMS activities linked to an assignment whose scores
 *   changed since they were last queued (`assignments.scores_version` past
 *   the link's `synced_version`), and writes each changed student's total
 *   (the assignment's points earned / its points) into `lti_grade_outbox`,
 *   one row per (activity, student), replacing a score not sent yet; the
 *   rows and the new synced version are written in one transaction.
 * - `sendDue` posts due rows to the line item's /scores; a failure is kept
 *   (`last_error`) and retried after 5 s, 10 s, 20 s, ... at most an hour.
 * Both run every GRADE_SYNC_EVERY_MS in the web server (`startGradeSync`);
 * nothing lives only in memory, so a restart loses no grade.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { slotPointsTotal } from "../courses/pools/slot-column.ts";
import { assignments, assignmentScores, courses, externalIdentities, ltiGradeOutbox, ltiPlatforms, ltiResourceLinks } from "../../db/schema.ts";
import type { Logger } from "../log.ts";
import { SCOPE } from "./claims.ts";
import { postScore } from "./services.ts";

export const GRADE_SYNC_EVERY_MS = 2000;
/** Rows posted per round. */
export const GRADE_SEND_BATCH = 50;
/** Retry delay after the n-th failure: 5 s × 2^(n-1), at most an hour. */
export function retryDelayMs(failures: number): number {
  return Math.min(3_600_000, 5000 * 2 ** Math.max(0, failures - 1));
}

/**
 * Queues the changed scores of every linked assignment.
 * @returns how many outbox rows were written.
 */
export async function fillOutbox(db: Database, now = Date.now()): Promise<number> {
  const links = await db
    .select({
      id: ltiResourceLinks.id,
      assignmentId: ltiResourceLinks.assignmentId,
      syncedVersion: ltiResourceLinks.syncedVersion,
      scoresVersion: assignments.scoresVersion,
      issuer: ltiPlatforms.issuer,
    })
    .from(ltiResourceLinks)
    .innerJoin(assignments, eq(assignments.id, ltiResourceLinks.assignmentId))
    // An archived course is read-only: nothing of it goes to the LMS gradebook any more.
    .innerJoin(courses, and(eq(courses.id, assignments.courseId), isNull(courses.archivedAt)))
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiResourceLinks.platformId))
    .where(and(isNotNull(ltiResourceLinks.lineItemUrl), gt(assignments.scoresVersion, ltiResourceLinks.syncedVersion)));
  let written = 0;
  for (const link of links) {
    const assignmentId = link.assignmentId!;
    const changed = await db
      .selectDistinct({ userId: assignmentScores.userId })
      .from(assignmentScores)
      .where(and(eq(assignmentScores.assignmentId, assignmentId), gt(assignmentScores.version, link.syncedVersion)));
    const userIds = changed.map((c) => c.userId);
    const writes = [];
    if (userIds.length) {
      const [maxPoints, totals, ids] = await Promise.all([
        // Each slot once: a pool's problems are one problem to each student (src/courses/pools).
        slotPointsTotal(db, assignmentId),
        db
          .select({ userId: assignmentScores.userId, score: sql<number>`sum(${assignmentScores.score})` })
          .from(assignmentScores)
          .where(and(eq(assignmentScores.assignmentId, assignmentId), inArray(assignmentScores.userId, userIds)))
          .groupBy(assignmentScores.userId),
        db
          .select({ userId: externalIdentities.userId, subject: externalIdentities.subject })
          .from(externalIdentities)
          .where(and(eq(externalIdentities.issuer, link.issuer), inArray(externalIdentities.userId, userIds))),
      ]);
      const subjectOf = new Map(ids.map((i) => [i.userId, i.subject]));
      for (const t of totals) {
        const ltiUserId = subjectOf.get(t.userId);
        // A member who never came from this LMS (joined by invite code) has no id there to post to.
        if (!ltiUserId) continue;
        const values = { scoreGiven: Math.round(t.score * 1000) / 1000, scoreMaximum: maxPoints, scoredAt: new Date(now), attempts: 0, nextAttemptAt: new Date(now), lastError: null, sentAt: null };
        writes.push(
          db
            .insert(ltiGradeOutbox)
            .values({ resourceLinkRowId: link.id, userId: t.userId, ltiUserId, ...values })
            .onConflictDoUpdate({ target: [ltiGradeOutbox.resourceLinkRowId, ltiGradeOutbox.userId], set: { ltiUserId, ...values } }),
        );
      }
    }
    written += writes.length;
    await db.batch([db.update(ltiResourceLinks).set({ syncedVersion: link.scoresVersion }).where(eq(ltiResourceLinks.id, link.id)), ...writes]);
  }
  return written;
}

/**
 * Posts the due rows.
 * @returns how many were sent and how many failed (and wait for a retry).
 */
export async function sendDue(db: Database, log?: Logger, now = Date.now()): Promise<{ sent: number; failed: number }> {
  const due = await db
    .select({ row: ltiGradeOutbox, lineItemUrl: ltiResourceLinks.lineItemUrl, platform: ltiPlatforms })
    .from(ltiGradeOutbox)
    .innerJoin(ltiResourceLinks, eq(ltiResourceLinks.id, ltiGradeOutbox.resourceLinkRowId))
    .innerJoin(assignments, eq(assignments.id, ltiResourceLinks.assignmentId))
    .innerJoin(courses, and(eq(courses.id, assignments.courseId), isNull(courses.archivedAt)))
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiResourceLinks.platformId))
    .where(and(isNull(ltiGradeOutbox.sentAt), lte(ltiGradeOutbox.nextAttemptAt, new Date(now))))
    .orderBy(asc(ltiGradeOutbox.nextAttemptAt))
    .limit(GRADE_SEND_BATCH);
  let sent = 0;
  let failed = 0;
  for (const { row, lineItemUrl, platform } of due) {
    // Only the score this round read counts as sent: a newer one queued meanwhile stays due.
    const same = and(eq(ltiGradeOutbox.id, row.id), eq(ltiGradeOutbox.scoredAt, row.scoredAt));
    try {
      await postScore(
        db,
        platform,
        lineItemUrl!,
        { userId: row.ltiUserId, scoreGiven: row.scoreGiven, scoreMaximum: row.scoreMaximum, timestamp: row.scoredAt.toISOString() },
        [SCOPE.score],
      );
      await db.update(ltiGradeOutbox).set({ sentAt: new Date(), attempts: row.attempts + 1, lastError: null }).where(same);
      sent++;
    } catch (err) {
      failed++;
      const message = (err as Error).message.slice(0, 500);
      log?.warn(`lti grade to ${platform.name}: ${message}`, { attempts: row.attempts + 1 });
      await db
        .update(ltiGradeOutbox)
        .set({ attempts: row.attempts + 1, lastError: message, nextAttemptAt: new Date(Date.now() + retryDelayMs(row.attempts + 1)) })
        .where(same);
    }
  }
  return { sent, failed };
}

/**
 * Runs fillOutbox and sendDue every `everyMs` (one round at a time).
 * @returns stop(), which waits for a round in progress.
 */
export function startGradeSync(db: Database, log: Logger, everyMs = GRADE_SYNC_EVERY_MS): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const round = async () => {
    try {
      await fillOutbox(db);
      await sendDue(db, log);
    } catch (err) {
      log.error("lti grade sync failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  };
  const timer = setInterval(() => {
    if (!running) running = round().finally(() => (running = null));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
