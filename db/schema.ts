/**
 * drizzle-orm schema for libSQL. Migrations are generated from this file with
 * `bun run db:generate` into `db/migrations/` and applied at start.
 *
 * Conventions: ids are opaque random strings (`newId()`); times are integer
 * milliseconds since the epoch (`timestamp_ms`); limits carry their unit in
 * the column name.
 */
import type { ValidatorSpec } from "../src/problems/validator-spec.ts";
import type { ScoringSpec } from "../src/problems/scoring-spec.ts";
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { newId } from "./ids.ts";
import { LANGUAGE_IDS, type LanguageId } from "../isolate/languages/index.ts";
import { CHECKERS, DEFAULT_CHECKER, DIFFICULTIES, PROBLEM_LIMITS } from "../src/problems/limits.ts";
import { VERDICTS, type VerdictCode } from "../src/verdicts.ts";
import { COURSE_ROLES, SITE_ROLES } from "../src/courses/permissions.ts";
import { AI_POLICIES, FEEDBACK_LEVELS } from "../src/courses/policy.ts";
import { NOTIFICATION_KINDS } from "../src/notifications/kinds.ts";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(now);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** As typed at registration. */
    email: text("email").notNull(),
    /** Lower-cased email: the unique key for sign-in. */
    emailNormalized: text("email_normalized").notNull(),
    /** argon2id PHC string; null for the system account, which cannot sign in. */
    passwordHash: text("password_hash"),
    isSystem: integer("is_system", { mode: "boolean" }).notNull().default(false),
    /** `admin` may do everything everywhere (src/courses/permissions.ts). */
    siteRole: text("site_role", { enum: SITE_ROLES }).notNull().default("user"),
    /** May create courses (admins grant it). */
    canCreateCourses: integer("can_create_courses", { mode: "boolean" }).notNull().default(false),
    /** The interface language the user chose (a LOCALE_TAGS tag, src/i18n/locales.ts); null until they choose one. */
    locale: text("locale"),
    /**
     * The public profile's name at `/u/:handle` (src/progress): 3–32 of a–z, 0–9, `_`, `-`,
     * stored lower-cased; null until the user chooses one. Unique.
     */
    handle: text("handle"),
    /** Whether `/u/:handle` shows this user's progress; private (false) by default (FERPA, GDPR). */
    profilePublic: integer("profile_public", { mode: "boolean" }).notNull().default(false),
    /** Spoiler-free mode: the problem bank hides topic tags from this user (src/problems/bank). */
    hideTags: integer("hide_tags", { mode: "boolean" }).notNull().default(false),
    /** The TOTP key (RFC 6238; 20 random bytes, hex) once two-factor sign-in is on (src/auth/two-factor); null: off. */
    totpKey: text("totp_key"),
    /** A key being set up: it becomes `totpKey` when the user proves a code from it. */
    totpPendingKey: text("totp_pending_key"),
    /** The last 30-second time step a code was accepted for: a code is never accepted twice. */
    totpLastStep: integer("totp_last_step"),
    /**
     * When the address in `email` was proven: a verification link opened, a change confirmed from the new
     * address, or a campus way in that vouches for it (src/accounts/email). Null: not verified (every account
     * made before migration 0036 starts so; decision 071).
     */
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    /**
     * When the account was erased (src/account-data/erase.ts, decision 072): the row stays as an anonymous
     * tombstone for the course grade records that point at it, and can never sign in again; null: a live account.
     */
    erasedAt: integer("erased_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_normalized_uq").on(t.emailNormalized), uniqueIndex("users_handle_uq").on(t.handle)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 (hex) of the session id carried in the token, so a leaked table grants nothing. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    /** The browser's User-Agent at sign-in (at most 512 characters), for the account's list of sessions; null when unknown. */
    userAgent: text("user_agent"),
    /** The client address at sign-in, then as last seen (src/auth/sessions-list.ts); null when unknown. */
    ip: text("ip"),
    /** When a request last used this session, to within SESSION_SEEN_EVERY_MS (src/auth/session.ts). */
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
    /**
     * Signed in without the second factor a setting requires of this account (REQUIRE_TWO_FACTOR_FOR_STAFF):
     * the session may only set it up, read who it is and sign out until it is on (src/auth/two-factor).
     */
    mustSetUpTwoFactor: integer("must_set_up_two_factor", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** One group of a scoring submission as stored (src/judge/groups.ts GroupResult). */
export interface GroupResultRow {
  name: string;
  score: number;
  maxScore: number;
  verdict: string | null;
  testsRun: number;
}

export const problems = sqliteTable(
  "problems",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    title: text("title").notNull(),
    description: text("description").notNull(),
    inputFormat: text("input_format").notNull(),
    outputFormat: text("output_format").notNull(),
    constraints: text("constraints").notNull(),
    sampleInput: text("sample_input").notNull(),
    sampleOutput: text("sample_output").notNull(),
    difficulty: text("difficulty", { enum: DIFFICULTIES }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    timeLimitMs: integer("time_limit_ms").notNull().default(PROBLEM_LIMITS.timeLimitMs.default),
    memoryLimitKib: integer("memory_limit_kib").notNull().default(PROBLEM_LIMITS.memoryLimitKib.default),
    /** Output comparison: `lines` (default), `tokens` (any whitespace), `float` (abs/rel error 1e-6), `kattis` (the package format's default validator, with `checkerFlags`). */
    checker: text("checker", { enum: CHECKERS }).notNull().default(DEFAULT_CHECKER),
    /**
     * Flags of the `kattis` checker (the package format's default output validator), as the
     * format spells them, e.g. "case_sensitive float_tolerance 1e-6"; "" for none
     * (src/problems/validator-flags.ts).
     */
    checkerFlags: text("checker_flags").notNull().default(""),
    /**
     * Whether Java and Python get the language's time multiplier on top of `timeLimitMs`
     * (true: the judge's default, docs/decisions/011); false: every language gets the same
     * limit, as a problem package's limit means.
     */
    timeScaledByLanguage: integer("time_scaled_by_language", { mode: "boolean" }).notNull().default(true),
    /** The `custom` checker's output validator (src/problems/validator-spec.ts), or null. */
    validator: text("validator", { mode: "json" }).$type<ValidatorSpec>(),
    /**
     * An interactive problem (the package format's `type: interactive`): the validator talks
     * with the submission over pipes instead of reading its finished output (src/judge/interactive.ts).
     * Requires the custom checker.
     */
    interactive: integer("interactive", { mode: "boolean" }).notNull().default(false),
    /**
     * How many times at most the submission runs on one test (the format's `multi-pass` with
     * `limits.validation_passes`): 1 for an ordinary problem; more lets the validator write
     * `nextpass.in`, the input of the next pass. Requires the custom checker.
     */
    validationPasses: integer("validation_passes").notNull().default(1),
    /**
     * What runs a Python 3 submission: `cpython` (python3), or `pypy` (PyPy, as DOMjudge runs
     * Python 3 by default and many contests judged it). The submission keeps its language.
     */
    pythonImplementation: text("python_implementation", { enum: ["cpython", "pypy"] }).notNull().default("cpython"),
    /**
     * A scoring problem's test groups (src/problems/scoring-spec.ts: points, aggregation,
     * require_pass, and how many of the hidden tests, in order, each holds); null for a
     * pass-fail problem.
     */
    scoring: text("scoring", { mode: "json" }).$type<ScoringSpec>(),
    /** Incremented on every update (the spec's server version field). */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
    /** Soft delete: a deleted problem disappears from lists but its submissions stay readable. */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    /**
     * Set while a package import is still writing the problem (src/problems/staged.ts): a staged
     * problem is also marked deleted, so it is in no list, search or read until one short final
     * write clears both; a failed or killed import's staged rows are removed.
     */
    stagedAt: integer("staged_at", { mode: "timestamp_ms" }),
    /** Set for a course-private problem: only the course's members see it (students once an assignment with it opens). */
    courseId: text("course_id").references((): AnySQLiteColumn => courses.id),
  },
  (t) => [
    index("problems_difficulty_idx").on(t.difficulty),
    index("problems_user_idx").on(t.userId),
    index("problems_course_idx").on(t.courseId),
    // The problem bank (src/problems/bank/list.ts, migration 0033): live problems newest first and by
    // title, and the public problems' counts per difficulty read from the index alone.
    index("problems_bank_newest_idx").on(t.createdAt, t.id).where(sql`deleted_at IS NULL`),
    index("problems_bank_title_idx").on(sql`title COLLATE NOCASE`, sql`created_at DESC`, sql`id DESC`).where(sql`deleted_at IS NULL`),
    index("problems_bank_public_idx").on(t.courseId, t.stagedAt, t.difficulty, t.id).where(sql`deleted_at IS NULL`),
  ],
);

export const testCases = sqliteTable(
  "test_cases",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id, { onDelete: "cascade" }),
    /** 0-based position among the problem's hidden tests. */
    ordinal: integer("ordinal").notNull(),
    input: text("input").notNull(),
    expectedOutput: text("expected_output").notNull(),
  },
  (t) => [uniqueIndex("test_cases_problem_ordinal_uq").on(t.problemId, t.ordinal)],
);

