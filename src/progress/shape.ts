/**
 * The progress page's shapes (issue 35), shared by the tRPC procedures
 * (`progress.mine`, `progress.profile`, `progress.courseStudent`,
 * `account.profile`, `account.setProfile`), the REST doors (`GET /api/progress`,
 * `GET /api/users/:handle`) and the client.
 */
import { z } from "zod";
import type { Difficulty } from "../problems/limits.ts";
import { timeZoneField } from "./zone.ts";

/** Handles: 3–32 of a–z, 0–9, `_`, `-`; stored lower-cased. */
export const HANDLE_MIN_CHARS = 3;
export const HANDLE_MAX_CHARS = 32;

/**
 * Handles nobody may take: words the site's own addresses, staff roles or the
 * API use, so `/u/admin` never looks official. Compared lower-cased.
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  "admin", "administrator", "api", "me", "root", "system", "support", "staff", "help", "about", "contact", "privacy", "terms",
  "accessibility", "account", "settings", "signin", "signup", "login", "logout", "register", "problems", "problem", "courses",
  "course", "contests", "contest", "progress", "submissions", "u", "user", "users", "null", "undefined", "anonymous", "codearena",
  "moderator", "teacher", "instructor", "owner", "judge", "jury", "trpc", "static", "assets", "new", "edit",
]);

/** A handle as typed: trimmed and lower-cased, then checked. 400 naming `handle`. */
export const handleField = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text") })
  .trim()
  .toLowerCase()
  .min(HANDLE_MIN_CHARS, { error: `At least ${HANDLE_MIN_CHARS} characters` })
  .max(HANDLE_MAX_CHARS, { error: `At most ${HANDLE_MAX_CHARS} characters` })
  .regex(/^[a-z0-9_-]+$/, { error: "Only letters a–z, digits, _ and -" });

/** `account.setProfile`: the handle (null removes it, and with it the public page) and whether the page is public. */
export const setProfileInput = z.object({
  handle: handleField.nullable(),
  profilePublic: z.boolean({ error: "Must be true or false" }),
});

export const mineInput = z.object({ tz: timeZoneField }).default({ tz: "UTC" });
export const profileInput = z.object({ handle: z.string({ error: "Must be text" }).trim().toLowerCase().max(HANDLE_MAX_CHARS, { error: `At most ${HANDLE_MAX_CHARS} characters` }), tz: timeZoneField });
export const courseStudentInput = z.object({
  courseId: z.string({ error: "Must be text" }).min(1, { error: "Required" }).max(64, { error: "At most 64 characters" }),
  userId: z.string({ error: "Must be text" }).min(1, { error: "Required" }).max(64, { error: "At most 64 characters" }),
  tz: timeZoneField,
});

/** One calendar day with activity: judged submissions that day, Accepted and the rest (IE never counts). */
export interface ProgressDay {
  /** YYYY-MM-DD in the viewer's zone. */
  date: string;
  accepted: number;
  /** Judged, not Accepted (WA, TLE, CE, …). */
  attempted: number;
}

export interface ProgressProblem {
  problemId: string;
  title: string;
  difficulty: Difficulty;
  /** ISO 8601: when first solved (recently solved) or last submitted (pick up where you left off). */
  at: string;
  /** Judged submissions to it. */
  submissions: number;
}

/** A user's progress (`progressOf`, src/progress/memory.ts). Counts are problems unless named otherwise. */
export interface Progress {
  /** The IANA zone the days are counted in. */
  timeZone: string;
  /** The calendar's first and last day (today), YYYY-MM-DD in `timeZone`: 365 days. */
  from: string;
  to: string;
  solved: number;
  /** Submitted to, never solved. */
  attempted: number;
  solvedByDifficulty: Record<Difficulty, number>;
  /** Tags of solved problems, most solved first, then by name; `name` is the stored (English) name. */
  solvedByTag: { slug: string; name: string; solved: number }[];
  /** Days with at least one judged submission, oldest first (days without are not listed). */
  calendar: ProgressDay[];
  /** Over the calendar's 365 days. */
  activeDays: number;
  submissionsInYear: number;
  acceptedInYear: number;
  /** In days; see src/progress/streaks.ts for the definition. */
  currentStreak: number;
  longestStreak: number;
  /** Languages of the year's judged submissions, most used first: submissions, and problems solved in it. */
  languages: { language: string; submissions: number; solved: number }[];
  /** The last 10 problems solved, newest first (`at`: first solved). */
  recentlySolved: ProgressProblem[];
  /** The last 10 problems attempted and not solved, by last submission, newest first. */
  pickUp: ProgressProblem[];
}

/** `account.profile`: the caller's public-profile settings. */
export interface ProfileSettings {
  handle: string | null;
  profilePublic: boolean;
}

/** `GET /api/users/:handle`: a public profile (the handle and the progress; never a name or an e-mail address). */
export interface PublicProfile {
  handle: string;
  progress: Progress;
}

/** `progress.courseStudent`: a student's progress within one course, for its staff. */
export interface CourseStudentProgress {
  course: { id: string; title: string; code: string };
  student: { id: string; firstName: string; lastName: string; role: string };
  progress: Progress;
}
