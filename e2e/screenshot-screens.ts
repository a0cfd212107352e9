/**
 * The screens e2e/screenshots.ts photographs: one entry per screen, naming
 * the client route pattern it shows (CLIENT_ROUTES of client/src/routes.ts,
 * or "*" for the not-found page), the URL from the seeded data
 * (e2e/a11y-seed.ts), who looks at it and what is done before the picture.
 * `uncovered` lists the route patterns without a screen; the script refuses
 * to run while it is not empty, so a new route needs a screenshot.
 */
import type { Page } from "playwright-core";
import { CLIENT_ROUTES } from "../client/src/routes.ts";
import type { Seeded } from "./a11y-seed.ts";
import { setEditorCode } from "./harness.ts";

export type Device = "desktop" | "phone";
/** Who looks: a guest (no token), the seeded staff member (site admin, course owner, contest jury), the seeded student (in the course and the running contest), or a solver (signed up, in neither). */
export type Viewer = "guest" | "staff" | "student" | "solver";

export interface Screen {
  name: string;
  /** The CLIENT_ROUTES pattern this screen shows ("*": the not-found page). */
  route: string;
  path: string;
  as: Viewer;
  /** Only at this width (a state that exists only there). */
  only?: Device;
  /** The first screenful rather than the whole page (dialogs, the editor). */
  screenful?: boolean;
  /** The page answers 403/404 to this viewer on purpose; the browser's "Failed to load resource" lines are expected. */
  refused?: boolean;
  act?: (page: Page) => Promise<void>;
}

export const PY_SUM = "a, b = map(int, input().split())\nprint(a + b)\n";

/** Waits until the Monaco editor shows `PY_SUM` in Python (set as a user would paste it). */
async function pythonInEditor(p: Page): Promise<void> {
  await p.getByRole("main").getByLabel("Language").selectOption("py");
  await setEditorCode(p, PY_SUM);
}

const runStatus = (p: Page, text: string) => p.getByTestId("run-status").filter({ hasText: text }).waitFor({ timeout: 90_000 });