/**
 * What a problem imported from a package keeps for verifying it later
 * (src/packages/verify-service.ts): its example submissions with the verdict
 * each folder names, the time multipliers, and whether the package gave the
 * time limit (else the first verify derives it).
 */
export const problemPackages = sqliteTable("problem_packages", {
  problemId: text("problem_id")
    .primaryKey()
    .references(() => problems.id, { onDelete: "cascade" }),
  /** [{ path, expected, language, code }] (src/packages/format.ts PackageSubmission). */
  examples: text("examples", { mode: "json" }).$type<PackageExample[]>().notNull(),
  acToTimeLimit: real("ac_to_time_limit").notNull(),
  timeLimitToTle: real("time_limit_to_tle").notNull(),
  /** False until a verify derived the time limit (the package gave none). */
  timeLimitGiven: integer("time_limit_given", { mode: "boolean" }).notNull(),
  /** The statement in the package's other languages, Markdown by language code. */
  translations: text("translations", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
  /** The language code of the main statement (the problem's own description): "en" unless the package's main file says another (`problem.sv.md`). */
  statementLanguage: text("statement_language").notNull().default("en"),
});

/**
 * Files a problem's statement shows (images from a package's statement
 * folder), served at /api/problems/:id/assets/:name to whoever may see the problem.
 */
export const problemAssets = sqliteTable(
  "problem_assets",
  {
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id, { onDelete: "cascade" }),
    /** A plain file name (no folders), as the statement links it. */
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    content: blob("content", { mode: "buffer" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.problemId, t.name] })],
);

/**
 * Judge hosts (issue 11): machines that judge through the judge API with a
 * per-host bearer token. Only the token's SHA-256 is kept; it is shown once
 * at `bun run judge-hosts -- add NAME`.
 */
export const judgeHosts = sqliteTable("judge_hosts", {
  id: text("id").primaryKey().$defaultFn(newId),
  name: text("name").notNull().unique(),
  /** Hex SHA-256 of the token. */
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: createdAt(),
  /** Set by `revoke`: the host's next call is refused. */
  revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
  /** The version the host reported on its last call. */
  version: text("version"),
  /** Most jobs the host may hold at once (set by the operator: `judge-hosts add NAME --capacity N`); a claim past it waits. */
  capacity: integer("capacity").notNull().default(4),
});

/**
 * One accepted finish per claim of a submission (issue 11's audit): a judge
 * host's finish is written once; a retry with the same claim token finds its
 * row and is answered as accepted, any other is refused.
 */
export const judgeFinishes = sqliteTable(
  "judge_finishes",
  {
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.id),
    claimToken: text("claim_token").notNull(),
    host: text("host").notNull(),
    verdict: text("verdict").notNull(),
    at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.claimToken] })],
);

/** An example submission of a package, as stored. */
export interface PackageExample {
  path: string;
  /** MLE, TLE-or-AC and TLE-or-MLE: a Polygon solution's tag (src/packages/polygon/programs.ts). */
  expected: "AC" | "WA" | "TLE" | "RE" | "rejected" | "PAC" | "MLE" | "TLE-or-AC" | "TLE-or-MLE";
  language: LanguageId;
  code: string;
  /** A scoring package's expected score range. */
  expectedScore?: [number, number];
}

