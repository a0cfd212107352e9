/**
 * Similarity reports through the REST doors, on a real libSQL file: an
 * assignment whose students' judged submissions include a disguised copy,
 * the report computed in the background (a real worker), the copy on top
 * with its fragments, starter code ignored, a mark kept across re-runs, the
 * CSV, the gradebook's flag, reuse and staleness, a report left running by a
 * stopped process computed at the next start, a contest's report for its
 * jury, and who may see any of it (students, teams and outsiders never).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { newId } from "../../db/ids.ts";
import { assignmentProblems, assignments, courseMembers, problems, similarityReports, submissions, users } from "../../db/schema.ts";
import { recomputeAssignment } from "../courses/scores.ts";
import { request } from "../../tests/api.ts";
import { courseApp, trpcQuery, world, type CourseApp, type World } from "../../tests/courses/fixtures.ts";
import { problemBody, problemRow } from "../../tests/fixtures/problem.ts";
import * as F from "../../tests/fixtures/similarity.ts";
import { resumeSimilarityJobs, similarityJobsFor } from "./jobs.ts";
import { recordPastes } from "./pastes.ts";

let a: CourseApp;
let w: World;
let assignmentId: string;
let problemId: string;
const student: Record<string, string> = {}; // name → user id
const submission: Record<string, string> = {}; // name → submission id

const OPENS = Date.parse("2026-10-01T00:00:00Z");
/** The students' programs: Cleo's is a disguised copy of Ada's, made later; every one starts with the instructor's starter code. */
const PROGRAMS: [string, string][] = [
  ["Ada", F.PY_MERGE],
  ["Ben", F.PY_FENWICK],
  ["Dan", F.PY_BRUTE],
  ["Eve", F.PY_BOTTOM_UP],
  ["Cleo", F.PY_MERGE_DISGUISED],
];
const STARTER = "import sys\n\ndef read_ints():\n    return list(map(int, sys.stdin.read().split()))\n\ndef debug(*args):\n    print(*args, file=sys.stderr)\n\n";

const idle = () => similarityJobsFor(a.t.services.db).idle();
const post = (token: string | null, body: unknown, id = assignmentId) => request(a.app, "POST", `/api/assignments/${id}/similarity`, { ...(token ? { token } : {}), body });
const get = (token: string | null, path: string) => request(a.app, "GET", path, token ? { token } : {});

beforeAll(async () => {
  a = await courseApp();
  a.clock.set(OPENS + 5 * 86_400_000);
  w = await world(a);
  const db = a.t.services.db;
  problemId = newId();
  await db.insert(problems).values(problemRow(w.owner.id, { id: problemId, title: "Inversions", courseId: w.courseId }));
  assignmentId = newId();
  await db.insert(assignments).values({ id: assignmentId, courseId: w.courseId, title: "Week 3", opensAt: new Date(OPENS), dueAt: new Date(OPENS + 7 * 86_400_000), feedback: "tests" });
  await db.insert(assignmentProblems).values({ assignmentId, problemId, ordinal: 0, points: 100 });
  for (const [i, [name, code]] of PROGRAMS.entries()) {
    const id = newId();
    student[name] = id;
    await db.insert(users).values({ id, firstName: name, lastName: "Student", email: `${name}@sim.example`, emailNormalized: `${name.toLowerCase()}@sim.example` });
    await db.insert(courseMembers).values({ courseId: w.courseId, userId: id, role: "student" });
    // A first wrong attempt, then the program (AC), in the order of the list.
    await db.insert(submissions).values({ userId: id, problemId, assignmentId, language: "py", code: "print(0)\n", status: "done", verdict: "WA", createdAt: new Date(OPENS + i * 3_600_000) });
    const [row] = await db
      .insert(submissions)
      .values({ userId: id, problemId, assignmentId, language: "py", code: STARTER + code, status: "done", verdict: "AC", isPassed: true, createdAt: new Date(OPENS + i * 3_600_000 + 60_000) })
      .returning({ id: submissions.id });
    submission[name] = row!.id;
  }
  await recomputeAssignment(db, assignmentId);
}, 60_000);

afterAll(async () => {
  await idle();
  await a?.close();
});

