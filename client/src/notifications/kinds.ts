/**
 * The kinds of notice as the client names them (the server's list:
 * src/notifications/kinds.ts, sent in every answer), and each kind's words as
 * literal catalogue keys (the unused-key check finds them here).
 */
import type { Translate } from "../i18n/index.tsx";
import type { NotificationKey } from "./keys.ts";

export type NoticeKind = "announcement" | "assignment-opened" | "assignment-due" | "grade-changed" | "clarification-answered" | "contest-starting" | "regrade-requested" | "regrade-answered";

type T = Translate<NotificationKey>;

/** The name of each kind in the switches' table. */
export const KIND_LABELS = {
  announcement: "kind.announcement",
  "assignment-opened": "kind.assignmentOpened",
  "assignment-due": "kind.assignmentDue",
  "grade-changed": "kind.gradeChanged",
  "clarification-answered": "kind.clarificationAnswered",
  "contest-starting": "kind.contestStarting",
  "regrade-requested": "kind.regradeRequested",
  "regrade-answered": "kind.regradeAnswered",
} as const satisfies Record<NoticeKind, string>;

/** One notice's sentence. */
const NOTICE_TEXT = {
  announcement: "notice.announcement",
  "assignment-opened": "notice.assignmentOpened",
  "assignment-due": "notice.assignmentDue",
  "grade-changed": "notice.gradeChanged",
  "clarification-answered": "notice.clarificationAnswered",
  "contest-starting": "notice.contestStarting",
  "regrade-requested": "notice.regradeRequested",
  "regrade-answered": "notice.regradeAnswered",
} as const satisfies Record<NoticeKind, string>;

/** A notice's sentence from its kind and the words captured with it (titles, scores). */
export function noticeText(t: T, kind: NoticeKind, payload: Record<string, string>): string {
  return t(NOTICE_TEXT[kind], {
    title: payload.title ?? "",
    course: payload.course ?? "",
    contest: payload.contest ?? "",
    score: payload.score ?? "",
    before: payload.before ?? "",
    problem: payload.problem ?? "",
    status: payload.status ?? "",
  });
}

/** Where a notice leads: the payload's own path (a regrade's review or queue), else what it names. */
export function noticeHref(n: { assignmentId: string | null; contestId: string | null; courseId: string | null; payload?: Record<string, string> }): string {
  if (n.payload?.path?.startsWith("/")) return n.payload.path;
  if (n.assignmentId) return `/assignments/${n.assignmentId}`;
  if (n.contestId) return `/contests/${n.contestId}`;
  if (n.courseId) return `/courses/${n.courseId}`;
  return "/notifications";
}