export { VERDICTS };
export type Verdict = VerdictCode;
export const SUBMISSION_STATUSES = ["queued", "compiling", "running", "done"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const submissions = sqliteTable(
  "submissions",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id),
    language: text("language", { enum: LANGUAGE_IDS }).notNull(),
    code: text("code").notNull(),
    status: text("status", { enum: SUBMISSION_STATUSES }).notNull().default("queued"),
    /** Final verdict; null until status is `done`. */
    verdict: text("verdict", { enum: VERDICTS }),
    isPassed: integer("is_passed", { mode: "boolean" }).notNull().default(false),
    /** The sample run's output (the spec's `output`). */
    output: text("output").notNull().default(""),
    /** The sample's expected output (the spec's `expectedOutput`). */
    expectedOutput: text("expected_output").notNull().default(""),
    /** Compiler diagnostics on CE. */
    compileOutput: text("compile_output"),
    /** Internal detail for IE (operator-facing, never the hidden data). */
    errorDetail: text("error_detail"),
    /** Max CPU time over the tests run, ms; max memory, KiB. */
    timeMs: integer("time_ms"),
    memoryKib: integer("memory_kib"),
    testsPassed: integer("tests_passed").notNull().default(0),
    /** Sample + hidden tests. */
    testsTotal: integer("tests_total").notNull().default(0),
    /** Judge queue lease: which worker holds the job and until when. */
    leaseOwner: text("lease_owner"),
    /**
     * The current claim's fencing token (random, new at every claim): every write of a
     * holder is conditional on it, so a stale write from an earlier claim of the same job
     * (even by the same process) changes nothing (src/judge/queue.ts).
     */
    claimToken: text("claim_token"),
    leaseExpiresAt: integer("lease_expires_at", { mode: "timestamp_ms" }),
    attempts: integer("attempts").notNull().default(0),
    /** When the latest judging attempt claimed the job; the queue's fair share serves the least recently served user first. */
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    judgedAt: integer("judged_at", { mode: "timestamp_ms" }),
    /** The assignment this submission counts for (a course problem submitted while its assignment is open), else null. */
    assignmentId: text("assignment_id").references((): AnySQLiteColumn => assignments.id),
    /** Every test is run (partial scoring) instead of stopping at the first failure. */
    runAllTests: integer("run_all_tests", { mode: "boolean" }).notNull().default(false),
    /** Hidden tests passed (AC), for partial scores. */
    hiddenPassed: integer("hidden_passed").notNull().default(0),
    /** Hidden tests of the problem when judged. */
    hiddenTotal: integer("hidden_total").notNull().default(0),
    /** A scoring problem's score (src/judge/groups.ts) and its maximum; null on a pass-fail problem. */
    score: real("score"),
    maxScore: real("max_score"),
    /** A scoring problem's groups as judged: name, score, maxScore, verdict (null: not run), testsRun. */
    groupResults: text("group_results", { mode: "json" }).$type<GroupResultRow[]>(),
    /** The verdict before the latest rejudge, kept for the history. */
    previousVerdict: text("previous_verdict", { enum: VERDICTS }),
    /** The contest this submission was made in (src/contests), and the team it counts for. */
    contestId: text("contest_id").references((): AnySQLiteColumn => contests.id),
    teamId: text("team_id").references((): AnySQLiteColumn => contestTeams.id),
  },
  (t) => [
    index("submissions_user_problem_idx").on(t.userId, t.problemId, t.createdAt),
    index("submissions_status_idx").on(t.status, t.createdAt),
    // The claim's fair share (src/judge/queue.ts): waiting users and their queued jobs, and each user's last service.
    index("submissions_queue_idx").on(t.status, t.userId, t.createdAt),
    index("submissions_user_claimed_idx").on(t.userId, t.claimedAt),
    index("submissions_assignment_idx").on(t.assignmentId, t.userId, t.problemId),
    // Who-is-stuck analytics (src/courses/analytics): every figure is read from this index alone.
    index("submissions_assignment_analytics_idx").on(t.assignmentId, t.problemId, t.userId, t.createdAt, t.verdict, t.status, t.id),
    index("submissions_contest_idx").on(t.contestId, t.teamId, t.createdAt),
  ],
);

/**
 * The first failing hidden test of an assignment submission, cut to
 * FAILURE_EXCERPT_MAX_BYTES each: kept only for submissions that count for an
 * assignment, shown only as its feedback policy allows (src/courses/policy.ts).
 */
export const submissionFailures = sqliteTable("submission_failures", {
  submissionId: text("submission_id")
    .primaryKey()
    .references(() => submissions.id, { onDelete: "cascade" }),
  /** 1-based hidden test number. */
  testIndex: integer("test_index").notNull(),
  input: text("input").notNull(),
  expectedOutput: text("expected_output").notNull(),
  actualOutput: text("actual_output").notNull(),
  stderr: text("stderr").notNull(),
});

export const submissionTests = sqliteTable(
  "submission_tests",
  {
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    /** 0 is the sample; 1..n the hidden tests in order. */
    index: integer("index").notNull(),
    isSample: integer("is_sample", { mode: "boolean" }).notNull(),
    verdict: text("verdict", { enum: VERDICTS }).notNull(),
    timeMs: integer("time_ms").notNull(),
    memoryKib: integer("memory_kib").notNull(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.index] })],
);

export const contactMessages = sqliteTable("contact_messages", {
  id: text("id").primaryKey().$defaultFn(newId),
  name: text("name").notNull(),
  email: text("email").notNull(),
  message: text("message").notNull(),
  userId: text("user_id").references(() => users.id),
  createdAt: createdAt(),
});

/** Cached AI reviews keyed by (provider, model, problem, language, code hash). */
export const aiReviews = sqliteTable("ai_reviews", {
  cacheKey: text("cache_key").primaryKey(),
  provider: text("provider").notNull(),
  model: text("model").notNull(),
  review: text("review").notNull(),
  createdAt: createdAt(),
});

/** One row per AI review request, for the per-user daily quota. */
export const aiRequests = sqliteTable(
  "ai_requests",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("ai_requests_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Change counters bumped by triggers (migration 0003): `problems` counts every
 * insert, update and delete on problems and test_cases, whoever makes it. The
 * problem list cache (src/problems/list-cache.ts) compares it per request.
 */
export const revisions = sqliteTable("revisions", {
  name: text("name").primaryKey(),
  value: integer("value").notNull().default(0),
});

/** A course: title, code (e.g. `CS101-2026`), term; joined by invite code or roster. */
export const courses = sqliteTable(
  "courses",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    title: text("title").notNull(),
    /** Unique, as typed (compared case-insensitively through `codeNormalized`). */
    code: text("code").notNull(),
    codeNormalized: text("code_normalized").notNull(),
    term: text("term").notNull().default(""),
    /** Random join code; null when joining by code is disabled. */
    inviteCode: text("invite_code"),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    archivedAt: integer("archived_at", { mode: "timestamp_ms" }),
    /** Record large pastes into the editor with course submissions (time and size only; stated to students). Off by default. */
    recordPastes: integer("record_pastes", { mode: "boolean" }).notNull().default(false),
    /** Late days each student may spend across the course's assignments (src/courses/late-days); 0: none. */
    lateDays: integer("late_days").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [uniqueIndex("courses_code_uq").on(t.codeNormalized), uniqueIndex("courses_invite_uq").on(t.inviteCode)],
);

/**
 * The exam access rules an assignment or a contest may carry (src/courses/exam/; decisions 075, 081), each
 * null/false when off: address ranges (IPv4/IPv6 CIDRs) and Safe Exam Browser config keys on every request;
 * a proctor's password asked at Start (an assignment) or at entry (a contest); one session; lock-down.
 */
function examRuleColumns() {
  return {
    accessCidrs: text("access_cidrs", { mode: "json" }).$type<string[]>(),
    sebConfigKeys: text("seb_config_keys", { mode: "json" }).$type<string[]>(),
    /** A proctor's password asked at Start or entry (argon2id hash, as account passwords); null: none. */
    proctorPasswordHash: text("proctor_password_hash"),
    /** One session: while a student's window is open, only the session that pressed Start (or entered) is let in. */
    oneSession: integer("one_session", { mode: "boolean" }).notNull().default(false),
    /** Lock-down: during a student's window they reach only this assignment's (or contest's) problems. */
    lockDown: integer("lock_down", { mode: "boolean" }).notNull().default(false),
  };
}

export const courseMembers = sqliteTable(
  "course_members",
  {
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: COURSE_ROLES }).notNull(),
    /** Extra time on every timed window of the course, percent of its length (src/courses/exam/extra-time.ts; decision 075). */
    extraTimePercent: integer("extra_time_percent").notNull().default(0),
    /** Extra minutes on every timed window and every deadline of the course (decision 075). */
    extraMinutes: integer("extra_minutes").notNull().default(0),
    joinedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.userId] }), index("course_members_user_idx").on(t.userId)],
);

/** Roster entries for people without an account yet: the account is created on first sign-in with that email and joins. */
export const courseInvites = sqliteTable(
  "course_invites",
  {
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    emailNormalized: text("email_normalized").notNull(),
    name: text("name").notNull().default(""),
    role: text("role", { enum: COURSE_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.emailNormalized] }), index("course_invites_email_idx").on(t.emailNormalized)],
);

