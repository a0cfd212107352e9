/**
 * Who may do what in a contest: the contest half of the one permission table
 * (the course half is src/courses/permissions.ts; docs/permissions.md shows
 * both, tests/permissions-doc.test.ts keeps them equal). Every contest route,
 * procedure and Contest API endpoint asks `canInContest` through
 * `requireContest` (./access.ts).
 *
 * Contest roles, decided per caller by ./access.ts:
 * - `jury`: a site admin; the contest's creator; in a course contest, the course's staff.
 *   Changing the contest (`contest.edit`: edit, delete, unfreeze, finalize) is
 *   narrower in a course contest: its creator, the course's teachers
 *   (the course's own `contest.edit`) and site admins; a TA judges it
 *   (submissions, rejudges, answers, balloons) but does not change it
 *   (`requireContestAction` in ./access.ts).
 * - `participant`: a member of a team of the contest (in a course contest, a
 *   student of the course: their one-person team is made on first use).
 * - `public`: signed in, neither (may register while registration is open).
 * - `anonymous`: not signed in (public contests only: read-only, frozen).
 *
 * A course contest does not exist (404) for anyone outside the course.
 * Time rules (when submitting opens, when problems show) are ./access.ts's.
 * Actions marked `writes` change the contest: a course contest whose course
 * is archived refuses them (COURSE_ARCHIVED), as the course refuses its own.
 */

export const CONTEST_ROLES = ["jury", "participant", "public", "anonymous"] as const;
export type ContestRole = (typeof CONTEST_ROLES)[number];

const ALL: readonly ContestRole[] = CONTEST_ROLES;
const JURY: readonly ContestRole[] = ["jury"];

export const CONTEST_PERMISSIONS = {
  "contest.view": { roles: ALL, says: "See the contest: title, times, teams; problem labels and names from the start (the jury always)." },
  "contest.edit": { roles: JURY, writes: true, says: "Edit or delete the contest; unfreeze and finalize its scoreboard (in a course contest: its creator and the course's teachers, not TAs)." },
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
  "balloons.view": { roles: JURY, says: "See the balloon list (each team's first solve of each problem)." },
  "balloons.mark": { roles: JURY, writes: true, says: "Mark a balloon delivered (or not)." },
  "similarity.review": { roles: JURY, says: "Run similarity reports on the contest, read them side by side, mark pairs and export them." },
  "api.accounts": { roles: JURY, says: "Read the Contest API's accounts and unfrozen judgements." },
} as const satisfies Record<string, { roles: readonly ContestRole[]; says: string; writes?: true }>;

export type ContestAction = keyof typeof CONTEST_PERMISSIONS;

/** Whether a caller with `role` may do `action` (site admins are always `jury`). */
export function canInContest(role: ContestRole, action: ContestAction): boolean {
  return (CONTEST_PERMISSIONS[action].roles as readonly ContestRole[]).includes(role);
}

/** Whether `action` changes the contest (refused while a course contest's course is archived). */
export function isContestWrite(action: ContestAction): boolean {
  return "writes" in CONTEST_PERMISSIONS[action];
}

/** The contest table as Markdown (docs/permissions.md holds exactly this). */
export function contestPermissionsTable(): string {
  const head = `| action | what it allows | ${CONTEST_ROLES.join(" | ")} |`;
  const rule = `|${" --- |".repeat(CONTEST_ROLES.length + 2)}`;
  const rows = Object.entries(CONTEST_PERMISSIONS).map(
    ([action, p]) => `| \`${action}\` | ${p.says} | ${CONTEST_ROLES.map((r) => ((p.roles as readonly ContestRole[]).includes(r) ? "yes" : "no")).join(" | ")} |`,
  );
  return [head, rule, ...rows].join("\n");
}
