/**
 * One's own notices (decision 073): the latest page (newest first, keyset
 * cursor), the unread count, marking read, and the switches per kind. Every
 * function acts on the caller's own rows only; the indexes
 * `notifications_latest_idx` and `notifications_unread_idx` serve the page and
 * the count.
 */
import { and, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { notificationPreferences, notifications } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { idField } from "../lib/fields.ts";
import { DEFAULT_SWITCHES, NOTIFICATION_KINDS, type KindSwitches, type NotificationKind } from "./kinds.ts";

/** Most notices on one page. */
export const NOTICES_PAGE_MAX = 50;

/** A notice as its reader sees it; the client words it from `kind` and `payload`. */
export interface NoticeItem {
  id: string;
  kind: NotificationKind;
  courseId: string | null;
  assignmentId: string | null;
  contestId: string | null;
  clarificationId: string | null;
  announcementId: string | null;
  /** Titles and values the words need (e.g. `title`, `course`, `dueAt` ISO, `score`). */
  payload: Record<string, string>;
  createdAt: string;
  readAt: string | null;
}

export const pageInput = z.object({
  /** The `nextCursor` of the previous page. */
  cursor: z.string({ error: "Must be text" }).max(200, { error: "At most 200 characters" }).optional(),
  limit: z.coerce.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(1, { error: "At least 1" }).max(NOTICES_PAGE_MAX, { error: `At most ${NOTICES_PAGE_MAX}` }).optional(),
});

function encodeCursor(createdAtMs: number, id: string): string {
  return `${createdAtMs}.${id}`;
}

function decodeCursor(cursor: string): { createdAtMs: number; id: string } {
  const m = /^(\d{1,15})\.([0-9a-z]{1,64})$/.exec(cursor);
  if (!m) throw new AppError("BAD_INPUT", { field: "cursor", message: "cursor: Not a cursor of this list" });
  return { createdAtMs: Number(m[1]), id: m[2]! };
}

/**
 * The caller's notices, newest first.
 * @returns up to `limit` (default and most NOTICES_PAGE_MAX) notices and the cursor of the next page (null at the end).
 * @throws AppError BAD_INPUT (400, field `cursor`) for a cursor this list did not give.
 */
export async function listNotices(db: Database, userId: string, input: z.infer<typeof pageInput>): Promise<{ items: NoticeItem[]; nextCursor: string | null }> {
  const limit = input.limit ?? NOTICES_PAGE_MAX;
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.shown, true),
        after
          ? or(lt(notifications.createdAt, new Date(after.createdAtMs)), and(eq(notifications.createdAt, new Date(after.createdAtMs)), lt(notifications.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      id: r.id,
      kind: r.kind,
      courseId: r.courseId,
      assignmentId: r.assignmentId,
      contestId: r.contestId,
      clarificationId: r.clarificationId,
      announcementId: r.announcementId,
      payload: r.payload,
      createdAt: r.createdAt.toISOString(),
      readAt: r.readAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt.getTime(), last.id) : null,
  };
}

/** How many of the caller's shown notices are unread (one count over a partial index). */
export async function unreadCount(db: Database, userId: string): Promise<{ unread: number }> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), eq(notifications.shown, true)));
  return { unread: Number(row?.n ?? 0) };
}

export const markReadInput = z.union(
  [
    z.object({ ids: z.array(idField(), { error: "Must be a list of ids" }).min(1, { error: "At least one id" }).max(NOTICES_PAGE_MAX, { error: `At most ${NOTICES_PAGE_MAX} ids` }) }),
    z.object({ all: z.literal(true, { error: "Must be true" }) }),
  ],
  { error: "Give ids (a list) or all: true" },
);

/**
 * Marks some (`ids`, the caller's own; others' are ignored) or all of the caller's notices read.
 * @returns how many changed, and the unread count after.
 */
export async function markRead(db: Database, userId: string, input: z.infer<typeof markReadInput>, nowMs: number): Promise<{ marked: number; unread: number }> {
  const changed = await db
    .update(notifications)
    .set({ readAt: new Date(nowMs) })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), "ids" in input ? inArray(notifications.id, input.ids) : undefined))
    .returning({ id: notifications.id });
  return { marked: changed.length, ...(await unreadCount(db, userId)) };
}

/** The caller's switches, one entry per kind (defaults where never set). */
export async function preferences(db: Database, userId: string): Promise<{ kinds: ({ kind: NotificationKind } & KindSwitches)[] }> {
  const rows = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  const set = new Map(rows.map((r) => [r.kind, r]));
  return {
    kinds: NOTIFICATION_KINDS.map((kind) => {
      const r = set.get(kind);
      return { kind, inApp: r?.inApp ?? DEFAULT_SWITCHES[kind].inApp, email: r?.email ?? DEFAULT_SWITCHES[kind].email };
    }),
  };
}

const kindField = z.enum(NOTIFICATION_KINDS, { error: `Must be one of ${NOTIFICATION_KINDS.join(", ")}` });

export const preferencesInput = z.object({
  kinds: z
    .array(z.object({ kind: kindField, inApp: z.boolean({ error: "Must be true or false" }), email: z.boolean({ error: "Must be true or false" }) }), { error: "Must be a list" })
    .min(1, { error: "At least one kind" })
    .max(NOTIFICATION_KINDS.length, { error: `At most ${NOTIFICATION_KINDS.length} kinds` }),
});

/** Sets the caller's switches for the kinds given (the others keep theirs). @returns every kind's switches after. */
export async function setPreferences(db: Database, userId: string, input: z.infer<typeof preferencesInput>) {
  await db.batch(
    input.kinds.map((k) =>
      db
        .insert(notificationPreferences)
        .values({ userId, kind: k.kind, inApp: k.inApp, email: k.email })
        .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.kind], set: { inApp: k.inApp, email: k.email } }),
    ) as never,
  );
  return preferences(db, userId);
}

/** Turns one kind's e-mail off for a user (the unsubscribe link), keeping its in-app switch. */
export async function turnEmailOff(db: Database, userId: string, kind: NotificationKind): Promise<void> {
  await db
    .insert(notificationPreferences)
    .values({ userId, kind, inApp: DEFAULT_SWITCHES[kind].inApp, email: false })
    .onConflictDoUpdate({ target: [notificationPreferences.userId, notificationPreferences.kind], set: { email: false } });
}