export const assignments = sqliteTable(
  "assignments",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    opensAt: integer("opens_at", { mode: "timestamp_ms" }).notNull(),
    /** Null: practice (no due time). */
    dueAt: integer("due_at", { mode: "timestamp_ms" }),
    /** Null: no late window. */
    closesAt: integer("closes_at", { mode: "timestamp_ms" }),
    /** Late penalty per started unit, percent (0..100). */
    latePenaltyPercent: real("late_penalty_percent").notNull().default(0),
    latePenaltyUnit: text("late_penalty_unit", { enum: ["hour", "day"] }).notNull().default("day"),
    scoring: text("scoring", { enum: ["all-or-nothing", "partial"] }).notNull().default("all-or-nothing"),
    feedback: text("feedback", { enum: FEEDBACK_LEVELS }).notNull(),
    /** A fuller level released after the close; null: none. */
    feedbackAfterClose: text("feedback_after_close", { enum: FEEDBACK_LEVELS }),
    aiPolicy: text("ai_policy", { enum: AI_POLICIES }).notNull().default("full"),
    /** A timed window: each student gets this many minutes from pressing Start (inside opensAt..close); null: none. */
    timeLimitMinutes: integer("time_limit_minutes"),
    /** Exam access rules (src/courses/exam/; decision 075), each null/false when off. */
    ...examRuleColumns(),
    /** Bumped on every score change of this assignment; gradebook streams ask for rows past the version they hold. */
    scoresVersion: integer("scores_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("assignments_course_idx").on(t.courseId)],
);

export const assignmentProblems = sqliteTable(
  "assignment_problems",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id),
    points: real("points").notNull().default(100),
    ordinal: integer("ordinal").notNull(),
    /**
     * The slot this problem fills: problems sharing a slot are a pool, of which each student is given
     * one (src/courses/pools/draw.ts). Null: a slot of its own, numbered by its ordinal (read through
     * `effectiveSlot`, src/courses/pools/pools.ts); the assignment editor writes every slot.
     */
    slot: integer("slot"),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.problemId] }), index("assignment_problems_problem_idx").on(t.problemId)],
);

/** Late days a student spent on one assignment (src/courses/late-days): their due time and close move by as many days. */
export const lateDaySpends = sqliteTable(
  "late_day_spends",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Whole days, at least 1 (a refund down to 0 deletes the row). */
    days: integer("days").notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.userId] }), index("late_day_spends_user_idx").on(t.userId)],
);

/** One student's own due time and close for one assignment. */
export const extensions = sqliteTable(
  "extensions",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dueAt: integer("due_at", { mode: "timestamp_ms" }).notNull(),
    /** Null: the new due time plus the assignment's late window. */
    closesAt: integer("closes_at", { mode: "timestamp_ms" }),
    grantedBy: text("granted_by").references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.userId] })],
);

/**
 * The gradebook's cells, kept current as submissions are judged: each
 * student's best score per problem of an assignment (src/courses/scores.ts).
 */
export const assignmentScores = sqliteTable(
  "assignment_scores",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id),
    /** Points earned by the best counted submission, after its late penalty. */
    score: real("score").notNull().default(0),
    bestSubmissionId: text("best_submission_id"),
    /** Verdict of the best counted submission (the latest one when none scores). */
    bestVerdict: text("best_verdict", { enum: VERDICTS }),
    /** Judged submissions made inside the window. */
    attempts: integer("attempts").notNull().default(0),
    /** The best submission was made after the (student's) due time. */
    late: integer("late", { mode: "boolean" }).notNull().default(false),
    /** `assignments.scores_version` when this row last changed. */
    version: integer("version").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.userId, t.problemId] }), index("assignment_scores_version_idx").on(t.assignmentId, t.version)],
);

/**
 * An identity from a way in other than a password (issue 10): an OpenID
 * provider, an LDAP directory, a trusted proxy's header or an LMS over LTI.
 * Keyed by (issuer, subject), never by email alone (src/sso/identities.ts).
 */
