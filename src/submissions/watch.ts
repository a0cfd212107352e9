/**
 * Following a submission while it is judged: waiting for its verdict, and
 * the live progress stream (queued → compiling → running test k of n →
 * done). Both wake on the judge's doorbell (judging in this process) and
 * re-check a cheap fingerprint every PROGRESS_POLL_MS (judging in another
 * process or on a judge host); every answer and event is cut to the
 * viewer's feedback policy (./view.ts).
 */
import { and, count, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { submissions } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { callerOf, type SubmissionCaller, type SubmissionDeps } from "./create.ts";
import type { SubmissionShape, SubmissionTestShape } from "./shape.ts";
import { viewSubmission } from "./view.ts";

/** How often a waiter or subscription re-reads a submission without a doorbell (another process judging it), ms. */
export const PROGRESS_POLL_MS = 500;

/** What following a submission needs. */
export type WatchDeps = Pick<SubmissionDeps, "db" | "events" | "now">;

/** Live progress of one submission (what `submissions.progress` streams). Never carries hidden data. */
export type SubmissionProgress =
  | { status: "queued"; submissionId: string; /** Submissions queued before this one (all users). */ ahead: number }
  | { status: "compiling"; submissionId: string }
  | {
      status: "running";
      submissionId: string;
      /** 1-based number of the test being run now, of `of`; null when the feedback policy shows only the verdict. */
      test: number | null;
      of: number | null;
      /** Finished tests so far. */
      tests: SubmissionTestShape[];
    }
  | { status: "done"; submissionId: string; submission: SubmissionShape };

/**
 * One submission as the caller may see it (their own, or as course staff), cut to the feedback policy in force.
 * @throws SUBMISSION_NOT_FOUND (404) when absent or not theirs to read.
 */
export async function readOne(deps: Pick<WatchDeps, "db" | "now">, caller: SubmissionCaller, id: string): Promise<SubmissionShape> {
  return (await viewSubmission(deps.db, callerOf(caller), id, deps.now())).submission;
}

/**
 * Waits until the submission is judged (or `timeoutMs` passes, or `signal` aborts).
 * @returns the submission as it is then (status `done` unless the wait ended early).
 * @throws SUBMISSION_NOT_FOUND (404) when absent or not the caller's to read.
 */
export async function waitForVerdict(deps: WatchDeps, caller: SubmissionCaller, id: string, timeoutMs: number, signal?: AbortSignal): Promise<SubmissionShape> {
  const deadline = Date.now() + timeoutMs;
  const first = await readOne(deps, caller, id);
  if (first.status === "done") return first;
  // Poll one small row (the doorbell wakes us at once for judging in this process).
  while (Date.now() < deadline && !signal?.aborted) {
    await deps.events.waitChanged(id, Math.min(PROGRESS_POLL_MS, Math.max(1, deadline - Date.now())), signal);
    if ((await fingerprint(deps.db, id))?.status === "done") break;
  }
  return readOne(deps, caller, id);
}

/**
 * Streams the submission's progress: one event per change, ending with
 * `done`. Re-checks on every doorbell and every PROGRESS_POLL_MS (a cheap
 * fingerprint query; the full read only when it changed), so it follows
 * judging done by another process too. Every event is cut to the caller's
 * feedback policy.
 * @throws SUBMISSION_NOT_FOUND (404) when absent or not the caller's to read.
 */
export async function* submissionProgress(deps: WatchDeps, caller: SubmissionCaller, id: string, signal?: AbortSignal): AsyncGenerator<SubmissionProgress, void, unknown> {
  const viewer = callerOf(caller);
  await readOne(deps, viewer, id);
  let lastPrint = "";
  let last = "";
  while (!signal?.aborted) {
    const fp = await fingerprint(deps.db, id);
    if (!fp) throw new AppError("SUBMISSION_NOT_FOUND");
    const print = JSON.stringify(fp);
    if (print !== lastPrint) {
      lastPrint = print;
      const event = await progressEvent(deps, viewer, id);
      const key = JSON.stringify(event);
      if (key !== last) {
        last = key;
        yield event;
      }
      if (event.status === "done") return;
    }
    await deps.events.waitChanged(id, PROGRESS_POLL_MS, signal);
  }
}

/** What changes while a submission is judged: status, tests finished, and the queue ahead of it while queued. */
async function fingerprint(db: Database, id: string): Promise<{ status: string; total: number; done: number; ahead: number } | null> {
  const rows = await db.all<{ status: string; total: number; done: number; ahead: number }>(sql`
    SELECT s.status AS status, s.tests_total AS total,
           (SELECT count(*) FROM submission_tests t WHERE t.submission_id = s.id) AS done,
           CASE WHEN s.status = 'queued'
                THEN (SELECT count(*) FROM submissions q WHERE q.status = 'queued' AND q.created_at < s.created_at)
                ELSE 0 END AS ahead
      FROM submissions s WHERE s.id = ${id}`);
  return rows[0] ?? null;
}

async function progressEvent(deps: WatchDeps, viewer: Caller, id: string): Promise<SubmissionProgress> {
  const s = await readOne(deps, viewer, id);
  switch (s.status) {
    case "queued": {
      const [ahead] = await deps.db
        .select({ n: count() })
        .from(submissions)
        .where(and(eq(submissions.status, "queued"), lt(submissions.createdAt, new Date(s.createdAt))));
      return { status: "queued", submissionId: id, ahead: ahead?.n ?? 0 };
    }
    case "compiling":
      return { status: "compiling", submissionId: id };
    case "running":
      return {
        status: "running",
        submissionId: id,
        test: s.testsTotal === null ? null : Math.min(s.tests.length + 1, s.testsTotal),
        of: s.testsTotal,
        tests: s.tests,
      };
    case "done":
      return { status: "done", submissionId: id, submission: s };
  }
}
