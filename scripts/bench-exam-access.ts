/**
 * Benchmark (issue 37, Performance): what the exam access check costs a request.
 *
 * The real app over a real libSQL file (tests/services.ts), one course, two assignments with the same problem:
 * one without rules, one with every per-request rule on (20 address ranges, 3 Safe Exam Browser config keys,
 * one session, lock-down) and a timed window its student has started. The same route, GET /api/assignments/:id,
 * is asked `n` times in alternation: by the exam's student (inside the window, from a lab address, with a valid
 * SEB hash: every rule is checked and passes) and by a second student on the assignment without rules (the
 * lock-down guard's one query finds no window). The difference of the medians is the check's cost
 * (goal ≤ 0.5 ms per request).
 *
 * Usage: bun scripts/bench-exam-access.ts [n=2000] [--no-write]
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { sebHash } from "../src/courses/exam/rules.ts";
import { examGuard } from "../src/courses/exam/gate.ts";
import { setAccountByEmail } from "../src/accounts/admin.ts";
import { createTestServices } from "../tests/services.ts";
import { problemBody, request, signUp } from "../tests/api.ts";
import { median, ms, percentile, writeSection } from "./lib/bench-doc.ts";

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000);
const write = !args.includes("--no-write");
const ROOT = join(import.meta.dir, "..");
const HEADING = "## Exam access rules: the check's cost per request (scripts/bench-exam-access.ts)";
const KEYS = ["a", "b", "c"].map((c) => c.repeat(64));
const CIDRS = [...Array.from({ length: 19 }, (_, i) => `10.${i}.0.0/16`), "2001:db8::/48"];
const LAB = "10.18.2.3";

const t = await createTestServices();
const app = createApp(t.services);
const owner = await signUp(app, { firstName: "Owner" });
await setAccountByEmail(t.services.db, owner.email, { canCreateCourses: true });
const course = await request(app, "POST", "/api/courses", { token: owner.token, body: { title: "Bench", code: `B${Date.now() % 1e6}`, term: "T" } });
const problem = await request(app, "POST", "/api/problems", { token: owner.token, body: { ...problemBody(), courseId: course.body.id } });
const base = { opensAt: "2020-01-01T00:00:00Z", dueAt: "2099-01-01T00:00:00Z", problems: [{ problemId: problem.body._id, points: 100 }] };
const plain = await request(app, "POST", `/api/courses/${course.body.id}/assignments`, { token: owner.token, body: { ...base, title: "Plain" } });
const exam = await request(app, "POST", `/api/courses/${course.body.id}/assignments`, {
  token: owner.token,
  body: { ...base, title: "Exam", timeLimitMinutes: 600, accessCidrs: CIDRS, sebConfigKeys: KEYS, oneSession: true, lockDown: true },
});
if (plain.status !== 201 || exam.status !== 201) throw new Error(`setup: ${plain.status} ${exam.status} ${JSON.stringify(exam.body)}`);
const [examinee, other] = [await signUp(app, { firstName: "Examinee" }), await signUp(app, { firstName: "Other" })];
for (const s of [examinee, other]) await request(app, "POST", "/api/courses/join", { token: s.token, body: { code: course.body.inviteCode } });

const examPath = `/api/assignments/${exam.body.id}`;
const plainPath = `/api/assignments/${plain.body.id}`;
const headers = { "x-safeexambrowser-configkeyhash": sebHash(`http://localhost${examPath}`, KEYS[2]!) };
const started = await request(app, "POST", `${examPath}/start`, { token: examinee.token, peer: LAB, body: {}, headers: { "x-safeexambrowser-configkeyhash": sebHash(`http://localhost${examPath}/start`, KEYS[2]!) } });
if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);

async function once(path: string, token: string, h: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const r = await request(app, "GET", path, { token, peer: LAB, headers: h });
  const took = performance.now() - t0;
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return took;
}

for (let i = 0; i < 200; i++) {
  await once(examPath, examinee.token, headers);
  await once(plainPath, other.token, {});
}
const withRules: number[] = [];
const without: number[] = [];
for (let i = 0; i < n; i++) {
  withRules.push(await once(examPath, examinee.token, headers));
  without.push(await once(plainPath, other.token, {}));
}
// What every request pays even with no exam anywhere: the guard's one query finding no open window.
const guardOnly: number[] = [];
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  // The whole guard for a signed-in caller in no exam: every lock-down source (the assignment's and the contest's) asks.
  await examGuard({ db: t.services.db, user: { ...other.user, siteRole: "user" }, ip: "10.0.0.1", sessionId: null, url: () => "", sebHeader: null, path: "assignments.byId", nowMs: Date.now() }, async () => ({}));
  guardOnly.push(performance.now() - t0);
}
// The guard for the examinee inside their window (finds it and lets the exam's own page through), timed alone.
const guardExaminee: number[] = [];
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  await examGuard({ db: t.services.db, user: { ...examinee.user, siteRole: "user" }, ip: LAB, sessionId: null, url: () => "", sebHeader: null, path: "assignments.byId", nowMs: Date.now() }, async () => ({ id: exam.body.id }));
  guardExaminee.push(performance.now() - t0);
}
t.cleanup();

const [mw, mo] = [median(withRules), median(without)];
// Each pair is asked back to back, so the median of the pairs' differences is steadier on a loaded machine.
const cost = median(withRules.map((x, i) => x - without[i]!));
const section = `${HEADING}

GET /api/assignments/:id through the real app (Hono, tRPC caller, libSQL file), ${n} requests each, alternated after 200 warm-up pairs; ${process.platform}/${process.arch}, Bun ${Bun.version}, ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores (a shared machine: read the medians).

| route | median | p95 |
| --- | --- | --- |
| assignment with every per-request rule (20 CIDRs, 3 SEB keys, one session, lock-down; the student inside their window) | ${ms(mw)} | ${ms(percentile(withRules, 95))} |
| the same route, an assignment without rules (lock-down guard finds no window) | ${ms(mo)} | ${ms(percentile(without, 95))} |
| **the access check's cost** (median of the back-to-back pairs' differences; goal ≤ 0.5 ms) | **${ms(cost)}** | |
| difference of the two medians (for comparison) | ${ms(mw - mo)} | |
| the lock-down guard for the examinee inside their window (finds the window, lets the exam's page through; timed alone) | ${ms(median(guardExaminee))} | ${ms(percentile(guardExaminee, 95))} |
| the part every signed-in request pays, rules or not: the lock-down guard finding no window (one statement of two indexed EXISTS, the assignment kind and the contest kind, decision 081; timed alone) | ${ms(median(guardOnly))} | ${ms(percentile(guardOnly, 95))} |

The check's work: the lock-down guard's indexed queries of the caller's exam starts and contest entries (and, inside
a window, their extension and extra time), the address match against the ranges (parsed once per list), one SHA-256 per
configured key, and the one-session comparison (src/courses/exam/gate.ts).
`;
console.log(section);
if (write) writeSection(join(ROOT, "docs/benchmarks.md"), HEADING, section);