export const externalIdentities = sqliteTable(
  "external_identities",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The configured way in, e.g. `oidc:campus`, `ldap:campus`, `header`, `lti:<registration id>`. */
    provider: text("provider").notNull(),
    /** The OpenID issuer URL, `ldap:<provider id>`, `header:<header name>` or the LTI platform's issuer. */
    issuer: text("issuer").notNull(),
    /** `sub`, the directory entry's entryUUID (else DN), or the header's value. */
    subject: text("subject").notNull(),
    /** The email the provider last sent (informational; never the key). */
    email: text("email"),
    createdAt: createdAt(),
    lastSignInAt: integer("last_sign_in_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("external_identities_issuer_subject_uq").on(t.issuer, t.subject), index("external_identities_user_idx").on(t.userId)],
);

/**
 * A sign-in started at an OpenID provider and not yet finished: state (its
 * SHA-256 is the key), nonce and PKCE verifier, used once, for 10 minutes.
 */
export const ssoFlows = sqliteTable("sso_flows", {
  stateHash: text("state_hash").primaryKey(),
  provider: text("provider").notNull(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  /** Set when a signed-in user links this identity to their account. */
  linkUserId: text("link_user_id").references(() => users.id, { onDelete: "cascade" }),
  /** A path on this site to open afterwards. */
  returnTo: text("return_to"),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * LTI 1.3 (issue 10, src/lti): a learning platform (Moodle, Canvas, ...)
 * registered by an admin, keyed by (issuer, client id) because Canvas uses
 * one issuer for every hosted school; its deployments are listed apart.
 */
export const ltiPlatforms = sqliteTable(
  "lti_platforms",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    name: text("name").notNull(),
    issuer: text("issuer").notNull(),
    clientId: text("client_id").notNull(),
    /** The platform's OIDC authorization endpoint (where /api/lti/login sends the browser). */
    authUrl: text("auth_url").notNull(),
    /** The platform's OAuth 2 token endpoint (client credentials for grades and rosters). */
    tokenUrl: text("token_url").notNull(),
    jwksUrl: text("jwks_url").notNull(),
    /**
     * The operator vouches for this platform's email addresses: a launch may then link to an existing account
     * with the same email and claim staff invitations. Off by default (an LMS user can often set their email).
     */
    trustEmail: integer("trust_email", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("lti_platforms_issuer_client_uq").on(t.issuer, t.clientId)],
);

export const ltiDeployments = sqliteTable(
  "lti_deployments",
  {
    platformId: text("platform_id")
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: "cascade" }),
    deploymentId: text("deployment_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.deploymentId] })],
);

/** The tool's own RS256 key pairs (JWK JSON); the newest unretired one signs, retired ones stay in the JWKS a while. */
export const ltiKeys = sqliteTable("lti_keys", {
  kid: text("kid").primaryKey(),
  privateJwk: text("private_jwk").notNull(),
  publicJwk: text("public_jwk").notNull(),
  createdAt: createdAt(),
  retiredAt: integer("retired_at", { mode: "timestamp_ms" }),
});

/** A third-party-initiated login waiting for its launch: SHA-256(state) → nonce, used once, 10 minutes. */
export const ltiFlows = sqliteTable("lti_flows", {
  stateHash: text("state_hash").primaryKey(),
  platformId: text("platform_id")
    .notNull()
    .references(() => ltiPlatforms.id, { onDelete: "cascade" }),
  nonce: text("nonce").notNull(),
  /** The login request's parameters, to start again in a new window when the browser blocked the state cookie. */
  loginParams: text("login_params").notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

/** An LMS course (context) and the course it opens here. */
export const ltiContexts = sqliteTable(
  "lti_contexts",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    platformId: text("platform_id")
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: "cascade" }),
    deploymentId: text("deployment_id").notNull(),
    contextId: text("context_id").notNull(),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    /** Names and Role Provisioning: the context's membership URL, from the last launch. */
    membershipsUrl: text("memberships_url"),
    rosterSyncedAt: integer("roster_synced_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("lti_contexts_platform_context_uq").on(t.platformId, t.contextId)],
);

/** An LMS activity (resource link) and what it opens here; its line item gets the assignment's scores. */
export const ltiResourceLinks = sqliteTable(
  "lti_resource_links",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    platformId: text("platform_id")
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: "cascade" }),
    contextRowId: text("context_row_id")
      .notNull()
      .references(() => ltiContexts.id, { onDelete: "cascade" }),
    resourceLinkId: text("resource_link_id").notNull(),
    assignmentId: text("assignment_id").references(() => assignments.id, { onDelete: "set null" }),
    problemId: text("problem_id").references(() => problems.id, { onDelete: "set null" }),
    /** Assignment and Grade Services: the line item's URL (scores go to its /scores). */
    lineItemUrl: text("line_item_url"),
    /** `assignments.scores_version` whose scores are in the outbox already. */
    syncedVersion: integer("synced_version").notNull().default(0),
  },
  (t) => [uniqueIndex("lti_resource_links_platform_link_uq").on(t.platformId, t.resourceLinkId)],
);

/** An instructor's deep-linking request, waiting for their pick (the return URL and the platform's `data`). */
export const ltiDeepLinks = sqliteTable("lti_deep_links", {
  id: text("id").primaryKey(),
  platformId: text("platform_id")
    .notNull()
    .references(() => ltiPlatforms.id, { onDelete: "cascade" }),
  deploymentId: text("deployment_id").notNull(),
  courseId: text("course_id")
    .notNull()
    .references(() => courses.id, { onDelete: "cascade" }),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  returnUrl: text("return_url").notNull(),
  data: text("data"),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Grades waiting to reach an LMS line item: one row per (activity, student),
 * the newest score replacing one not yet sent; retried with backoff until
 * sent, so a restart loses no grade (src/lti/grades.ts).
 */
export const ltiGradeOutbox = sqliteTable(
  "lti_grade_outbox",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    resourceLinkRowId: text("resource_link_row_id")
      .notNull()
      .references(() => ltiResourceLinks.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The student's id at the platform (`sub` of their launches). */
    ltiUserId: text("lti_user_id").notNull(),
    scoreGiven: real("score_given").notNull(),
    scoreMaximum: real("score_maximum").notNull(),
    /** When the score was computed (the AGS `timestamp`). */
    scoredAt: integer("scored_at", { mode: "timestamp_ms" }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    lastError: text("last_error"),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("lti_grade_outbox_link_user_uq").on(t.resourceLinkRowId, t.userId), index("lti_grade_outbox_due_idx").on(t.sentAt, t.nextAttemptAt)],
);

// Contests (src/contests/ writes them).

export const CONTEST_SCORINGS = ["icpc", "ioi"] as const;
export const CONTEST_REGISTRATIONS = ["open", "code", "roster"] as const;
/** Who an event of the feed is for (src/contests/feed.ts). */
export const EVENT_AUDIENCES = ["all", "jury", "team", "nonjury"] as const;

export const contests = sqliteTable(
  "contests",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** Lower-case identifier (`[a-z0-9_-]`, ≤ 36): the contest's id in the ICPC Contest API, unique. */
    shortName: text("short_name").notNull(),
    title: text("title").notNull(),
    startsAt: integer("starts_at", { mode: "timestamp_ms" }).notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    /** The scoreboard freezes this many minutes before the end; null: never. */
    freezeMinutes: integer("freeze_minutes"),
    scoring: text("scoring", { enum: CONTEST_SCORINGS }).notNull(),
    /** ICPC: minutes added per rejected submission before the first accepted one. */
    penaltyMinutes: integer("penalty_minutes").notNull().default(20),
    /** A contest inside a course: its students take part, its staff are the jury. */
    courseId: text("course_id").references(() => courses.id),
    registration: text("registration", { enum: CONTEST_REGISTRATIONS }).notNull(),
    /** The code a `code` registration asks for. */
    registrationCode: text("registration_code"),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    /** When the jury unfroze the scoreboard (the reveal is over). */
    unfrozenAt: integer("unfrozen_at", { mode: "timestamp_ms" }),
    /** When the jury declared the results final. */
    finalizedAt: integer("finalized_at", { mode: "timestamp_ms" }),
    /** Which of the clock's thresholds (start, freeze, end) the event feed has announced (src/contests/feed.ts). */
    feedPhase: integer("feed_phase").notNull().default(0),
    /** Exam access rules (src/courses/exam/; decision 075), each null/false when off. */
    ...examRuleColumns(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("contests_short_name_uq").on(t.shortName), index("contests_starts_idx").on(t.startsAt)],
);

export const contestProblems = sqliteTable(
  "contest_problems",
  {
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id),
    /** A, B, C, … (≤ 10 characters). */
    label: text("label").notNull(),
    /** `#rrggbb`, or null (the balloon colour). */
    color: text("color"),
    ordinal: integer("ordinal").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contestId, t.problemId] }), uniqueIndex("contest_problems_label_uq").on(t.contestId, t.label)],
);

/** A participant: one user, or a team of users sharing submissions. */
export const contestTeams = sqliteTable(
  "contest_teams",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    nameNormalized: text("name_normalized").notNull(),
    /** Affiliation (university, club), "" when none. */
    organization: text("organization").notNull().default(""),
    /** What a teammate gives to join this team (random; null for a course contest's one-person teams). */
    joinCode: text("join_code"),
    /** A virtual participation's own start; null for the real contest. */
    virtualStartsAt: integer("virtual_starts_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [
    uniqueIndex("contest_teams_name_uq").on(t.contestId, t.nameNormalized),
    uniqueIndex("contest_teams_join_uq").on(t.joinCode),
    index("contest_teams_contest_idx").on(t.contestId),
  ],
);

export const contestTeamMembers = sqliteTable(
  "contest_team_members",
  {
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    teamId: text("team_id")
      .notNull()
      .references(() => contestTeams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.contestId, t.userId] }), index("contest_team_members_team_idx").on(t.teamId)],
);

/**
 * Clarifications: a team's question (fromTeamId set), or the jury's message
 * (fromTeamId null) to one team (toTeamId) or to all (toTeamId null),
 * possibly answering a question (replyToId).
 */
