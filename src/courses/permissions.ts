/**
 * Who may do what: the one table. Every course route and procedure asks
 * `can(...)` (through `requireCourseAccess` in ./access.ts) on the server;
 * the client only hides what the server would refuse anyway. docs/permissions.md
 * is this table in words (a test keeps the two equal).
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

/** Course roles that count as staff (see every member's work, drafts and the gradebook). */
export const STAFF_ROLES: readonly CourseRole[] = ["owner", "instructor", "ta"];

const ALL: readonly CourseRole[] = COURSE_ROLES;
const STAFF = STAFF_ROLES;
const TEACHERS: readonly CourseRole[] = ["owner", "instructor"];

/**
 * Each course action and the course roles allowed it (site admins are always
 * allowed). The words after each key are what docs/permissions.md says.
 */
export const COURSE_PERMISSIONS = {
  /** See the course, its open assignments and their problems. */
  "course.view": ALL,
  /** Edit the course's title, code and term. */
  "course.edit": TEACHERS,
  /** Archive (or unarchive) the course. */
  "course.archive": TEACHERS,
  /** See the roster (members and pending invitations). */
  "roster.view": STAFF,
  /** Add, import (CSV) and remove members; change their roles. */
  "roster.edit": TEACHERS,
  /** See, rotate or disable the invite code. */
  "invite.manage": TEACHERS,
  /** See assignments and course problems before they open. */
  "assignment.viewDrafts": STAFF,
  /** Create, edit and delete assignments and their policies. */
  "assignment.edit": TEACHERS,
  /** Create, edit, copy and delete the course's problems (hidden tests included). */
  "problem.edit": TEACHERS,
  /** Read every member's submissions and code. */
  "submission.readAll": STAFF,
  /** Rejudge a submission. */
  "submission.rejudge": STAFF,
  /** Grant or remove a student's extension. */
  "extension.grant": STAFF,
  /** See the gradebook (live). */
  "grades.view": STAFF,
  /** Export grades as CSV and the best submissions as a zip. */
  "grades.export": TEACHERS,
} as const satisfies Record<string, readonly CourseRole[]>;

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
  return actor.courseRole !== null && (COURSE_PERMISSIONS[action] as readonly CourseRole[]).includes(actor.courseRole);
}

/** Whether a course role is staff. */
export function isStaff(role: CourseRole | null): boolean {
  return role !== null && STAFF_ROLES.includes(role);
}
