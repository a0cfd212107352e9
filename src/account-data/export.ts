/**
 * "Give me my data" (issue 36, point 4; GDPR art. 15 and 20): everything of one user's as a zip of
 * JSON files and their source files, streamed as it is read.
 *
 * Layout (README.txt in the zip says the same):
 * - profile.json: the account (names, e-mail, language, handle, roles, created), its sign-in
 *   identities (provider, e-mail, last used) and its live sessions (browser, address, times);
 * - submissions.json: every submission (problem, language, verdict, score, tests, times, the
 *   course assignment or contest it counted for) and `submissions/<id>.<ext>`: its code;
 * - courses.json: course memberships (course, role, joined) and the user's own assignment scores;
 * - contests.json: contest teams the user is in, and clarifications the user wrote;
 * - problems.json: problems the user wrote (statement, limits; hidden tests are not included, they
 *   are exported with the problem's package export);
 * - ai-reviews.json: when the user asked for an AI review (the reviews themselves are cached by
 *   code, not by person: the code is in submissions/).
 * Submissions are read 500 at a time, so a user with many submissions never holds them all at once.
 */
import { Zip, ZipDeflate, strToU8 } from "fflate";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  aiRequests,
  assignments,
  assignmentScores,
  contestClarifications,
  contests,
  contestTeamMembers,
  contestTeams,
  courseMembers,
  courses,
  externalIdentities,
  problems,
  sessions,
  submissions,
  users,
} from "../../db/schema.ts";
import { getLanguage } from "../../isolate/languages/index.ts";
import { describeUserAgent } from "../auth/sessions-list.ts";
import { AppError } from "../errors.ts";
import type { RateLimiter } from "../lib/rate-limit.ts";

/** Submissions read per query. */
export const EXPORT_PAGE = 500;

const README = `Your data from CodeArena, as of {date}.

profile.json      your account, its sign-in identities and its sessions
submissions.json  every submission you made, with its verdict and score
submissions/      the code of each submission, one file per submission (named by its id)
courses.json      the courses you are in and your own assignment scores
contests.json     the contest teams you are in and the clarifications you wrote
problems.json     the problems you wrote (hidden tests are in each problem's package export)
ai-reviews.json   when you asked for an AI review

Times are ISO 8601 in UTC. Questions: see the site's privacy page.
`; // i18n-ignore: a file inside the export; its readers are people and programs alike, in English as the field names are