export const contestClarifications = sqliteTable(
  "contest_clarifications",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    fromTeamId: text("from_team_id").references(() => contestTeams.id, { onDelete: "cascade" }),
    toTeamId: text("to_team_id").references(() => contestTeams.id, { onDelete: "cascade" }),
    replyToId: text("reply_to_id"),
    problemId: text("problem_id").references(() => problems.id),
    text: text("text").notNull(),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [index("contest_clarifications_contest_idx").on(t.contestId, t.createdAt)],
);

/**
 * The ICPC Contest API's event feed, one row per notification, in order
 * (`seq` is the feed's token). `audience` says who may read it:
 * `all`; `jury` only; `team` = that team and the jury; `nonjury` = everyone
 * but the jury (what the jury already saw, released at a threshold or the unfreeze).
 */
export const contestEvents = sqliteTable(
  "contest_events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    objectId: text("object_id"),
    /** The object as JSON text; null for a deletion. */
    data: text("data"),
    audience: text("audience", { enum: EVENT_AUDIENCES }).notNull(),
    teamId: text("team_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  // The Contest API reads a collection as the latest event of each object of one type.
  (t) => [index("contest_events_contest_idx").on(t.contestId, t.seq), index("contest_events_type_idx").on(t.contestId, t.type, t.seq)],
);

/** A balloon delivered: a team's first solve of a problem, marked by the jury (src/contests/jury.ts). */
export const contestBalloons = sqliteTable(
  "contest_balloons",
  {
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    teamId: text("team_id")
      .notNull()
      .references(() => contestTeams.id, { onDelete: "cascade" }),
    problemId: text("problem_id").notNull(),
    deliveredAt: integer("delivered_at", { mode: "timestamp_ms" }).notNull(),
    deliveredBy: text("delivered_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [primaryKey({ columns: [t.contestId, t.teamId, t.problemId] })],
);

/** The roles a contest's owners grant (src/contests/roles.ts): DOMjudge's and the ICPC CCS's jury and balloon runner. */
export const CONTEST_GRANTED_ROLES = ["jury", "balloon"] as const;

/**
 * A contest role granted to a user by one of the contest's owners (its
 * creator, a course contest's teachers, a site admin): `jury` judges the
 * contest as its owners do but does not change it; `balloon` reads and marks
 * the balloon list only (src/contests/permissions.ts). Revoking deletes the row.
 */
export const contestRoles = sqliteTable(
  "contest_roles",
  {
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: CONTEST_GRANTED_ROLES }).notNull(),
    grantedBy: text("granted_by").references(() => users.id, { onDelete: "set null" }),
    grantedAt: integer("granted_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.contestId, t.userId, t.role] }), index("contest_roles_user_idx").on(t.userId)],
);

/**
 * Similarity reports (src/similarity): one analysis of the programs of an
 * assignment or a contest (one problem or all), run in the background. Keyed
 * for reuse by `setKey` (the submissions compared and the options): asking
 * again for the same set answers the same report.
 */
export const similarityReports = sqliteTable(
  "similarity_reports",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    scopeKind: text("scope_kind", { enum: ["assignment", "contest"] }).notNull(),
    scopeId: text("scope_id").notNull(),
    /** One problem, or null for every problem of the scope. */
    problemId: text("problem_id"),
    /** The report's options (src/similarity/reports.ts ReportOptions), JSON. */
    options: text("options", { mode: "json" }).notNull(),
    setKey: text("set_key").notNull(),
    status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull().default("queued"),
    /** 0..1 */
    progress: real("progress").notNull().default(0),
    error: text("error"),
    /** The analysis (src/similarity/reports.ts StoredResult), JSON; null until done. */
    result: text("result", { mode: "json" }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("similarity_reports_scope_idx").on(t.scopeKind, t.scopeId, t.createdAt), index("similarity_reports_key_idx").on(t.setKey)],
);

/**
 * Staff's review mark on a pair of submissions within an assignment or a
 * contest: kept across re-runs of the report (keyed by the two submissions,
 * the earlier first).
 */
export const similarityMarks = sqliteTable(
  "similarity_marks",
  {
    scopeKind: text("scope_kind", { enum: ["assignment", "contest"] }).notNull(),
    scopeId: text("scope_id").notNull(),
    leftSubmissionId: text("left_submission_id").notNull(),
    rightSubmissionId: text("right_submission_id").notNull(),
    status: text("status", { enum: ["reviewed", "dismissed", "flagged"] }).notNull(),
    note: text("note").notNull().default(""),
    /** The report the mark was made in (the gradebook links to it). */
    reportId: text("report_id"),
    markedBy: text("marked_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.scopeKind, t.scopeId, t.leftSubmissionId, t.rightSubmissionId] })],
);

/**
 * Large pastes into the editor before a submission (a course's opt-in paste
 * record, stated to its students): when and how many characters, never what.
 */
export const submissionPastes = sqliteTable("submission_pastes", {
  submissionId: text("submission_id")
    .primaryKey()
    .references(() => submissions.id, { onDelete: "cascade" }),
  /** [{ atMs, chars }], oldest first, at most PASTES_MAX. */
  events: text("events", { mode: "json" }).notNull().$type<{ atMs: number; chars: number }[]>(),
});

/**
 * Mail waiting to go out, and what became of it (src/mail, decision 059). A
 * request queues a row in the same batch as its cause; the sender claims due
 * rows with a lease (`leaseOwner`, `leaseUntil`), sends each with its own
 * `messageId` (the same on every attempt, so a receiver can drop a repeat), and
 * marks it `sent`, or retries with backoff (`nextAttemptAt`) until
 * MAIL_MAX_ATTEMPTS, then `failed` (shown to site admins).
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** RFC 5322 Message-ID, angle brackets included, fixed when queued. */
    messageId: text("message_id").notNull(),
    /** What the mail is for, e.g. `password-reset`, `password-sso`, `password-changed`. */
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    status: text("status", { enum: ["queued", "sent", "failed"] }).notNull().default("queued"),
    /** Claims so far (each claim is one delivery attempt). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull().default(now),
    leaseOwner: text("lease_owner"),
    leaseUntil: integer("lease_until", { mode: "timestamp_ms" }),
    lastError: text("last_error"),
    /** Extra header lines as a JSON object (e.g. `List-Unsubscribe`, RFC 8058), or null. */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("mail_outbox_message_id_uq").on(t.messageId), index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt)],
);

/**
 * "Forgot password" requests not yet handled (src/accounts/password-reset.ts):
 * every request, for an account or not, writes one row and nothing else, so
 * the answer and its timing say nothing about the address; the mail loop turns
 * each into a reset link, a "use your campus sign-in" notice, or nothing.
 */
export const passwordResetRequests = sqliteTable("password_reset_requests", {
  id: text("id").primaryKey().$defaultFn(newId),
  /** As typed (trimmed); looked up normalised. */
  email: text("email").notNull(),
  /** The asking request's language (its Accept-Language), for the mail when the account has chosen none. */
  locale: text("locale"),
  /** Set while one process handles the row (a stopped process's claim runs out). */
  claimedUntil: integer("claimed_until", { mode: "timestamp_ms" }),
  createdAt: createdAt(),
});

/**
 * One-time password reset links: SHA-256 (hex) of a random 32-byte token, never
 * the token. Deleted when used, and every one of the account's when its
 * password changes; valid until `expiresAt` (an hour).
 */
export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/** What an e-mail link proves (src/accounts/email): `verify` the account's address, `change` to a new one. */
export const EMAIL_TOKEN_PURPOSES = ["verify", "change"] as const;

/**
 * One-time e-mail links (decision 071): SHA-256 (hex) of a random 32-byte token, never the token. `email` is
 * the address the link was sent to (the account's for `verify`, the new one for `change`). Deleted when used,
 * when the address changes, and (a `change`) when another change is asked for; valid until `expiresAt` (24 h).
 */
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    email: text("email").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("email_tokens_user_idx").on(t.userId)],
);

