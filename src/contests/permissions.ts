/**
 * Who may do what in a contest: the contest half of the one permission table
 * (the course half is src/courses/permissions.ts; docs/permissions.md shows
 * both, tests/permissions-doc.test.ts keeps them equal). Every contest route,
 * procedure and Contest API endpoint asks `canInContest` through
 * `requireContest` (./access.ts).
 *
 * Contest roles, decided per caller by ./access.ts:
 * - `jury`: the contest's owners (a site admin; the contest's creator; in a
 *   course contest, the course's teachers) and whoever an owner granted the
 *   contest role `jury` (./roles.ts); a course's TA only by such a grant. Actions marked
 *   `owners` (changing the contest: edit, delete, unfreeze, finalize; seeing,
 *   granting and revoking contest roles) are the owners' only: a granted jury
 *   member (a TA among them) judges (submissions, rejudges, answers, the live board, balloons,
 *   the contest's problems while it holds them) but does not change the
 *   contest nor extend the jury (`requireContestAction` in ./access.ts).
 * - `balloon`: granted the contest role `balloon` (DOMjudge's balloon runner):
 *   the balloon list, as the public board shows it (no solve hidden by the
 *   freeze), and marking balloons delivered.
 * - `participant`: a member of a team of the contest (in a course contest, a
 *   student of the course: their one-person team is made on first use).
 * - `public`: signed in, none of these (may register while registration is open).
 * - `anonymous`: not signed in (public contests only: read-only, frozen).
 *
 * A course contest does not exist (404) for anyone outside the course and its granted roles.
 * Time rules (when submitting opens, when problems show) are ./access.ts's.
 * Actions marked `writes` change the contest: a course contest whose course
 * is archived refuses them (COURSE_ARCHIVED), as the course refuses its own.
 */

export const CONTEST_ROLES = ["jury", "balloon", "participant", "public", "anonymous"] as const;
export type ContestRole = (typeof CONTEST_ROLES)[number];

const ALL: readonly ContestRole[] = CONTEST_ROLES;
const JURY: readonly ContestRole[] = ["jury"];
const BALLOONS: readonly ContestRole[] = ["jury", "balloon"];

export const CONTEST_PERMISSIONS = {
  "contest.view": { roles: ALL, says: "See the contest: title, times, teams; problem labels and names from the start (the jury always)." },
  "contest.edit": { roles: JURY, owners: true, writes: true, says: "Edit or delete the contest; unfreeze and finalize its scoreboard." },
  "roles.view": { roles: JURY, owners: true, says: "See the contest's granted roles (jury, balloon) and who holds them." },
  "roles.manage": { roles: JURY, owners: true, writes: true, says: "Grant a contest role by e-mail address, or revoke it." },
  "contest.register": { roles: ["public"], writes: true, says: "Register (alone or as a team), with the code when one is asked." },
  "problems.view": { roles: ALL, says: "Read the problems' statements (participants from the start, others once the contest is over; the jury always)." },
  "submission.create": { roles: ["participant", "jury"], writes: true, says: "Submit (participants inside their window; the jury any time, off the scoreboard)." },
  "submission.readOwn": { roles: ["participant"], says: "Read the team's own submissions, code and verdicts (during the freeze too)." },
  "submission.readAll": { roles: JURY, says: "Read every submission and its code." },
  "submission.rejudge": { roles: JURY, writes: true, says: "Judge a contest submission again (only here: the problem's own rejudge leaves contest submissions to their jury)." },
  "scoreboard.view": { roles: ALL, says: "See the scoreboard (no problems on it before the start; frozen during the freeze)." },
  "scoreboard.live": { roles: JURY, says: "See the live scoreboard during the freeze and step through the reveal." },
  "clarification.ask": { roles: ["participant"], writes: true, says: "Ask the jury a question (about a problem or in general)." },
  "clarification.read": { roles: ["participant", "jury"], says: "Read clarifications: a team its own questions and the answers to it or to all; the jury all." },
  "clarification.answer": { roles: JURY, writes: true, says: "Answer a question, to its team or to all, or announce." },
  "balloons.view": { roles: BALLOONS, says: "See the balloon list (each team's first solve of each problem; the balloon role: none the freeze hides)." },
  "balloons.mark": { roles: BALLOONS, writes: true, says: "Mark a balloon delivered (or not)." },
  "similarity.review": { roles: JURY, says: "Run similarity reports on the contest, read them side by side, mark pairs and export them." },
  "exam.enter": { roles: ["participant"], writes: true, says: "Enter a contest that asks for it (a proctor's password, one session or lock-down), inside the participant's window." },
  "exam.monitor": { roles: JURY, says: "See who entered, from which address, and who was refused by which exam rule." },
  "exam.release": { roles: JURY, writes: true, says: "Release a participant held to one session, so that their next session holds the entry." },
  "api.accounts": { roles: JURY, says: "Read the Contest API's accounts and unfrozen judgements." },
} as const satisfies Record<string, { roles: readonly ContestRole[]; says: string; writes?: true; owners?: true }>;

export type ContestAction = keyof typeof CONTEST_PERMISSIONS;

/** Whether a caller with `role` may do `action` (site admins are always `jury`). */
export function canInContest(role: ContestRole, action: ContestAction): boolean {
  return (CONTEST_PERMISSIONS[action].roles as readonly ContestRole[]).includes(role);
}

/** Whether `action` changes the contest (refused while a course contest's course is archived). */
export function isContestWrite(action: ContestAction): boolean {
  return "writes" in CONTEST_PERMISSIONS[action];
}

/**
 * Whether `action` is the contest's owners' only among the jury (its creator,
 * a course contest's teachers, site admins; not a TA nor a granted jury member).
 */
export function isOwnersOnly(action: ContestAction): boolean {
  return "owners" in CONTEST_PERMISSIONS[action];
}

/** The contest table as Markdown (docs/permissions.md holds exactly this). */
export function contestPermissionsTable(): string {
  const head = `| action | what it allows | ${CONTEST_ROLES.join(" | ")} |`;
  const rule = `|${" --- |".repeat(CONTEST_ROLES.length + 2)}`;
  const rows = Object.entries(CONTEST_PERMISSIONS).map(
    ([action, p]) => `| \`${action}\` | ${p.says} | ${CONTEST_ROLES.map((r) => cell(action as ContestAction, r)).join(" | ")} |`,
  );
  return [head, rule, ...rows].join("\n");
}

/** A cell of the table: yes, no, or "owners" (the jury's owners only). */
function cell(action: ContestAction, role: ContestRole): string {
  if (!canInContest(role, action)) return "no";
  return role === "jury" && isOwnersOnly(action) ? "owners" : "yes";
}
