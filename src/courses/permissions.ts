/**
 * Who may do what: the one table. Every course route and procedure asks
 * `can(...)` (through `requireCourseAccess` in ./access.ts) on the server;
 * the client only hides what the server would refuse anyway. docs/permissions.md
 * is this table in words (a test keeps the two equal).
 *
 * Actions marked `writes` change the course: an archived course refuses them
 * to everyone, site admins included (COURSE_ARCHIVED), until it is restored.
 *
 * Site roles: `admin` may do everything everywhere; a `user` may create courses
 * only with `canCreateCourses` (granted by an admin, or `bun run admin -- grant`).
 * Course roles: `owner` and `instructor` do everything in their course; a `ta`
 * reads every member's work, rejudges and grants extensions, but does not
 * edit assignments, the roster or policies and does not export grades; a
 * `student` sees their own work only.
 */

export const COURSE_ROLES = ["owner", "instructor", "ta", "student"] as const;
export type CourseRole = (typeof COURSE_ROLES)[number];

export const SITE_ROLES = ["admin", "user"] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

/**
 * What a site role allows outside any course: `admin` (the admin page, every
 * course as its owner) and `createCourses` (admins, and users an admin allowed).
 * `auth.me` sends these so the client shows only what the server would allow;
 * `createCourse` checks the same function.
 */
export interface SiteRights {
  admin: boolean;
  createCourses: boolean;
}

/** The site rights of an account, from its site role and course-creation flag. */
export function siteRights(user: { siteRole: SiteRole; canCreateCourses: boolean }): SiteRights {
  const admin = user.siteRole === "admin";
  return { admin, createCourses: admin || user.canCreateCourses };
}

/** Course roles that count as staff (see every member's work, drafts and the gradebook). */
export const STAFF_ROLES: readonly CourseRole[] = ["owner", "instructor", "ta"];

const ALL: readonly CourseRole[] = COURSE_ROLES;
const STAFF = STAFF_ROLES;
const TEACHERS: readonly CourseRole[] = ["owner", "instructor"];

/**
 * Each course action, the course roles allowed it (site admins are always
 * allowed), and what it means in words (docs/permissions.md shows this table).
 */
export const COURSE_PERMISSIONS = {
  "course.view": { roles: ALL, says: "See the course, its open assignments and their problems." },
  "course.edit": { roles: TEACHERS, writes: true, says: "Edit the course's title, code and term." },
  "course.archive": { roles: TEACHERS, says: "Archive (or unarchive) the course." },
  "roster.view": { roles: STAFF, says: "See the roster (members and pending invitations)." },
  "roster.edit": { roles: TEACHERS, writes: true, says: "Add, import (CSV) and remove members; change their roles." },
  "invite.manage": { roles: TEACHERS, writes: true, says: "See, rotate or disable the invite code." },
  "assignment.viewDrafts": { roles: STAFF, says: "See assignments and course problems before they open." },
  "assignment.edit": { roles: TEACHERS, writes: true, says: "Create, edit and delete assignments and their policies." },
  "problem.edit": { roles: TEACHERS, writes: true, says: "Create, edit, copy and delete the course's problems (hidden tests included)." },
  "submission.readAll": { roles: STAFF, says: "Read every member's submissions and code." },
  "submission.rejudge": { roles: STAFF, writes: true, says: "Rejudge a submission." },
  "extension.view": { roles: STAFF, says: "See the students' extensions." },
  "extension.grant": { roles: STAFF, writes: true, says: "Grant or remove a student's extension." },
  "pool.viewDraws": { roles: STAFF, says: "See which problem of each pool every student was given." },
  "lateDays.spend": { roles: ["student"], writes: true, says: "Spend one's own late days on an assignment (students only)." },
  "lateDays.refund": { roles: STAFF, writes: true, says: "Give back late days a student spent on an assignment." },
  "grades.view": { roles: STAFF, says: "See the gradebook (live)." },
  "progress.viewStudent": { roles: STAFF, says: "See a student's progress within the course (its assignments' submissions only, nothing outside the course)." },
  "grades.export": { roles: TEACHERS, says: "Export grades as CSV and the best submissions as a zip." },
  "contest.edit": { roles: TEACHERS, writes: true, says: "Create, edit, delete, unfreeze and finalize the course's contests (all staff judge them)." },
  "announcement.post": { roles: STAFF, writes: true, says: "Post announcements on the course page (each member is notified) and delete one's own." },
  "announcement.deleteAny": { roles: ["owner"], writes: true, says: "Delete any announcement of the course." },
  "rubric.edit": { roles: TEACHERS, writes: true, says: "Define an assignment problem's rubric (items, points, added to or replacing the judge's score)." },
  "review.grade": { roles: STAFF, writes: true, says: "Review a submission: pick rubric items, write line comments, use and add to the course's comment bank; answer regrade requests." },
  "review.release": { roles: TEACHERS, writes: true, says: "Release reviews to students (one submission or a whole assignment), or take a release back." },
  "analytics.view": { roles: STAFF, says: "See an assignment's analytics: who has not started, is attempting or solved each problem, verdicts, tests failed, and who is stuck (live)." },
  "exam.monitor": { roles: STAFF, says: "See who started an exam, from which address, and who was refused by which rule." },
  "exam.release": { roles: STAFF, writes: true, says: "Release a student's one-session lock on an exam (their next session may hold the window)." },
  "similarity.review": { roles: STAFF, says: "Run similarity reports on assignments, read them side by side, mark pairs and export them; see paste records." },
} as const satisfies Record<string, { roles: readonly CourseRole[]; says: string; writes?: true }>;

export type CourseAction = keyof typeof COURSE_PERMISSIONS;

/** What the caller is, for a permission check. */
export interface Actor {
  siteRole: SiteRole;
  /** The caller's role in the course in question, or null when not a member. */
  courseRole: CourseRole | null;
}

/**
 * Whether `actor` may do `action` in a course.
 * @example can({ siteRole: "user", courseRole: "ta" }, "grades.export") // false
 */
export function can(actor: Actor, action: CourseAction): boolean {
  if (actor.siteRole === "admin") return true;
  return actor.courseRole !== null && (COURSE_PERMISSIONS[action].roles as readonly CourseRole[]).includes(actor.courseRole);
}

/**
 * Whether `action` changes the course (refused in an archived course, which is
 * read-only for every write: src/courses/access.ts). Archiving itself is not
 * one, so an archived course can be restored.
 */
export function isWrite(action: CourseAction): boolean {
  return "writes" in COURSE_PERMISSIONS[action];
}

/** Whether a course role is staff. */
export function isStaff(role: CourseRole | null): boolean {
  return role !== null && STAFF_ROLES.includes(role);
}

/**
 * The permission table as Markdown (docs/permissions.md holds exactly this;
 * tests/permissions-doc.test.ts keeps them equal).
 */
export function permissionsTable(): string {
  const head = `| action | what it allows | ${COURSE_ROLES.join(" | ")} | site admin |`;
  const rule = `|${" --- |".repeat(COURSE_ROLES.length + 3)}`;
  const rows = Object.entries(COURSE_PERMISSIONS).map(
    ([action, p]) => `| \`${action}\` | ${p.says} | ${COURSE_ROLES.map((r) => ((p.roles as readonly CourseRole[]).includes(r) ? "yes" : "no")).join(" | ")} | yes |`,
  );
  return [head, rule, ...rows].join("\n");
}
