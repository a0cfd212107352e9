/**
 * The kinds of notice (issue 36 §5, decision 073) and each kind's default
 * switches: every kind is shown in the app unless its reader turned it off;
 * e-mail is on by default only for announcements, grade changes, "due
 * soon" and regrade requests and answers. Pure data: the schema and the client read it.
 */

export const NOTIFICATION_KINDS = [
  "announcement",
  "assignment-opened",
  "assignment-due",
  "grade-changed",
  "clarification-answered",
  "contest-starting",
  "regrade-requested",
  "regrade-answered",
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One reader's switches for one kind. */
export interface KindSwitches {
  inApp: boolean;
  email: boolean;
}

/** The switches of a kind its reader never set. */
export const DEFAULT_SWITCHES: Record<NotificationKind, KindSwitches> = {
  announcement: { inApp: true, email: true },
  "assignment-opened": { inApp: true, email: false },
  "assignment-due": { inApp: true, email: true },
  "grade-changed": { inApp: true, email: true },
  "clarification-answered": { inApp: true, email: false },
  "contest-starting": { inApp: true, email: false },
  // Issue 37 §5: a student asked staff to regrade (to the course's staff), staff answered (to the student).
  "regrade-requested": { inApp: true, email: true },
  "regrade-answered": { inApp: true, email: true },
};

/** How long before an assignment's (student's) due time "due soon" is sent, ms (24 hours). */
export const DUE_SOON_MS = 24 * 3_600_000;
/** How long before a contest's start "starting soon" is sent, ms (one hour). */
export const CONTEST_SOON_MS = 3_600_000;