/**
 * The managed vocabulary of topic tags (src/problems/tags): admins curate it, authors choose from
 * it. `slug` is the stable key (lower-case kebab, e.g. `dynamic-programming`), also the message
 * catalogue's key for the base vocabulary's translated names; `name` is shown otherwise.
 */
export const tags = sqliteTable(
  "tags",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("tags_slug_uq").on(t.slug)],
);

/** Free words that mean a tag (`dp` → dynamic-programming), matched lower-cased; a package's keyword or an author's word maps through it. */
export const tagSynonyms = sqliteTable("tag_synonyms", {
  /** Lower-cased, trimmed, inner spaces single. */
  synonym: text("synonym").primaryKey(),
  tagId: text("tag_id")
    .notNull()
    .references(() => tags.id, { onDelete: "cascade" }),
});

export const problemTags = sqliteTable(
  "problem_tags",
  {
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.problemId, t.tagId] }), index("problem_tags_tag_idx").on(t.tagId, t.problemId)],
);

/**
 * One row per user and problem they submitted to (src/problems/bank/status.ts), rewritten from
 * that user's submissions on the problem whenever one of them gets a verdict (first judging and
 * rejudge): the viewer's mark (solved / attempted) and the progress page read it, never a recount
 * of submissions per request. `publicStatus` is the same judgement over public submissions only
 * (no course assignment, no contest): what the problem's public counters count.
 */
export const userProblemStatus = sqliteTable(
  "user_problem_status",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["solved", "attempted"] }).notNull(),
    publicStatus: text("public_status", { enum: ["solved", "attempted"] }),
    /** Judged submissions (any verdict), every context. */
    submissionCount: integer("submission_count").notNull().default(0),
    firstSubmittedAt: integer("first_submitted_at", { mode: "timestamp_ms" }).notNull(),
    lastSubmittedAt: integer("last_submitted_at", { mode: "timestamp_ms" }).notNull(),
    /** The first AC's submission time; null while not solved. */
    solvedAt: integer("solved_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.problemId] }),
    index("user_problem_status_problem_idx").on(t.problemId, t.publicStatus),
    index("user_problem_status_user_last_idx").on(t.userId, t.lastSubmittedAt),
  ],
);

/**
 * Each user's progress version: bumped by migration 0045's triggers on every write to their
 * `user_problem_status` rows (every verdict and rejudge rewrites the row: src/problems/bank/status.ts),
 * so a user's progress can be kept in memory and checked with one primary-key read
 * (src/progress/memory.ts). No foreign key: the triggers fire while an account's rows are erased,
 * and the erasure deletes this row itself (src/problems/bank/erasure.ts). A missing row reads as 0.
 */
export const progressVersions = sqliteTable("progress_versions", {
  userId: text("user_id").primaryKey(),
  version: integer("version").notNull(),
});

/**
 * A problem's public counters, kept beside the problem (not on its row: every write to `problems`
 * bumps the list cache's revision, migration 0003): users whose public submissions were judged
 * (`submitters`) and, of those, users with a public AC (`solvers`). Updated with the status row,
 * by the change in that user's `publicStatus`; the acceptance rate is solvers / submitters.
 */
export const problemStats = sqliteTable(
  "problem_stats",
  {
    problemId: text("problem_id")
      .primaryKey()
      .references(() => problems.id, { onDelete: "cascade" }),
    submitters: integer("submitters").notNull().default(0),
    solvers: integer("solvers").notNull().default(0),
  },
  (t) => [index("problem_stats_solvers_idx").on(t.solvers)],
);

/** Two-factor recovery codes: SHA-256 (hex) of each single-use code (80 random bits), never the code. */
export const twoFactorRecoveryCodes = sqliteTable(
  "two_factor_recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("two_factor_recovery_codes_user_idx").on(t.userId)],
);

/**
 * A password sign-in waiting for its second factor: SHA-256 (hex) of the ticket handed to the
 * client, valid five minutes and for five codes at most (src/auth/two-factor/tickets.ts).
 */
export const twoFactorTickets = sqliteTable(
  "two_factor_tickets",
  {
    ticketHash: text("ticket_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("two_factor_tickets_user_idx").on(t.userId)],
);

/**
 * A notice for one user (src/notifications, decision 073). `subjectKey` names
 * what it is about, so (user, kind, subject) is unique and a notice is never
 * made twice (the periodic scan inserts with ON CONFLICT DO NOTHING). `payload`
 * holds the words the notice shows (titles, a score), captured when made.
 * `shown`: the reader's in-app switch at that time (a notice kept only for its
 * e-mail is not listed). `mailState`: `pending` until the mail loop queued its
 * e-mail (`queued`), null when none is to be sent.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    subjectKey: text("subject_key").notNull(),
    courseId: text("course_id").references(() => courses.id, { onDelete: "cascade" }),
    assignmentId: text("assignment_id").references(() => assignments.id, { onDelete: "cascade" }),
    contestId: text("contest_id").references(() => contests.id, { onDelete: "cascade" }),
    clarificationId: text("clarification_id"),
    announcementId: text("announcement_id"),
    payload: text("payload", { mode: "json" }).$type<Record<string, string>>().notNull(),
    shown: integer("shown", { mode: "boolean" }).notNull().default(true),
    mailState: text("mail_state", { enum: ["pending", "queued"] }),
    createdAt: createdAt(),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("notifications_subject_uq").on(t.userId, t.kind, t.subjectKey),
    index("notifications_latest_idx").on(t.userId, t.createdAt, t.id),
    index("notifications_unread_idx").on(t.userId).where(sql`read_at is null and shown = 1`),
    index("notifications_mail_idx").on(t.mailState).where(sql`mail_state = 'pending'`),
  ],
);

/** A user's switches for one kind of notice; absent: the kind's defaults (src/notifications/kinds.ts). */
export const notificationPreferences = sqliteTable(
  "notification_preferences",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    inApp: integer("in_app", { mode: "boolean" }).notNull(),
    email: integer("email", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** A course staff member's announcement (Markdown body), shown on the course page and sent as notices. */
export const announcements = sqliteTable(
  "announcements",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
    /** When its notices were made (src/notifications/announcements.ts, off the request); null: not yet. */
    fannedOutAt: integer("fanned_out_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("announcements_course_idx").on(t.courseId, t.createdAt), index("announcements_pending_idx").on(t.fannedOutAt).where(sql`fanned_out_at is null`)],
);

/**
 * Grading by people (issue 37 §4, decision 076, src/courses/grading): per
 * assignment problem, whether the rubric's picked items are added to the
 * judge's score or replace it. Absent: `add`.
 */
export const rubrics = sqliteTable(
  "rubrics",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id),
    mode: text("mode", { enum: ["add", "replace"] }).notNull().default("add"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.problemId] })],
);

/** One rubric item of an assignment problem: points (negative: a deduction) and what it says. */
export const rubricItems = sqliteTable(
  "rubric_items",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id),
    ordinal: integer("ordinal").notNull(),
    points: real("points").notNull(),
    description: text("description").notNull(),
  },
  (t) => [index("rubric_items_problem_idx").on(t.assignmentId, t.problemId, t.ordinal)],
);

