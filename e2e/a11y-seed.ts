/**
 * Real data for the accessibility tests (a11y.test.ts, keyboard.test.ts),
 * made through the server's REST doors (the same checks as the UI) on a test
 * server: a staff member (site admin, course owner, contest jury), two
 * students, a problem, a course with an assignment, a running contest with
 * both students registered, judged submissions (practice, assignment,
 * contest; Accepted and Wrong Answer, judged by the real sandbox) and a
 * finished similarity report with a pair. Only the staff member's site role
 * and course-creation right are written to the database (what
 * `bun run admin grant` does).
 */
import { createClient } from "@libsql/client";
import { PY_MERGE, PY_MERGE_DISGUISED } from "../tests/fixtures/similarity.ts";
import type { TestServer } from "./harness.ts";

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  token: string;
}

export interface Seeded {
  staff: Person;
  student: Person;
  /** The student's user id, and the handle of their public profile (/u/:handle). */
  studentId: string;
  studentHandle: string;
  problemId: string;
  courseId: string;
  inviteCode: string;
  assignmentId: string;
  contestId: string;
  reportId: string;
  pairId: string;
  /** The student's assignment submission, with a released review and an open regrade request (issue 37 §4–5). */
  reviewSubmissionId: string;
}

export const PY_AC = "a, b = map(int, input().split())\nprint(a + b)\n";
export const PY_WA = "a, b = map(int, input().split())\nprint(a - b)\n";

/**
 * Calls the REST API; returns the status and the JSON body.
 * @throws Error with the path, status and body when the status is not `expect`.
 */
export async function api(server: TestServer, path: string, init: { method?: string; body?: unknown; token?: string; expect?: number } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await res.json().catch(() => null)) as any;
  if (init.expect !== undefined && res.status !== init.expect) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return { status: res.status, body };
}

/** Registers a person and signs them in (their bearer token). */
export async function signUp(server: TestServer, p: Omit<Person, "token">): Promise<Person> {
  await api(server, "/api/auth/register", { method: "POST", body: p, expect: 200 });
  const login = await api(server, "/api/auth/login", { method: "POST", body: { email: p.email, password: p.password }, expect: 200 });
  return { ...p, token: login.body.token as string };
}

/** Waits until a submission is judged (polling the owner's history of the problem). */
async function judged(server: TestServer, token: string, problemId: string, count: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const list = await api(server, `/api/submissions/${problemId}`, { token, expect: 200 });
    const subs = (Array.isArray(list.body) ? list.body : (list.body.submissions ?? [])) as { status: string }[];
    if (subs.length >= count && subs.every((s) => s.status === "done")) return;
    if (Date.now() > deadline) throw new Error(`submissions not judged in 90 s: ${JSON.stringify(list.body).slice(0, 400)}`);
    await Bun.sleep(500);
  }
}

