/**
 * drizzle-orm schema for libSQL. Migrations are generated from this file with
 * `bun run db:generate` into `db/migrations/` and applied at start.
 *
 * Conventions: ids are opaque random strings (`newId()`); times are integer
 * milliseconds since the epoch (`timestamp_ms`); limits carry their unit in
 * the column name.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { newId } from "./ids.ts";
import { LANGUAGE_IDS } from "../isolate/languages/index.ts";
import { CHECKERS, DEFAULT_CHECKER, DIFFICULTIES, PROBLEM_LIMITS } from "../src/problems/limits.ts";
import { VERDICTS, type VerdictCode } from "../src/verdicts.ts";

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
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_normalized_uq").on(t.emailNormalized)],
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
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

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
    /** Output comparison: `lines` (default), `tokens` (any whitespace), `float` (abs/rel error 1e-6). */
    checker: text("checker", { enum: CHECKERS }).notNull().default(DEFAULT_CHECKER),
    /** Incremented on every update (the spec's server version field). */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
    /** Soft delete: a deleted problem disappears from lists but its submissions stay readable. */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("problems_difficulty_idx").on(t.difficulty), index("problems_user_idx").on(t.userId)],
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
    leaseExpiresAt: integer("lease_expires_at", { mode: "timestamp_ms" }),
    attempts: integer("attempts").notNull().default(0),
    /** When the latest judging attempt claimed the job; the queue's fair share serves the least recently served user first. */
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    judgedAt: integer("judged_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("submissions_user_problem_idx").on(t.userId, t.problemId, t.createdAt),
    index("submissions_status_idx").on(t.status, t.createdAt),
  ],
);

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
