/**
 * Every route of the client (read from its own route table, client/src, each
 * `<Route path="...">`) and the URL each is visited at with the seeded data
 * (a11y-seed.ts): the list the accessibility and the pseudo-locale tests walk.
 * A new route without a URL here fails a11y.test.ts's coverage test.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Seeded } from "./a11y-seed.ts";
import { ROOT } from "./harness.ts";

/** Every `<Route path="...">` of the client's sources (the route table), in file order. */
export function clientRoutePatterns(dir = join(ROOT, "client", "src")): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...clientRoutePatterns(path));
    else if (path.endsWith(".tsx")) for (const m of readFileSync(path, "utf8").matchAll(/<Route\s+path="([^"]+)"/g)) out.push(m[1]!);
  }
  return [...new Set(out)];
}

/** The URL visited for each route pattern, from the seeded data; a route missing here fails the coverage test. */
export function urlsFor(d: Seeded): Record<string, string[]> {
  const sim = `/similarity/${d.reportId}`;
  return {
    "/": ["/"],
    "/signin": ["/signin"],
    "/signup": ["/signup"],
    "/forgot-password": ["/forgot-password"],
    // Without a link's token (the page says to ask for one) and with one (the form; the token is checked on submit).
    "/reset-password": ["/reset-password", "/reset-password?token=a11y-not-a-real-token"],
    // The e-mail link pages: without a token (the page says where to ask for one) and with one that is not
    // valid (posted on opening: the server's refusal is shown).
    "/verify-email": ["/verify-email", "/verify-email?token=a11y-not-a-real-token"],
    "/confirm-email": ["/confirm-email", "/confirm-email?token=a11y-not-a-real-token"],
    "/auth/complete": ["/auth/complete"],
    // A deep-link flow exists only inside an LMS launch: the page's own "not found" state is what a visitor can reach.
    "/lti/deep-link/:id": ["/lti/deep-link/no-such-flow"],
    "/account": ["/account"],
    "/problems": ["/problems"],
    "/solve/:id": [`/solve/${d.problemId}`, `/solve/${d.problemId}?assignment=${d.assignmentId}`, `/solve/${d.problemId}?contest=${d.contestId}`],
    "/my-submissions": ["/my-submissions"],
    "/my-submissions/:problemId": [`/my-submissions/${d.problemId}`],
    "/admin": ["/admin"],
    "/courses": ["/courses"],
    "/join/:code": [`/join/${d.inviteCode}`],
    "/courses/:id/students/:userId/progress": [`/courses/${d.courseId}/students/${d.studentId}/progress`],
    "/courses/:id/settings": [`/courses/${d.courseId}/settings`],
    "/courses/:id/regrades": [`/courses/${d.courseId}/regrades`],
    "/courses/:id/assignments/new": [`/courses/${d.courseId}/assignments/new`],
    "/courses/:id": [`/courses/${d.courseId}`],
    "/assignments/:id/edit": [`/assignments/${d.assignmentId}/edit`],
    "/assignments/:id/similarity": [`/assignments/${d.assignmentId}/similarity`],
    "/contests/:id/similarity": [`/contests/${d.contestId}/similarity`],
    "/similarity/:reportId/pairs/:pairId": [`${sim}/pairs/${d.pairId}`],
    "/similarity/:reportId": [sim],
    "/assignments/:id/gradebook": [`/assignments/${d.assignmentId}/gradebook`],
    "/assignments/:id/rubrics": [`/assignments/${d.assignmentId}/rubrics`],
    "/submissions/:id/review": [`/submissions/${d.reviewSubmissionId}/review`],
    "/assignments/:id/analytics": [`/assignments/${d.assignmentId}/analytics`],
    "/assignments/:id": [`/assignments/${d.assignmentId}`],
    "/contests": ["/contests"],
    "/contests/new": ["/contests/new"],
    "/contests/:id/scoreboard": [`/contests/${d.contestId}/scoreboard`, `/contests/${d.contestId}/scoreboard?projector`],
    "/contests/:id/reveal": [`/contests/${d.contestId}/reveal`],
    "/contests/:id/balloons": [`/contests/${d.contestId}/balloons`],
    "/contests/:id": [`/contests/${d.contestId}`],
    "/progress": ["/progress"],
    "/notifications": ["/notifications"],
    // Opened from a notice e-mail: the page asks before it changes anything (the token is checked on the button).
    "/notifications/unsubscribe": ["/notifications/unsubscribe", "/notifications/unsubscribe?token=a11y-not-a-real-token"],
    "/u/:handle": [`/u/${d.studentHandle}`],
    "/about": ["/about"],
    "/contact": ["/contact"],
    "/privacy": ["/privacy"],
    "/terms": ["/terms"],
    "/accessibility": ["/accessibility"],
    // The catch-all route (no path): the not-found page.
    "*": ["/no-such-page"],
  };
}