/** A course's reusable comment for line comments (its comment bank). */
export const commentBank = sqliteTable(
  "comment_bank",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("comment_bank_course_idx").on(t.courseId, t.createdAt)],
);

/** One line comment of a review: a 1-based line of the submission's code and the words. */
export interface ReviewComment {
  line: number;
  text: string;
}

/**
 * Staff's review of one course submission: the rubric items picked, line
 * comments, an override set by an accepted regrade (points, null: none), and
 * when it was released to the student (null: a draft only staff see).
 */
export const submissionReviews = sqliteTable(
  "submission_reviews",
  {
    submissionId: text("submission_id")
      .primaryKey()
      .references(() => submissions.id, { onDelete: "cascade" }),
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id),
    /** The student whose submission it is. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reviewerId: text("reviewer_id").references(() => users.id, { onDelete: "set null" }),
    itemIds: text("item_ids", { mode: "json" }).$type<string[]>().notNull(),
    comments: text("comments", { mode: "json" }).$type<ReviewComment[]>().notNull(),
    overridePoints: real("override_points"),
    releasedAt: integer("released_at", { mode: "timestamp_ms" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [index("submission_reviews_cell_idx").on(t.assignmentId, t.userId, t.problemId)],
);

export const REGRADE_STATUSES = ["open", "accepted", "declined"] as const;

/** A student's request to regrade a released review, and staff's answer (issue 37 §5). */
export const regradeRequests = sqliteTable(
  "regrade_requests",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    courseId: text("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    status: text("status", { enum: REGRADE_STATUSES }).notNull().default("open"),
    answer: text("answer"),
    /** The problem's new points when accepted with a changed grade; null otherwise. */
    points: real("points"),
    answeredBy: text("answered_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    answeredAt: integer("answered_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("regrade_requests_queue_idx").on(t.courseId, t.status, t.createdAt), index("regrade_requests_submission_idx").on(t.submissionId)],
);

/**
 * Who-is-stuck analytics (src/courses/analytics, decision 078): one row per
 * assignment, problem and author, summing the author's counted submissions
 * (judged, not IE) to it; rewritten from those submissions after each verdict,
 * so an analytics read aggregates a few rows per student instead of every submission.
 * A WITHOUT ROWID table (migration 0042, written by hand there): a read by key finds the row in the key's B-tree.
 */
export const assignmentAnalyticsCells = sqliteTable(
  "assignment_analytics_cells",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull(),
    /** The first counted submission; the first AC (null: none). */
    firstAt: integer("first_at", { mode: "timestamp_ms" }).notNull(),
    firstAcAt: integer("first_ac_at", { mode: "timestamp_ms" }),
    /** Counted submissions before the first AC (all of them when none is AC). */
    attemptsBeforeAc: integer("attempts_before_ac").notNull(),
    /** Time to solve: first counted submission to first AC, ms (null: not solved). */
    solveMs: integer("solve_ms"),
    /** The latest failed counted submission (null: none failed). */
    lastFailedAt: integer("last_failed_at", { mode: "timestamp_ms" }),
    /** Counted submissions per verdict. */
    ac: integer("ac").notNull(),
    wa: integer("wa").notNull(),
    tle: integer("tle").notNull(),
    mle: integer("mle").notNull(),
    re: integer("re").notNull(),
    ce: integer("ce").notNull(),
    ole: integer("ole").notNull(),
  },
  // The median time to solve walks this index in order (src/courses/analytics/queries.ts).
  (t) => [primaryKey({ columns: [t.assignmentId, t.problemId, t.userId] }), index("assignment_analytics_cells_solve_idx").on(t.assignmentId, t.problemId, t.solveMs, t.userId)],
);

/** Per assignment, problem and author: failed counted submissions per first failing hidden test (1-based). */
export const assignmentAnalyticsTests = sqliteTable(
  "assignment_analytics_tests",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    problemId: text("problem_id")
      .notNull()
      .references(() => problems.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    testIndex: integer("test_index").notNull(),
    submissions: integer("submissions").notNull(),
  },
  // Ordered as the read groups them (problem, test), so summing needs no sort; WITHOUT ROWID (migration 0042): the key holds the row.
  (t) => [primaryKey({ columns: [t.assignmentId, t.problemId, t.testIndex, t.userId] })],
);

/** Assignments whose analytics rows were built from all their submissions (later verdicts keep them current). */
export const assignmentAnalyticsBuilt = sqliteTable("assignment_analytics_built", {
  assignmentId: text("assignment_id")
    .primaryKey()
    .references(() => assignments.id, { onDelete: "cascade" }),
  builtAt: integer("built_at", { mode: "timestamp_ms" }).notNull(),
});

/** A student's Start of an assignment with a personal window (src/courses/exam/start.ts). */
export const examStarts = sqliteTable(
  "exam_starts",
  {
    assignmentId: text("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    /** The client address at Start. */
    ip: text("ip"),
    /** The session (hashed id) the window is bound to under `oneSession`; null once staff release it (the next session binds). */
    sessionId: text("session_id"),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.userId] }), index("exam_starts_user_idx").on(t.userId)],
);

/**
 * A participant's entry into a contest that needs one (a proctor's password, one session or lock-down:
 * src/contests/exam.ts; decision 081): when, from which address, and the session holding it.
 */
export const contestEntries = sqliteTable(
  "contest_entries",
  {
    contestId: text("contest_id")
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    enteredAt: integer("entered_at", { mode: "timestamp_ms" }).notNull(),
    /** The client address at entry. */
    ip: text("ip"),
    /** The session (hashed id) the entry is bound to under `oneSession`; null once the jury releases it (the next session binds). */
    sessionId: text("session_id"),
  },
  (t) => [primaryKey({ columns: [t.contestId, t.userId] }), index("contest_entries_user_idx").on(t.userId)],
);

/** Who started an exam and who was refused by which rule (src/courses/exam/log.ts), for staff. */
export const examAccessLog = sqliteTable(
  "exam_access_log",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    assignmentId: text("assignment_id").references(() => assignments.id, { onDelete: "cascade" }),
    contestId: text("contest_id").references(() => contests.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    ip: text("ip"),
    /** `started`, `released`, or the refusing rule: `address`, `seb`, `password`, `session`, `window`, `lockdown`, `start`. */
    event: text("event").notNull(),
    /** What was asked (procedure path), for a refusal. */
    detail: text("detail").notNull().default(""),
  },
  (t) => [index("exam_access_log_assignment_idx").on(t.assignmentId, t.at), index("exam_access_log_contest_idx").on(t.contestId, t.at)],
);