/** Seeds everything (see the file's docstring); about half a minute with the real judge. */
export async function seed(server: TestServer): Promise<Seeded> {
  const staff = await signUp(server, { firstName: "Sam", lastName: "Staff", email: "staff@uni.example", password: "staff-password-1" });
  const db = createClient({ url: server.databaseUrl });
  await db.execute({ sql: "UPDATE users SET site_role = 'admin', can_create_courses = 1 WHERE email_normalized = ?", args: [staff.email] });
  db.close();
  const student = await signUp(server, { firstName: "Stella", lastName: "Student", email: "stella@uni.example", password: "student-password-1" });
  const other = await signUp(server, { firstName: "Otto", lastName: "Other", email: "otto@uni.example", password: "student-password-2" });
  const studentId = (await api(server, "/api/auth/me", { token: student.token, expect: 200 })).body.user.id as string;
  const studentHandle = "stella";
  await api(server, "/trpc/account.setProfile", { method: "POST", token: student.token, body: { handle: studentHandle, profilePublic: true }, expect: 200 });

  const problem = await api(server, "/api/problems", {
    method: "POST",
    token: staff.token,
    expect: 201,
    body: {
      title: "Sum of Two Numbers",
      description: "Print the sum of **a** and **b**.",
      inputFormat: "Two integers a and b on one line.",
      outputFormat: "Their sum.",
      constraints: "-1000 <= a, b <= 1000",
      sampleInput: "1 2\n",
      sampleOutput: "3\n",
      difficulty: "easy",
      hiddenTestCases: [
        { input: "2 3\n", expectedOutput: "5\n" },
        { input: "-4 4\n", expectedOutput: "0\n" },
      ],
    },
  });
  const problemId = (problem.body._id ?? problem.body.id) as string;

  const course = await api(server, "/api/courses", { method: "POST", token: staff.token, expect: 201, body: { title: "Algorithms", code: "ALG101", term: "Autumn 2026" } });
  const courseId = course.body.id as string;
  const inviteCode = course.body.inviteCode as string;
  for (const s of [student, other]) await api(server, "/api/courses/join", { method: "POST", token: s.token, body: { code: inviteCode }, expect: 200 });
  const assignment = await api(server, `/api/courses/${courseId}/assignments`, {
    method: "POST",
    token: staff.token,
    body: { title: "Week 1: warm-up", opensAt: Date.now() - 86_400_000, dueAt: Date.now() + 7 * 86_400_000, problems: [{ problemId, points: 100 }] },
  });
  if (assignment.status >= 300) throw new Error(`assignment: ${assignment.status} ${JSON.stringify(assignment.body)}`);
  const assignmentId = assignment.body.id as string;

  const contest = await api(server, "/api/contests", {
    method: "POST",
    token: staff.token,
    expect: 201,
    body: { title: "Campus Qualifier", shortName: "campus26", startsAt: Date.now() + 4_000, durationMinutes: 600, scoring: "icpc", registration: "open", problems: [{ problemId, label: "A", color: "#1e90ff" }] },
  });
  const contestId = (contest.body.shortName ?? contest.body.id) as string;
  for (const s of [student, other]) await api(server, `/api/contests/${contestId}/register`, { method: "POST", token: s.token, body: {}, expect: 201 });
  await api(server, `/api/contests/${contestId}/clarifications`, { method: "POST", token: student.token, body: { text: "May a be negative?" }, expect: 201 });

  // Practice, assignment and contest submissions, judged by the real sandbox.
  await api(server, "/api/submissions", { method: "POST", token: student.token, body: { problemId, language: "py", code: PY_WA } });
  // Two near-copies in the assignment (a merge sort and its disguised copy), so the similarity report has a pair.
  await api(server, `/api/assignments/${assignmentId}/submissions`, { method: "POST", token: student.token, body: { problemId, language: "py", code: PY_MERGE } });
  await api(server, `/api/assignments/${assignmentId}/submissions`, { method: "POST", token: other.token, body: { problemId, language: "py", code: PY_MERGE_DISGUISED } });
  await judged(server, student.token, problemId, 2);
  await judged(server, other.token, problemId, 1);
  const wait = contest.body.startsAt ? new Date(contest.body.startsAt).getTime() - Date.now() : 4_000;
  if (wait > 0) await Bun.sleep(wait + 250);
  await api(server, `/api/contests/${contestId}/submissions`, { method: "POST", token: student.token, body: { problemId, language: "py", code: PY_AC } });
  await judged(server, student.token, problemId, 3);

  await api(server, `/api/assignments/${assignmentId}/similarity`, { method: "POST", token: staff.token, body: {}, expect: 202 });
  let reportId = "";
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = await api(server, `/api/assignments/${assignmentId}/similarity`, { token: staff.token, expect: 200 });
    const reports = (Array.isArray(list.body) ? list.body : (list.body.reports ?? [])) as { id: string; status: string }[];
    const done = reports.find((r) => r.status === "done");
    if (done) {
      reportId = done.id;
      break;
    }
    if (Date.now() > deadline) throw new Error(`similarity report not done in 60 s: ${JSON.stringify(list.body).slice(0, 400)}`);
    await Bun.sleep(500);
  }
  const report = await api(server, `/api/similarity/${reportId}`, { token: staff.token, expect: 200 });
  const pairId = (report.body.result?.pairs?.[0]?.id ?? "") as string;
  if (!pairId) throw new Error(`similarity report without a pair: ${JSON.stringify(report.body).slice(0, 400)}`);
  const reviewSubmissionId = await seedReview(server, staff, student, problemId, assignmentId);
  return { staff, student, studentId, studentHandle, problemId, courseId, inviteCode, assignmentId, contestId, reportId, pairId, reviewSubmissionId };
}

/** The review's seeded words (user content: rubric items, a comment, a reason), never translated. */
export const REVIEW_WORDS = ["No comment explains the merge", "Clear names", "Explain why this loop ends.", "The merge is explained in the statement's words."];

/** A rubric, a released review of the student's assignment submission with a line comment, and their regrade request. */
async function seedReview(server: TestServer, staff: Person, student: Person, problemId: string, assignmentId: string): Promise<string> {
  const history = await api(server, `/api/submissions/${problemId}`, { token: student.token, expect: 200 });
  const subs = (Array.isArray(history.body) ? history.body : history.body.submissions) as { _id: string; assignmentId: string | null }[];
  const id = subs.find((s) => s.assignmentId === assignmentId)!._id;
  const rubric = await api(server, `/api/assignments/${assignmentId}/problems/${problemId}/rubric`, {
    method: "PUT",
    token: staff.token,
    body: { mode: "add", items: [{ points: -5, description: REVIEW_WORDS[0] }, { points: 2, description: REVIEW_WORDS[1] }] },
    expect: 200,
  });
  await api(server, `/api/courses/${(await api(server, `/api/assignments/${assignmentId}`, { token: staff.token })).body.courseId}/comment-bank`, { method: "POST", token: staff.token, body: { text: REVIEW_WORDS[2] }, expect: 201 });
  const itemIds = [rubric.body.items[0].id as string];
  await api(server, `/api/submissions/${id}/review`, { method: "PUT", token: staff.token, body: { itemIds, comments: [{ line: 1, text: REVIEW_WORDS[2] }], release: true }, expect: 200 });
  await api(server, `/api/submissions/${id}/regrade-requests`, { method: "POST", token: student.token, body: { reason: REVIEW_WORDS[3] }, expect: 201 });
  return id;
}