/** The file name of a submission's code: `<id>.<the language's first package extension>`. */
export function sourceFileName(id: string, language: string): string {
  let ext = "txt";
  try {
    ext = getLanguage(language).package.extensions[0] ?? "txt";
  } catch {
    // A language this server no longer offers: its code is still the user's.
  }
  return `submissions/${id}.${ext}`;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The zip of `userId`'s data, as a byte stream (the REST door sends it as a download).
 * @throws UNAUTHENTICATED (401) when the account does not exist.
 */
export async function exportAccountData(db: Database, userId: string, nowMs: number): Promise<ReadableStream<Uint8Array>> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("UNAUTHENTICATED");
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
      const add = (name: string, data: Uint8Array) => {
        const file = new ZipDeflate(name, { level: 6 });
        zip.add(file);
        file.push(data, true);
      };
      try {
        add("README.txt", strToU8(README.replace("{date}", new Date(nowMs).toISOString())));
        const [identities, live] = await Promise.all([
          db.select().from(externalIdentities).where(eq(externalIdentities.userId, userId)),
          db.select().from(sessions).where(eq(sessions.userId, userId)),
        ]);
        add(
          "profile.json",
          json({
            id: user.id,
            firstName: user.firstName,
            lastName: user.lastName,
            email: user.email,
            locale: user.locale,
            handle: user.handle,
            profilePublic: user.profilePublic,
            siteRole: user.siteRole,
            canCreateCourses: user.canCreateCourses,
            twoFactorSignIn: user.totpKey !== null,
            createdAt: iso(user.createdAt),
            identities: identities.map((i) => ({ provider: i.provider, email: i.email, createdAt: iso(i.createdAt), lastSignInAt: iso(i.lastSignInAt) })),
            sessions: live.map((s) => ({ device: describeUserAgent(s.userAgent), userAgent: s.userAgent, ip: s.ip, createdAt: iso(s.createdAt), lastSeenAt: iso(s.lastSeenAt), expiresAt: iso(s.expiresAt) })),
          }),
        );

        // Submissions, a page at a time (keyset on id), their code beside them.
        const list: unknown[] = [];
        const titles = new Map<string, string>();
        let after = "";
        for (;;) {
          const page = await db
            .select()
            .from(submissions)
            .where(and(eq(submissions.userId, userId), gt(submissions.id, after)))
            .orderBy(asc(submissions.id))
            .limit(EXPORT_PAGE);
          if (page.length === 0) break;
          const unknown = [...new Set(page.map((s) => s.problemId))].filter((id) => !titles.has(id));
          if (unknown.length > 0) for (const p of await db.select({ id: problems.id, title: problems.title }).from(problems).where(inArray(problems.id, unknown))) titles.set(p.id, p.title);
          for (const s of page) {
            const file = sourceFileName(s.id, s.language);
            add(file, strToU8(s.code));
            list.push({
              id: s.id,
              problemId: s.problemId,
              problemTitle: titles.get(s.problemId) ?? null,
              language: s.language,
              status: s.status,
              verdict: s.verdict,
              score: s.score,
              maxScore: s.maxScore,
              testsPassed: s.testsPassed,
              testsTotal: s.testsTotal,
              timeMs: s.timeMs,
              memoryKib: s.memoryKib,
              assignmentId: s.assignmentId,
              contestId: s.contestId,
              createdAt: iso(s.createdAt),
              judgedAt: iso(s.judgedAt),
              codeFile: file,
            });
          }
          after = page[page.length - 1]!.id;
          if (page.length < EXPORT_PAGE) break;
        }
        list.sort((a, b) => String((a as { createdAt: string }).createdAt).localeCompare(String((b as { createdAt: string }).createdAt)));
        add("submissions.json", json(list));

        const [memberships, scores, teams, clarifications, authored, reviews] = await Promise.all([
          db
            .select({ courseId: courses.id, title: courses.title, code: courses.code, term: courses.term, role: courseMembers.role, joinedAt: courseMembers.joinedAt })
            .from(courseMembers)
            .innerJoin(courses, eq(courses.id, courseMembers.courseId))
            .where(eq(courseMembers.userId, userId)),
          db
            .select({ assignmentId: assignmentScores.assignmentId, assignmentTitle: assignments.title, courseId: assignments.courseId, problemId: assignmentScores.problemId, score: assignmentScores.score, bestVerdict: assignmentScores.bestVerdict, attempts: assignmentScores.attempts, late: assignmentScores.late })
            .from(assignmentScores)
            .innerJoin(assignments, eq(assignments.id, assignmentScores.assignmentId))
            .where(eq(assignmentScores.userId, userId)),
          db
            .select({ contestId: contests.id, contest: contests.title, team: contestTeams.name })
            .from(contestTeamMembers)
            .innerJoin(contestTeams, eq(contestTeams.id, contestTeamMembers.teamId))
            .innerJoin(contests, eq(contests.id, contestTeams.contestId))
            .where(eq(contestTeamMembers.userId, userId)),
          db.select().from(contestClarifications).where(eq(contestClarifications.createdBy, userId)),
          db.select().from(problems).where(eq(problems.userId, userId)),
          db.select({ createdAt: aiRequests.createdAt }).from(aiRequests).where(eq(aiRequests.userId, userId)),
        ]);
        add("courses.json", json({ memberships: memberships.map((m) => ({ ...m, joinedAt: iso(m.joinedAt) })), assignmentScores: scores }));
        add(
          "contests.json",
          json({
            teams,
            clarifications: clarifications.map((c) => ({ id: c.id, contestId: c.contestId, problemId: c.problemId, replyToId: c.replyToId, text: c.text, createdAt: iso(c.createdAt) })),
          }),
        );
        add(
          "problems.json",
          json(
            authored.map((p) => ({
              id: p.id,
              title: p.title,
              description: p.description,
              inputFormat: p.inputFormat,
              outputFormat: p.outputFormat,
              constraints: p.constraints,
              sampleInput: p.sampleInput,
              sampleOutput: p.sampleOutput,
              difficulty: p.difficulty,
              timeLimitMs: p.timeLimitMs,
              memoryLimitKib: p.memoryLimitKib,
              courseId: p.courseId,
              createdAt: iso(p.createdAt),
              updatedAt: iso(p.updatedAt),
              deletedAt: iso(p.deletedAt),
            })),
          ),
        );
        add("ai-reviews.json", json({ requestedAt: reviews.map((r) => iso(r.createdAt)) }));
        zip.end();
      } catch (err) {
        controller.error(err);
      }
    },
  });
}

/** Exports per user per hour (each reads every submission of the account): GitHub allows one running at a time, a few a day. */
export const EXPORTS_PER_HOUR = 5;

/**
 * `exportAccountData` for `userId`, at most EXPORTS_PER_HOUR times an hour (`limiter`: Limiters.exportsByUser).
 * @throws RATE_LIMITED (429, with retryAfterSeconds).
 */
export async function exportAccountDataLimited(db: Database, limiter: RateLimiter, userId: string, nowMs: number): Promise<ReadableStream<Uint8Array>> {
  const decision = limiter.hit(userId);
  if (!decision.ok) throw new AppError("RATE_LIMITED", { retryAfterSeconds: decision.retryAfterSeconds });
  return exportAccountData(db, userId, nowMs);
}