let reportId: string;
let copyPairId: string;

describe("an assignment's report", () => {
  test("asked for: 202 with an id at once; computed in the background; the disguised copy on top", async () => {
    const asked = await post(w.instructor.token, { starterCode: [{ language: "py", code: STARTER }] });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ status: "queued", reused: false });
    reportId = asked.body.reportId;
    await idle();
    const r = await get(w.instructor.token, `/api/similarity/${reportId}`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("done");
    expect(r.body.progress).toBe(1);
    expect(r.body.stale).toBe(false);
    expect(r.body.programs.map((p: any) => p.owner.name)).toEqual(PROGRAMS.map(([n]) => `${n} Student`));
    expect(r.body.programs.map((p: any) => p.submissionId)).toEqual(PROGRAMS.map(([n]) => submission[n]!));
    const res = r.body.result;
    expect(res.pairsTotal).toBe(10);
    const top = res.pairs[0];
    expect([top.left, top.right]).toEqual([submission.Ada, submission.Cleo]);
    expect(top.similarity).toBeGreaterThan(0.6);
    expect(top.similarity - res.pairs[1].similarity).toBeGreaterThan(0.25);
    copyPairId = top.id;
    expect(copyPairId).toBe(`${submission.Ada}-${submission.Cleo}`);
    expect(res.histogram.reduce((s: number, n: number) => s + n, 0)).toBe(10);
    expect(res.threshold).toBeGreaterThanOrEqual(res.mean);
    expect(res.clusters).toEqual([[submission.Ada, submission.Cleo].sort()]);
    expect(res.best[submission.Cleo!]).toMatchObject({ with: submission.Ada });
    expect(res.groups).toEqual([{ grammar: "python", problemId, languages: ["py"], programs: 5 }]);
    expect(JSON.stringify(r.body)).not.toContain("ignoredHashes");
  });

  test("the starter code is ignored: without it, independent programs look alike", async () => {
    const blind = await post(w.instructor.token, {});
    expect(blind.body.reused).toBe(false);
    await idle();
    const r = (await get(w.instructor.token, `/api/similarity/${blind.body.reportId}`)).body.result;
    const told = (await get(w.instructor.token, `/api/similarity/${reportId}`)).body.result;
    const benDan = (res: any) => res.pairs.find((p: any) => p.left === submission.Ben && p.right === submission.Dan).similarity;
    expect(benDan(r)).toBeGreaterThan(benDan(told) + 0.1);
  });

  test("a pair side by side: both programs, fragments on the copied code, the starter code not among them", async () => {
    const r = await get(w.ta.token, `/api/similarity/${reportId}/pairs/${copyPairId}`);
    expect(r.status).toBe(200);
    expect(r.body.left).toMatchObject({ submissionId: submission.Ada, owner: { name: "Ada Student" }, code: STARTER + F.PY_MERGE });
    expect(r.body.right.submissionId).toBe(submission.Cleo);
    expect(r.body.fragments.length).toBeGreaterThan(0);
    // No fragment lies inside the starter code (one may begin in its last lines: a k-gram across the seam).
    const starterRows = STARTER.split("\n").length - 1;
    for (const f of r.body.fragments) {
      expect(f.left.endRow).toBeGreaterThanOrEqual(starterRows);
      expect(f.right.endRow).toBeGreaterThanOrEqual(starterRows);
    }
    // The merge loop (`while i < len(left) and j < len(right):`) is inside a fragment on the left.
    const loopRow = (STARTER + F.PY_MERGE).split("\n").findIndex((l) => l.includes("while i < len(left)"));
    expect(r.body.fragments.some((f: any) => f.left.startRow <= loopRow && f.left.endRow >= loopRow)).toBe(true);
    const bad = await get(w.ta.token, `/api/similarity/${reportId}/pairs/${submission.Ada}-${newId()}`);
    expect([bad.status, bad.body.code]).toEqual([404, "SIMILARITY_PAIR_NOT_FOUND"]);
    const malformed = await get(w.ta.token, `/api/similarity/${reportId}/pairs/nope`);
    expect(malformed.status).toBe(400);
  });

  test("a mark with a note is kept, shown in the report, the CSV and the gradebook's flags", async () => {
    const marked = await request(a.app, "PUT", `/api/similarity/${reportId}/pairs/${copyPairId}/mark`, { token: w.instructor.token, body: { status: "flagged", note: "Same merge, renamed." } });
    expect(marked.status).toBe(200);
    expect(marked.body.mark).toMatchObject({ status: "flagged", note: "Same merge, renamed." });
    const bad = await request(a.app, "PUT", `/api/similarity/${reportId}/pairs/${copyPairId}/mark`, { token: w.instructor.token, body: { status: "guilty" } });
    expect([bad.status, bad.body.field]).toEqual([400, "status"]);
    const r = (await get(w.instructor.token, `/api/similarity/${reportId}`)).body.result;
    expect(r.pairs[0].mark).toMatchObject({ status: "flagged", note: "Same merge, renamed." });
    const csv = await get(w.instructor.token, `/api/similarity/${reportId}/pairs.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = String(csv.body).trim().split("\n");
    expect(lines[0]).toBe("rank,left,left_submission,right,right_submission,problem,language,similarity,overlap,longest_fragment,mark,note");
    expect(lines[1]).toStartWith(`1,Ada Student,${submission.Ada},Cleo Student,${submission.Cleo},1. Inversions,py,`);
    expect(lines[1]).toEndWith(",flagged,\"Same merge, renamed.\"");
    expect(lines.length).toBe(11);
    // In the teacher's language: the labels and the mark's word; names, ids, numbers and the note as in English.
    const de = String((await request(a.app, "GET", `/api/similarity/${reportId}/pairs.csv`, { token: w.instructor.token, headers: { "accept-language": "de" } })).body).trim().split("\n");
    expect(de[0]).toBe("Rang,Links,Einsendung links,Rechts,Einsendung rechts,Aufgabe,Sprache,Ähnlichkeit,Überschneidung,Längstes Fragment,Markierung,Notiz");
    expect(de.slice(1)).toEqual(lines.slice(1).map((l) => l.replace(",flagged,", ",gemeldet,")));
    const flags = await trpcQuery(a.app, w.ta.token, "similarity.flags", { assignmentId });
    expect(flags.data.map((f: any) => f.userId).sort()).toEqual([student.Ada, student.Cleo].sort());
    expect(flags.data[0]).toMatchObject({ problemId, reportId, pairId: copyPairId });
  });

  test("asked again for the same submissions: the same report; after a new submission: stale, and a new report keeps the mark", async () => {
    const again = await post(w.owner.token, { starterCode: [{ language: "py", code: STARTER }] });
    expect(again.body).toMatchObject({ reportId, reused: true, status: "done" });
    // Dan submits again (last counted changes; his best, the gradebook's, is his AC and stays).
    const db = a.t.services.db;
    await db.insert(submissions).values({ userId: student.Dan!, problemId, assignmentId, language: "py", code: STARTER + F.PY_MERGE_DISGUISED.replace("entry()", "entry()\n"), status: "done", verdict: "AC", isPassed: true, createdAt: new Date(OPENS + 4 * 86_400_000) });
    await recomputeAssignment(db, assignmentId);
    const last = await post(w.owner.token, { pick: "last", starterCode: [{ language: "py", code: STARTER }] });
    expect(last.body.reused).toBe(false);
    await idle();
    const r = (await get(w.owner.token, `/api/similarity/${last.body.reportId}`)).body;
    expect(r.options.pick).toBe("last");
    const top3 = r.result.pairs.slice(0, 3).map((p: any) => p.id);
    expect(top3).toContain(copyPairId);
    expect(r.result.pairs.find((p: any) => p.id === copyPairId).mark).toMatchObject({ status: "flagged" });
    expect(r.result.clusters[0].length).toBe(3); // Ada, Cleo and Dan's new copy
    const list = await get(w.ta.token, `/api/assignments/${assignmentId}/similarity`);
    expect(list.body.length).toBe(3);
    expect(list.body[0].id).toBe(last.body.reportId);
  });

  test("a problem outside the assignment is refused, naming problemId; unknown fields are refused", async () => {
    const r = await post(w.instructor.token, { problemId: newId() });
    expect([r.status, r.body.field]).toEqual([400, "problemId"]);
    const extra = await post(w.instructor.token, { threshold: 0.5 });
    expect(extra.status).toBe(400);
    const share = await post(w.instructor.token, { maxShare: 0 });
    expect([share.status, share.body.field]).toEqual([400, "maxShare"]);
  });

  test("a report left running by a stopped process is computed at the next start", async () => {
    const db = a.t.services.db;
    const [row] = await db.select().from(similarityReports).where(eq(similarityReports.id, reportId));
    const id = newId();
    await db.insert(similarityReports).values({ ...row!, id, setKey: "left-behind", status: "running", progress: 0.4, result: null, finishedAt: null });
    expect(await resumeSimilarityJobs(db)).toBe(1);
    await idle();
    const r = (await get(w.instructor.token, `/api/similarity/${id}`)).body;
    expect(r.status).toBe("done");
    expect(r.result.pairs[0].id).toBe(copyPairId);
  });
});

describe("earlier offerings", () => {
  test("compared for whoever asked; a reader who does not review that offering sees none of its students or code", async () => {
    const db = a.t.services.db;
    const other = await request(a.app, "POST", "/api/courses", { token: w.owner.token, body: { title: "Algorithms (last year)", code: "ALG-OLD", term: "Autumn 2025" } });
    expect(other.status).toBe(201);
    const oldAssignment = newId();
    await db.insert(assignments).values({ id: oldAssignment, courseId: other.body.id, title: "Week 3 (2025)", opensAt: new Date(OPENS - 365 * 86_400_000), feedback: "tests" });
    await db.insert(assignmentProblems).values({ assignmentId: oldAssignment, problemId, ordinal: 0, points: 100 });
    const alumnus = newId();
    await db.insert(users).values({ id: alumnus, firstName: "Old", lastName: "Timer", email: "old@sim.example", emailNormalized: "old@sim.example" });
    await db.insert(courseMembers).values({ courseId: other.body.id, userId: alumnus, role: "student" });
    const [old] = await db
      .insert(submissions)
      .values({ userId: alumnus, problemId, assignmentId: oldAssignment, language: "py", code: STARTER + F.PY_MERGE, status: "done", verdict: "AC", isPassed: true, createdAt: new Date(OPENS - 360 * 86_400_000) })
      .returning({ id: submissions.id });
    const asked = await post(w.owner.token, { against: "past", starterCode: [{ language: "py", code: STARTER }] });
    expect(asked.status).toBe(202);
    await idle();
    const owner = (await get(w.owner.token, `/api/similarity/${asked.body.reportId}`)).body;
    expect(owner.programs.find((p: any) => p.submissionId === old!.id)).toMatchObject({ owner: { name: "Old Timer" }, past: { kind: "assignment", id: oldAssignment } });
    const pastPair = owner.result.pairs.find((p: any) => p.left === old!.id);
    expect(pastPair).toBeDefined();
    // The TA reviews this course only: the other course's student, program and pairs are not there for them.
    const ta = (await get(w.ta.token, `/api/similarity/${asked.body.reportId}`)).body;
    expect(JSON.stringify(ta)).not.toContain(old!.id);
    expect(JSON.stringify(ta)).not.toContain("Old Timer");
    expect(ta.stale).toBe(false);
    const pair = await get(w.ta.token, `/api/similarity/${asked.body.reportId}/pairs/${pastPair.id}`);
    expect([pair.status, pair.body.code]).toEqual([404, "SIMILARITY_PAIR_NOT_FOUND"]);
    const mark = await request(a.app, "PUT", `/api/similarity/${asked.body.reportId}/pairs/${pastPair.id}/mark`, { token: w.ta.token, body: { status: "flagged" } });
    expect(mark.status).toBe(404);
    expect((await get(w.owner.token, `/api/similarity/${asked.body.reportId}/pairs/${pastPair.id}`)).body.left.code).toBe(STARTER + F.PY_MERGE);
  });
});

describe("the paste record", () => {
  test("off by default: nothing is kept; turned on by a teacher (not a student), sizes and times show beside the pair", async () => {
    const db = a.t.services.db;
    const events = [{ atMs: OPENS + 3_000, chars: 1200 }, { atMs: OPENS + 1_000, chars: 450 }];
    expect(await recordPastes(db, submission.Cleo!, events)).toBe(false);
    const refused = await request(a.app, "PATCH", `/api/courses/${w.courseId}`, { token: w.student.token, body: { recordPastes: true } });
    expect(refused.status).toBe(403);
    const bad = await request(a.app, "PATCH", `/api/courses/${w.courseId}`, { token: w.owner.token, body: { recordPastes: "yes" } });
    expect([bad.status, bad.body.field]).toEqual([400, "recordPastes"]);
    const on = await request(a.app, "PATCH", `/api/courses/${w.courseId}`, { token: w.owner.token, body: { recordPastes: true } });
    expect([on.status, on.body.recordPastes]).toEqual([200, true]);
    expect((await request(a.app, "GET", `/api/courses/${w.courseId}`, { token: w.student.token })).body.recordPastes).toBe(true);
    expect(await recordPastes(db, submission.Cleo!, events)).toBe(true);
    const pair = await get(w.instructor.token, `/api/similarity/${reportId}/pairs/${copyPairId}`);
    expect(pair.body.right.pastes).toEqual([events[1], events[0]]);
    expect(pair.body.left.pastes).toBeNull();
    expect(JSON.stringify(pair.body.right.pastes)).not.toContain("def ");
  });
});

describe("who may see reports", () => {
  test("staff and admins may; students, outsiders and the signed-out never, at any door", async () => {
    const doors = (token: string | null) => [
      post(token, {}),
      get(token, `/api/assignments/${assignmentId}/similarity`),
      get(token, `/api/similarity/${reportId}`),
      get(token, `/api/similarity/${reportId}/pairs/${copyPairId}`),
      get(token, `/api/similarity/${reportId}/pairs.csv`),
      request(a.app, "PUT", `/api/similarity/${reportId}/pairs/${copyPairId}/mark`, { ...(token ? { token } : {}), body: { status: "dismissed" } }),
      trpcQuery(a.app, token, "similarity.flags", { assignmentId }),
    ];
    const statuses = async (token: string | null) => (await Promise.all(doors(token))).map((r: any) => r.status);
    expect(await statuses(w.student.token)).toEqual([403, 403, 404, 404, 404, 404, 403]);
    expect(await statuses(w.outsider.token)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(await statuses(null)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    // Put the mark back as the instructor left it before staff run the doors (the PUT above would change it).
    const staff = async (token: string) => {
      const s = await statuses(token);
      await request(a.app, "PUT", `/api/similarity/${reportId}/pairs/${copyPairId}/mark`, { token: w.instructor.token, body: { status: "flagged", note: "Same merge, renamed." } });
      return s;
    };
    for (const p of [w.ta, w.instructor, w.owner, w.admin]) expect(await staff(p.token)).toEqual([202, 200, 200, 200, 200, 200, 200]);
    await idle();
    // A student's own submission list and views carry nothing of it.
    const own = await get(w.student.token, `/api/assignments/${assignmentId}`);
    expect(JSON.stringify(own.body)).not.toContain("similar");
  });
});

describe("a contest's report", () => {
  test("its jury runs it on the teams' programs; participants, the public and the signed-out may not", async () => {
    const publicProblem = (await request(a.app, "POST", "/api/problems", { token: w.owner.token, body: problemBody({ title: "Inversions (open)" }) })).body._id;
    const created = await request(a.app, "POST", "/api/contests", {
      token: w.owner.token,
      body: { title: "Autumn Open", shortName: "autumn26", startsAt: "2026-10-10T09:00:00Z", durationMinutes: 120, scoring: "icpc", registration: "open", problems: [{ problemId: publicProblem, label: "A" }] },
    });
    expect(created.status).toBe(201);
    const contestId = created.body.id;
    const teams: string[] = [];
    for (const [p, name] of [[w.student, "Owls"], [w.student2, "Foxes"], [w.outsider, "Bees"]] as const) {
      const reg = await request(a.app, "POST", `/api/contests/${contestId}/register`, { token: p.token, body: { teamName: name } });
      expect(reg.status).toBe(201);
      teams.push(reg.body.team.id);
    }
    const db = a.t.services.db;
    const codes = [F.CPP_MERGE, F.CPP_FENWICK, F.CPP_MERGE_DISGUISED];
    const users_ = [w.student, w.student2, w.outsider];
    for (let i = 0; i < 3; i++) {
      await db.insert(submissions).values({ userId: users_[i]!.id, problemId: publicProblem, contestId, teamId: teams[i]!, language: "cpp", code: codes[i]!, status: "done", verdict: "AC", isPassed: true, createdAt: new Date(Date.parse("2026-10-10T09:10:00Z") + i * 60_000) });
    }
    const asked = await request(a.app, "POST", `/api/contests/${contestId}/similarity`, { token: w.owner.token, body: {} });
    expect(asked.status).toBe(202);
    await idle();
    const r = (await get(w.owner.token, `/api/similarity/${asked.body.reportId}`)).body;
    expect(r.scope).toMatchObject({ kind: "contest", id: contestId, title: "Autumn Open" });
    expect(r.programs.map((p: any) => p.owner)).toEqual([
      { kind: "team", id: teams[0], name: "Owls" },
      { kind: "team", id: teams[1], name: "Foxes" },
      { kind: "team", id: teams[2], name: "Bees" },
    ]);
    expect([r.result.pairs[0].left, r.result.pairs[0].right]).toEqual(r.programs.filter((_: any, i: number) => i !== 1).map((p: any) => p.submissionId));
    for (const [token, status] of [[w.student.token, 403], [w.outsider.token, 403], [null, 401]] as const) {
      const tried = await request(a.app, "POST", `/api/contests/${contestId}/similarity`, { ...(token ? { token } : {}), body: {} });
      expect(tried.status).toBe(status);
      expect((await get(token, `/api/similarity/${asked.body.reportId}`)).status).toBe(token ? 404 : 401);
    }
  });
});

describe("an assignment of two problems", () => {
  test("an all-problems report pairs solutions of the same problem only (decision 057)", async () => {
    const db = a.t.services.db;
    const second = newId();
    await db.insert(problems).values(problemRow(w.owner.id, { id: second, title: "Inversions again", courseId: w.courseId }));
    const twoProblems = newId();
    await db.insert(assignments).values({ id: twoProblems, courseId: w.courseId, title: "Week 4", opensAt: new Date(OPENS), dueAt: new Date(OPENS + 7 * 86_400_000), feedback: "tests" });
    await db.insert(assignmentProblems).values([
      { assignmentId: twoProblems, problemId, ordinal: 0, points: 100 },
      { assignmentId: twoProblems, problemId: second, ordinal: 1, points: 100 },
    ]);
    // Ada and Ben hand in the same program for both problems: without the rule, Ada's first would meet Ben's second (and her own).
    for (const [i, name] of ["Ada", "Ben"].entries()) {
      for (const [j, pid] of [problemId, second].entries()) {
        await db.insert(submissions).values({ userId: student[name]!, problemId: pid, assignmentId: twoProblems, language: "py", code: STARTER + F.PY_MERGE, status: "done", verdict: "AC", isPassed: true, createdAt: new Date(OPENS + (i * 2 + j) * 60_000) });
      }
    }
    await recomputeAssignment(db, twoProblems);
    const asked = await post(w.instructor.token, {}, twoProblems);
    expect(asked.status).toBe(202);
    await idle();
    const r = (await get(w.instructor.token, `/api/similarity/${asked.body.reportId}`)).body;
    expect(r.programs.length).toBe(4);
    const problemOf = new Map(r.programs.map((p: any) => [p.submissionId, p.problemId]));
    expect(r.result.pairsTotal).toBe(2);
    expect(r.result.pairs.length).toBe(2);
    for (const p of r.result.pairs) expect(problemOf.get(p.left)).toBe(problemOf.get(p.right));
    for (const [id, b] of Object.entries(r.result.best) as [string, { with: string }][]) expect(problemOf.get(b.with)).toBe(problemOf.get(id));
    expect(r.result.groups.map((g: any) => g.problemId).sort()).toEqual([problemId, second].sort());
  });
});
