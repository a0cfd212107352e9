/**
 * The statements that erase one account (decision 072), gathered from each domain that owns the tables
 * (tests/architecture.test.ts: a table is written only from its folder) and run by ./erase.ts in one
 * `db.batch`: one write transaction, all or nothing. What goes and what stays, table by table:
 *
 * Deleted: sessions (src/auth), sign-in identities and flows (src/sso), two-factor tickets and recovery codes,
 * reset links and "forgot password" requests for the address (src/accounts), AI review requests (src/ai),
 * contact messages sent signed in or from the address (src/contact), course invitations to the address
 * (src/courses), LTI activity pickers (src/lti), contest roles and the questions the user sent with their
 * feed events (src/contests), every message to the address in the outbox (src/mail), the per-problem status
 * rows, the problems' public counters moved by them (src/problems/bank), every submission outside a course
 * assignment and a contest with its code, tests, failures, paste record and judge finishes
 * (src/submissions, src/judge-hosts), and the problems the user wrote that nothing else uses (src/problems).
 *
 * Kept, pointing at the anonymous tombstone ("Deleted user"): course memberships, assignment scores,
 * extensions, course-assignment and contest submissions with their code (a course's grade records and the
 * evidence behind them), similarity reports and marks (they name submissions, not people), LTI grades still
 * to reach the LMS, contest teams (a team of one renamed "Deleted user …", affiliation and join code cleared,
 * its feed events rewritten), jury messages the user sent as a contest's jury, problems others' work uses,
 * and the courses and contests the user created.
 */
import type { Database } from "../../db/index.ts";
import { accountErasure } from "../accounts/erasure.ts";
import { aiErasure } from "../ai/erasure.ts";
import { deleteSessionsOf } from "../auth/session.ts";
import { contactErasure } from "../contact/erasure.ts";
import { contestsErasure, type ContestErasurePlan } from "../contests/erasure.ts";
import { coursesErasure } from "../courses/erasure.ts";
import { judgeFinishesErasure } from "../judge-hosts/erasure.ts";
import { ltiErasure } from "../lti/erasure.ts";
import { mailErasure } from "../mail/erasure.ts";
import { notificationsErasure } from "../notifications/erasure.ts";
import { progressErasure } from "../problems/bank/erasure.ts";
import { problemsErasure } from "../problems/erasure.ts";
import { identitiesErasure } from "../sso/erasure.ts";
import { submissionsErasure } from "../submissions/erasure.ts";

/** What the writes need to know, read before the batch. */
export interface ErasurePlan extends ContestErasurePlan {
  userId: string;
  /** The account's address, normalised (lower-cased): what mail, invitations, requests and contact messages match. */
  emailNormalized: string;
  nowMs: number;
}

/** The batch, in order: later statements rely on earlier ones (the submissions go before the problems they kept alive, the tombstone last). */
export function erasureWrites(db: Database, plan: ErasurePlan) {
  const { userId, emailNormalized } = plan;
  return [
    // Signed out at once, and every way back in removed.
    deleteSessionsOf(db, userId),
    ...identitiesErasure(db, userId),
    ...ltiErasure(db, userId),
    // What the user wrote or asked for, and mail to them.
    ...aiErasure(db, userId),
    ...contactErasure(db, userId, emailNormalized),
    ...coursesErasure(db, emailNormalized),
    ...mailErasure(db, emailNormalized),
    ...notificationsErasure(db, userId),
    ...contestsErasure(db, userId, plan),
    // Progress, then practice submissions, then the problems nothing uses any more.
    ...progressErasure(db, userId),
    ...judgeFinishesErasure(db, userId),
    ...submissionsErasure(db, userId),
    ...problemsErasure(db, userId),
    // Last, the tombstone.
    ...accountErasure(db, userId, emailNormalized, plan.nowMs),
  ] as const;
}