/** Every screen, from the seeded data. */
export function screensFor(d: Seeded): Screen[] {
  const c = `/contests/${d.contestId}`;
  const a = `/assignments/${d.assignmentId}`;
  const sim = `/similarity/${d.reportId}`;
  return [
    // Public pages.
    { name: "landing", route: "/", path: "/", as: "guest" },
    {
      name: "landing-menu",
      route: "/",
      path: "/",
      as: "guest",
      only: "phone",
      screenful: true,
      act: async (p) => {
        await p.getByRole("button", { name: "Menu" }).click();
        await p.locator(".site-nav-panel.open").waitFor();
      },
    },
    { name: "signin", route: "/signin", path: "/signin", as: "guest" },
    { name: "signup", route: "/signup", path: "/signup", as: "guest" },
    { name: "forgot-password", route: "/forgot-password", path: "/forgot-password", as: "guest" },
    { name: "reset-password-no-token", route: "/reset-password", path: "/reset-password", as: "guest" },
    { name: "reset-password", route: "/reset-password", path: "/reset-password?token=not-a-real-token", as: "guest" },
    { name: "verify-email-no-token", route: "/verify-email", path: "/verify-email", as: "guest" },
    // The token is posted on opening: the server refuses it (400), which the page shows.
    { name: "verify-email", route: "/verify-email", path: "/verify-email?token=not-a-real-token", as: "guest", refused: true },
    { name: "confirm-email", route: "/confirm-email", path: "/confirm-email?token=not-a-real-token", as: "guest", refused: true },
    // Reached without a sign-in in progress: the page says so (the server answers 401).
    { name: "auth-complete", route: "/auth/complete", path: "/auth/complete", as: "guest", refused: true },
    { name: "lti-deep-link", route: "/lti/deep-link/:id", path: "/lti/deep-link/no-such-flow", as: "staff", refused: true },
    { name: "about", route: "/about", path: "/about", as: "guest" },
    { name: "contact", route: "/contact", path: "/contact", as: "guest" },
    { name: "privacy", route: "/privacy", path: "/privacy", as: "guest" },
    { name: "terms", route: "/terms", path: "/terms", as: "guest" },
    { name: "accessibility", route: "/accessibility", path: "/accessibility", as: "guest" },
    { name: "not-found", route: "*", path: "/no-such-page", as: "guest", refused: true },
    // Problems and solving.
    { name: "problems", route: "/problems", path: "/problems", as: "staff" },
    { name: "problems-student", route: "/problems", path: "/problems", as: "student" },
    {
      name: "problem-form",
      route: "/problems",
      path: "/problems",
      as: "staff",
      screenful: true,
      act: async (p) => {
        await p.getByRole("button", { name: "Create Problem" }).click();
        await p.getByRole("dialog").waitFor();
      },
    },
    {
      name: "problem-edit",
      route: "/problems",
      path: "/problems",
      as: "staff",
      screenful: true,
      act: async (p) => {
        await p.getByRole("button", { name: "Edit Sum of Two Numbers" }).first().click();
        const dialog = p.getByRole("dialog", { name: "Edit Problem" });
        await dialog.waitFor();
        // Scrolled to the end: limits, checker and the hidden test cases.
        await dialog.evaluate((el) => (el.scrollTop = el.scrollHeight));
      },
    },
    { name: "solve", route: "/solve/:id", path: `/solve/${d.problemId}`, as: "solver", act: (p) => p.locator(".monaco-editor").first().waitFor({ timeout: 30_000 }) },
    {
      name: "solve-run",
      route: "/solve/:id",
      path: `/solve/${d.problemId}`,
      as: "solver",
      act: async (p) => {
        await pythonInEditor(p);
        await p.getByLabel("Custom Input (optional)").fill("40 2");
        await p.getByRole("button", { name: "Run Code" }).click();
        await runStatus(p, "Sample test passed");
      },
    },
    {
      name: "solve-submit",
      route: "/solve/:id",
      path: `/solve/${d.problemId}`,
      as: "solver",
      act: async (p) => {
        await pythonInEditor(p);
        await p.getByRole("button", { name: "Submit Code" }).click();
        await runStatus(p, "Accepted");
      },
    },
    {
      name: "ai-review",
      route: "/solve/:id",
      path: `/solve/${d.problemId}`,
      as: "solver",
      act: async (p) => {
        await pythonInEditor(p);
        await p.getByRole("button", { name: "AI Review" }).click();
        await p.getByText("Review completed successfully").waitFor({ timeout: 60_000 });
      },
    },
    { name: "solve-contest", route: "/solve/:id", path: `/solve/${d.problemId}?contest=${d.contestId}`, as: "student", act: (p) => p.locator(".monaco-editor").first().waitFor({ timeout: 30_000 }) },
    { name: "solve-assignment", route: "/solve/:id", path: `/solve/${d.problemId}?assignment=${d.assignmentId}`, as: "student", act: (p) => p.locator(".monaco-editor").first().waitFor({ timeout: 30_000 }) },
    { name: "my-submissions", route: "/my-submissions", path: "/my-submissions", as: "student" },
    {
      name: "my-submissions-problem",
      route: "/my-submissions/:problemId",
      path: `/my-submissions/${d.problemId}`,
      as: "student",
      act: async (p) => {
        const row = p.getByTestId("submission-row").first();
        await row.waitFor();
        await row.locator(".history-toggle").click();
        await row.getByRole("heading", { name: "Your Output" }).waitFor();
      },
    },
    // Progress: one's own, a public profile, and a course's staff looking at a student.
    { name: "progress", route: "/progress", path: "/progress", as: "student" },
    { name: "profile", route: "/u/:handle", path: `/u/${d.studentHandle}`, as: "guest" },
    { name: "student-progress", route: "/courses/:id/students/:userId/progress", path: `/courses/${d.courseId}/students/${d.studentId}/progress`, as: "staff" },
    // Notifications: the list, and the page a notice e-mail's unsubscribe link opens.
    { name: "notifications", route: "/notifications", path: "/notifications", as: "student" },
    { name: "unsubscribe", route: "/notifications/unsubscribe", path: "/notifications/unsubscribe?token=not-a-real-token", as: "guest" },
    // Account and administration.
    { name: "account", route: "/account", path: "/account", as: "student" },
    { name: "admin", route: "/admin", path: "/admin", as: "staff" },
    { name: "admin-student", route: "/admin", path: "/admin", as: "student", refused: true },
    // Courses and assignments.
    { name: "courses-instructor", route: "/courses", path: "/courses", as: "staff" },
    { name: "courses-student", route: "/courses", path: "/courses", as: "student" },
    // Joining succeeds straight into the course page (course-student); what stays on /join is a wrong code.
    { name: "join-wrong-code", route: "/join/:code", path: "/join/NOSUCHCODE", as: "solver", refused: true },
    { name: "join-guest", route: "/join/:code", path: `/join/${d.inviteCode}`, as: "guest" },
    { name: "course-instructor", route: "/courses/:id", path: `/courses/${d.courseId}`, as: "staff" },
    { name: "course-student", route: "/courses/:id", path: `/courses/${d.courseId}`, as: "student" },
    { name: "course-settings", route: "/courses/:id/settings", path: `/courses/${d.courseId}/settings`, as: "staff" },
    { name: "assignment-new", route: "/courses/:id/assignments/new", path: `/courses/${d.courseId}/assignments/new`, as: "staff" },
    { name: "assignment-edit", route: "/assignments/:id/edit", path: `${a}/edit`, as: "staff" },
    { name: "assignment-instructor", route: "/assignments/:id", path: a, as: "staff" },
    { name: "assignment-student", route: "/assignments/:id", path: a, as: "student" },
    { name: "gradebook", route: "/assignments/:id/gradebook", path: `${a}/gradebook`, as: "staff" },
    { name: "gradebook-student", route: "/assignments/:id/gradebook", path: `${a}/gradebook`, as: "student", refused: true },
    // Grading by people (issue 37 §4–5): the review for staff and its student, the rubrics, the regrade queue.
    { name: "review-staff", route: "/submissions/:id/review", path: `/submissions/${d.reviewSubmissionId}/review`, as: "staff" },
    { name: "review-student", route: "/submissions/:id/review", path: `/submissions/${d.reviewSubmissionId}/review`, as: "student" },
    { name: "rubrics", route: "/assignments/:id/rubrics", path: `${a}/rubrics`, as: "staff" },
    { name: "regrade-queue", route: "/courses/:id/regrades", path: `/courses/${d.courseId}/regrades`, as: "staff" },
    { name: "analytics", route: "/assignments/:id/analytics", path: `${a}/analytics`, as: "staff" },
    { name: "analytics-student", route: "/assignments/:id/analytics", path: `${a}/analytics`, as: "student", refused: true },
    // Similarity.
    { name: "assignment-similarity", route: "/assignments/:id/similarity", path: `${a}/similarity`, as: "staff" },
    { name: "contest-similarity", route: "/contests/:id/similarity", path: `${c}/similarity`, as: "staff" },
    { name: "similarity-report", route: "/similarity/:reportId", path: sim, as: "staff" },
    { name: "similarity-pair", route: "/similarity/:reportId/pairs/:pairId", path: `${sim}/pairs/${d.pairId}`, as: "staff" },
    // Contests (the seeded one is running).
    { name: "contests", route: "/contests", path: "/contests", as: "staff" },
    { name: "contests-student", route: "/contests", path: "/contests", as: "student" },
    { name: "contest-new", route: "/contests/new", path: "/contests/new", as: "staff" },
    { name: "contest-jury", route: "/contests/:id", path: c, as: "staff" },
    { name: "contest-team", route: "/contests/:id", path: c, as: "student" },
    { name: "contest-visitor", route: "/contests/:id", path: c, as: "solver" },
    { name: "contest-guest", route: "/contests/:id", path: c, as: "guest" },
    { name: "scoreboard", route: "/contests/:id/scoreboard", path: `${c}/scoreboard`, as: "staff" },
    { name: "scoreboard-projector", route: "/contests/:id/scoreboard", path: `${c}/scoreboard?projector`, as: "staff" },
    { name: "balloons", route: "/contests/:id/balloons", path: `${c}/balloons`, as: "staff" },
    { name: "reveal", route: "/contests/:id/reveal", path: `${c}/reveal`, as: "staff" },
  ];
}

/** The route patterns (CLIENT_ROUTES and "*") without a screen. */
export function uncovered(screens: Pick<Screen, "route">[]): string[] {
  const covered = new Set(screens.map((s) => s.route));
  return [...CLIENT_ROUTES, "*"].filter((r) => !covered.has(r));
}
