/**
 * The durable mail outbox (table `mail_outbox`, decision 059). Queuing is an
 * insert a caller puts in the same `db.batch` as the change that causes the
 * mail, so both land or neither does. Delivery state moves only through single
 * statements (no interactive transactions, decision 041):
 *
 * - `claimDue`: one UPDATE ... RETURNING takes up to `limit` due rows whose
 *   lease is free or ran out, sets this sender's lease and counts an attempt;
 * - `markSent` / `markRetry`: only while this sender still holds the lease.
 *
 * A sender killed mid-batch leaves its rows leased; once the lease runs out
 * another (or the restarted) sender takes them again. The Message-ID is fixed
 * when queued, so a message resent after a crash carries the same one.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { newId } from "../../db/ids.ts";
import { mailOutbox } from "../../db/schema.ts";
import type { ComposedMail } from "./compose.ts";
import { fromDomain } from "./settings.ts";

/** A queued message as the sender sees it. */
export type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * The insert that queues one message: put it in the caller's `db.batch([...])` next to its cause.
 * @param kind what the mail is for (`password-reset`, ...), shown to admins.
 * @param mailFrom MAIL_FROM (its domain names the Message-ID).
 * @param opts.key a stable name for the message (its Message-ID's local part): queuing the same key again is
 *   refused by the unique Message-ID, so add `.onConflictDoNothing()` to make the insert idempotent.
 * @param opts.headers extra header lines (e.g. `List-Unsubscribe`).
 */
export function queueMail(db: Database, mailFrom: string, to: string, kind: string, mail: ComposedMail, opts: { key?: string; headers?: Record<string, string> } = {}) {
  const id = newId();
  return db.insert(mailOutbox).values({
    id,
    messageId: `<${opts.key ?? id}@${fromDomain(mailFrom)}>`,
    kind,
    toAddress: to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    headers: opts.headers ?? null,
  });
}

/**
 * Claims up to `limit` due messages for `owner` until `nowMs + leaseMs`, counting one attempt each.
 * @returns the claimed rows, oldest due first.
 */
export async function claimDue(db: Database, owner: string, nowMs: number, leaseMs: number, limit: number): Promise<OutboxRow[]> {
  const rows = await db.all<Record<string, unknown>>(sql`
    update mail_outbox set lease_owner = ${owner}, lease_until = ${nowMs + leaseMs}, attempts = attempts + 1
    where id in (
      select id from mail_outbox
      where status = 'queued' and next_attempt_at <= ${nowMs} and (lease_until is null or lease_until <= ${nowMs})
      order by next_attempt_at limit ${limit}
    )
    returning id`);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => String(r.id));
  const claimed = await db
    .select()
    .from(mailOutbox)
    .where(and(sql`${mailOutbox.id} in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`, eq(mailOutbox.leaseOwner, owner)));
  return claimed.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime());
}

/** Records a delivery (only while `owner` holds the lease). @returns whether the row was still this sender's. */
export async function markSent(db: Database, id: string, owner: string, nowMs: number): Promise<boolean> {
  const done = await db
    .update(mailOutbox)
    .set({ status: "sent", sentAt: new Date(nowMs), leaseOwner: null, leaseUntil: null, lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.leaseOwner, owner)))
    .returning({ id: mailOutbox.id });
  return done.length > 0;
}

/** Backoff before attempt n+1 after n failed ones: 30 s doubling, at most 6 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
}

/**
 * Records a failed attempt: due again after `retryDelayMs`, or `failed` for good once `attempts` reached
 * `maxAttempts` (or when `permanent`: the server refused the address itself).
 */
export async function markRetry(
  db: Database,
  row: Pick<OutboxRow, "id" | "attempts">,
  owner: string,
  nowMs: number,
  error: string,
  opts: { maxAttempts: number; permanent?: boolean },
): Promise<void> {
  const giveUp = opts.permanent || row.attempts >= opts.maxAttempts;
  await db
    .update(mailOutbox)
    .set({
      status: giveUp ? "failed" : "queued",
      nextAttemptAt: new Date(nowMs + retryDelayMs(row.attempts)),
      leaseOwner: null,
      leaseUntil: null,
      lastError: error.slice(0, 2000),
    })
    .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.leaseOwner, owner)));
}

/** What site admins see of the outbox: counts by status and the latest failures (newest first). */
export interface OutboxReport {
  queued: number;
  sent: number;
  failed: number;
  failures: { id: string; kind: string; to: string; subject: string; attempts: number; lastError: string | null; createdAt: string }[];
}

/** Counts by status and the `limit` newest failed messages. */
export async function outboxReport(db: Database, limit = 50): Promise<OutboxReport> {
  const counts = await db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).groupBy(mailOutbox.status);
  const by = Object.fromEntries(counts.map((c) => [c.status, c.n]));
  const failed = await db.select().from(mailOutbox).where(eq(mailOutbox.status, "failed")).orderBy(desc(mailOutbox.createdAt)).limit(limit);
  return {
    queued: by.queued ?? 0,
    sent: by.sent ?? 0,
    failed: by.failed ?? 0,
    failures: failed.map((r) => ({
      id: r.id,
      kind: r.kind,
      to: r.toAddress,
      subject: r.subject,
      attempts: r.attempts,
      lastError: r.lastError,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}
