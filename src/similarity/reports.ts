/**
 * Similarity reports as the doors see them: asking for one (answered at once
 * with its id; computed by ./jobs.ts), reading it, reading one pair side by
 * side with its fragments, marking a pair, exporting the pairs as CSV, and
 * the flagged students an assignment's gradebook links to the pair.
 * Every operation goes through ./scope.ts (`similarity.review`); a report is
 * "not found" to anyone who may not review its scope.
 */
import { createHash } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import { answerText } from "../i18n/answers.ts";
import type { LocaleTag } from "../i18n/locales.ts";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { similarityMarks, similarityReports, submissionPastes, submissions } from "../../db/schema.ts";
import { LANGUAGE_IDS } from "../../isolate/languages/index.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { idField } from "../lib/fields.ts";
import { DEFAULT_ENGINE, grammarsFor, pairFragments, type FragmentView, type PairSummary } from "./engine.ts";
import { similarityJobsFor, templatesOf } from "./jobs.ts";
import { pairIdOf, type StoredInput, type StoredResult } from "./result.ts";
import { requireScope, scopeProblem, type Scope, type ScopeKind } from "./scope.ts";
import { selectPrograms, type ProgramMeta } from "./selection.ts";
import { clusters } from "./threshold.ts";

/** Unfinished reports one user may have at a time (each is minutes of CPU at worst). */
export const UNFINISHED_PER_USER = 3;
/** Largest starter code, bytes per language. */
export const STARTER_CODE_MAX_BYTES = 64 * 1024;
/** Longest note on a mark, characters. */
export const MARK_NOTE_MAX = 2000;

export const reportRequestInput = z
  .object({
    problemId: idField().optional(),
    pick: z.enum(["best", "last"]).default("best"),
    against: z.enum(["none", "past"]).default("none"),
    crossLanguage: z.boolean().default(false),
    starterCode: z
      .array(z.object({ language: z.enum(LANGUAGE_IDS), code: z.string().min(1).max(STARTER_CODE_MAX_BYTES) }).strict())
      .max(LANGUAGE_IDS.length)
      .default([]),
    kgramLength: z.number().int().min(5).max(60).default(DEFAULT_ENGINE.kgramLength),
    windowLength: z.number().int().min(1).max(60).default(DEFAULT_ENGINE.windowLength),
    maxShare: z.number().gt(0).max(1).default(DEFAULT_ENGINE.maxShare),
  })
  .strict();
export type ReportRequest = z.infer<typeof reportRequestInput>;

export const MARK_STATUSES = ["reviewed", "dismissed", "flagged"] as const;
export type MarkStatus = (typeof MARK_STATUSES)[number];

/** A pair's id: two submission ids joined by "-". */
export const pairIdField = () => z.string().regex(/^[a-z0-9]{1,64}-[a-z0-9]{1,64}$/, { error: "A pair id is two submission ids joined by -" });

export const markInput = z
  .object({
    reportId: idField(),
    pairId: pairIdField(),
    /** null clears the mark. */
    status: z.enum(MARK_STATUSES).nullable(),
    note: z.string().max(MARK_NOTE_MAX).default(""),
  })
  .strict();

type ReportRow = typeof similarityReports.$inferSelect;

function setKeyOf(scope: Scope, problemId: string | null, input: Omit<StoredInput, "programs">, programs: ProgramMeta[]): string {
  const ids = programs.map((p) => `${p.submissionId}${p.past ? "*" : ""}`).sort();
  return createHash("sha256").update(JSON.stringify({ kind: scope.kind, id: scope.id, problemId, input, ids })).digest("hex");
}

/**
 * Asks for a report on an assignment or a contest: the same set of
 * submissions with the same options answers the report already made (done,
 * or still being computed); otherwise a new one is queued.
 * @returns the report's id and status (202 at the REST door).
 * @throws ASSIGNMENT_NOT_FOUND / CONTEST_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400: problemId), RATE_LIMITED (429: UNFINISHED_PER_USER).
 */
export async function requestReport(db: Database, user: Caller, kind: ScopeKind, scopeId: string, request: ReportRequest, nowMs: number): Promise<{ reportId: string; status: ReportRow["status"]; reused: boolean }> {
  const scope = await requireScope(db, user, kind, scopeId, nowMs);
  const problemId = scopeProblem(scope, request.problemId);
  const programs = await selectPrograms(db, user, scope, problemId, request.pick, request.against, nowMs);
  const input: Omit<StoredInput, "programs"> = {
    pick: request.pick,
    against: request.against,
    starterCode: request.starterCode,
    engine: { ...DEFAULT_ENGINE, kgramLength: request.kgramLength, windowLength: request.windowLength, maxShare: request.maxShare, crossLanguage: request.crossLanguage },
  };
  const setKey = setKeyOf(scope, problemId, input, programs);
  const [same] = await db
    .select({ id: similarityReports.id, status: similarityReports.status })
    .from(similarityReports)
    .where(and(eq(similarityReports.setKey, setKey), inArray(similarityReports.status, ["queued", "running", "done"])))
    .limit(1);
  if (same) return { reportId: same.id, status: same.status, reused: true };
  const unfinished = await db
    .select({ id: similarityReports.id })
    .from(similarityReports)
    .where(and(eq(similarityReports.createdBy, user.id), inArray(similarityReports.status, ["queued", "running"])));
  if (unfinished.length >= UNFINISHED_PER_USER) {
    throw new AppError("RATE_LIMITED", { message: `You have ${unfinished.length} similarity reports still being computed; wait for one to finish.`, retryAfterSeconds: 10 });
  }
  const [row] = await db
    .insert(similarityReports)
    .values({ scopeKind: scope.kind, scopeId: scope.id, problemId, options: { ...input, programs } satisfies StoredInput, setKey, createdBy: user.id, createdAt: new Date(nowMs) })
    .returning({ id: similarityReports.id });
  similarityJobsFor(db).enqueue(row!.id);
  return { reportId: row!.id, status: "queued", reused: false };
}

/**
 * A report the caller may review, with the programs they may see in it: the
 * scope's own, and those of earlier offerings only where the caller reviews
 * that offering too (whoever asked for the report may review more courses than
 * a reader of it: a TA of this course does not see another course's students).
 * @throws SIMILARITY_REPORT_NOT_FOUND (404) for a missing report or one whose scope the caller may not review.
 */
async function requireReport(db: Database, user: Caller, reportId: string, nowMs: number): Promise<{ row: ReportRow; scope: Scope; visible: Set<string> }> {
  const [row] = await db.select().from(similarityReports).where(eq(similarityReports.id, reportId)).limit(1);
  if (!row) throw new AppError("SIMILARITY_REPORT_NOT_FOUND");
  let scope: Scope;
  try {
    scope = await requireScope(db, user, row.scopeKind, row.scopeId, nowMs);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw new AppError("SIMILARITY_REPORT_NOT_FOUND");
    throw err;
  }
  const programs = (row.options as StoredInput).programs;
  const reviewed = new Set<string>();
  for (const key of new Set(programs.flatMap((p) => (p.past ? [`${p.past.kind}:${p.past.id}`] : [])))) {
    const [kind, id] = key.split(":") as [ScopeKind, string];
    try {
      await requireScope(db, user, kind, id, nowMs);
      reviewed.add(key);
    } catch (err) {
      if (!(err instanceof AppError && err.status < 500)) throw err;
    }
  }
  const visible = new Set(programs.filter((p) => !p.past || reviewed.has(`${p.past.kind}:${p.past.id}`)).map((p) => p.submissionId));
  return { row, scope, visible };
}

export interface MarkView {
  status: MarkStatus;
  note: string;
  updatedAtMs: number;
}

async function marksOf(db: Database, scope: Pick<Scope, "kind" | "id">): Promise<Map<string, MarkView>> {
  const rows = await db
    .select()
    .from(similarityMarks)
    .where(and(eq(similarityMarks.scopeKind, scope.kind), eq(similarityMarks.scopeId, scope.id)));
  return new Map(rows.map((m) => [`${m.leftSubmissionId}-${m.rightSubmissionId}`, { status: m.status, note: m.note, updatedAtMs: m.updatedAt.getTime() }]));
}

export interface PairView extends PairSummary {
  id: string;
  mark: MarkView | null;
}

/** A report as the report page reads it. */
export interface ReportView {
  id: string;
  scope: { kind: ScopeKind; id: string; title: string; courseId: string | null };
  problems: Scope["problems"];
  problemId: string | null;
  status: ReportRow["status"];
  progress: number;
  error: string | null;
  createdAtMs: number;
  finishedAtMs: number | null;
  /** The scope's own submissions compared have changed since (new submissions, a new best): ask again for a fresh report. */
  stale: boolean;
  options: { pick: StoredInput["pick"]; against: StoredInput["against"]; crossLanguage: boolean; kgramLength: number; windowLength: number; maxShare: number; starterCodeLanguages: string[] };
  programs: ProgramMeta[];
  result: (Omit<StoredResult, "pairs" | "groups"> & { pairs: PairView[]; clusters: string[][]; groups: { grammar: string; languages: string[]; programs: number }[] }) | null;
}

/**
 * A report with its pairs (marks joined), clusters at the suggested threshold and staleness.
 * @throws SIMILARITY_REPORT_NOT_FOUND (404).
 */
export async function readReport(db: Database, user: Caller, reportId: string, nowMs: number): Promise<ReportView> {
  const { row, scope, visible } = await requireReport(db, user, reportId, nowMs);
  const input = row.options as StoredInput;
  const stored = row.result as StoredResult | null;
  // Stale: the scope's own programs are no longer those compared (earlier offerings are over and do not change;
  // and they depend on who asks, so they are left out of this comparison).
  let stale = false;
  if (row.status === "done") {
    const now = await selectPrograms(db, user, scope, row.problemId, input.pick, "none", nowMs);
    const ids = (list: ProgramMeta[]) => list.filter((p) => !p.past).map((p) => p.submissionId).sort().join();
    stale = ids(now) !== ids(input.programs);
  }
  const marks = stored ? await marksOf(db, scope) : new Map<string, MarkView>();
  const seen = (p: { left: string; right: string }) => visible.has(p.left) && visible.has(p.right);
  // Reports made before decision 057 compared a scope's problems with one another: their cross-problem pairs are left out.
  const problemOf = new Map(input.programs.map((p) => [p.submissionId, p.problemId]));
  const sameProblem = (a: string, b: string) => problemOf.get(a) === problemOf.get(b);
  const pairs = stored ? stored.pairs.filter((p) => seen(p) && sameProblem(p.left, p.right)) : [];
  return {
    id: row.id,
    scope: { kind: scope.kind, id: scope.id, title: scope.title, courseId: scope.courseId },
    problems: scope.problems,
    problemId: row.problemId,
    status: row.status,
    progress: row.progress,
    error: row.error,
    createdAtMs: row.createdAt.getTime(),
    finishedAtMs: row.finishedAt?.getTime() ?? null,
    stale,
    options: {
      pick: input.pick,
      against: input.against,
      crossLanguage: input.engine.crossLanguage,
      kgramLength: input.engine.kgramLength,
      windowLength: input.engine.windowLength,
      maxShare: input.engine.maxShare,
      starterCodeLanguages: input.starterCode.map((s) => s.language),
    },
    programs: input.programs.filter((p) => visible.has(p.submissionId)),
    result: stored && {
      ...stored,
      groups: stored.groups.map(({ ignoredHashes: _h, ...g }) => g),
      pairs: pairs.map((p) => ({ ...p, id: pairIdOf(p), mark: marks.get(pairIdOf(p)) ?? null })),
      clusters: clusters(pairs, stored.threshold),
      best: Object.fromEntries(Object.entries(stored.best).filter(([id, b]) => visible.has(id) && visible.has(b.with) && sameProblem(id, b.with))),
    },
  };
}

/** The reports of a scope, newest first (the report page's list). @throws as requireScope. */
export async function listReports(db: Database, user: Caller, kind: ScopeKind, scopeId: string, nowMs: number) {
  const scope = await requireScope(db, user, kind, scopeId, nowMs);
  const rows = await db
    .select({ id: similarityReports.id, problemId: similarityReports.problemId, status: similarityReports.status, progress: similarityReports.progress, createdAt: similarityReports.createdAt })
    .from(similarityReports)
    .where(and(eq(similarityReports.scopeKind, scope.kind), eq(similarityReports.scopeId, scope.id)))
    // Ids are random: reports asked for in the same millisecond keep their insertion order (rowid).
    .orderBy(desc(similarityReports.createdAt), desc(sql`rowid`));
  return rows.map((r) => ({ id: r.id, problemId: r.problemId, status: r.status, progress: r.progress, createdAtMs: r.createdAt.getTime() }));
}

/** One side of a pair: the program, its code and its paste record. */
export interface PairSide extends ProgramMeta {
  code: string;
  pastes: { atMs: number; chars: number }[] | null;
}

/**
 * Two programs of a report side by side, with the fragments they share (the report's templates and ignored fingerprints left out).
 * @throws SIMILARITY_REPORT_NOT_FOUND (404), SIMILARITY_PAIR_NOT_FOUND (404) when either program is not in the report.
 */
export async function readPair(db: Database, user: Caller, reportId: string, pairId: string, nowMs: number): Promise<{ pair: PairView | null; left: PairSide; right: PairSide; fragments: FragmentView[]; mark: MarkView | null }> {
  const { row, scope, visible } = await requireReport(db, user, reportId, nowMs);
  const input = row.options as StoredInput;
  const stored = row.result as StoredResult | null;
  const [leftId, rightId] = pairId.split("-") as [string, string];
  const left = input.programs.find((p) => p.submissionId === leftId);
  const right = input.programs.find((p) => p.submissionId === rightId);
  if (!left || !right || leftId === rightId || !visible.has(leftId) || !visible.has(rightId) || left.problemId !== right.problemId) throw new AppError("SIMILARITY_PAIR_NOT_FOUND");
  const code = new Map((await db.select({ id: submissions.id, code: submissions.code }).from(submissions).where(inArray(submissions.id, [leftId, rightId]))).map((r) => [r.id, r.code]));
  const pastes = new Map((await db.select().from(submissionPastes).where(inArray(submissionPastes.submissionId, [leftId, rightId]))).map((r) => [r.submissionId, r.events]));
  const grammar = grammarsFor(input.engine)[left.language]?.name;
  // The pair's group: its grammar and problem (reports before decision 057 had one group per grammar, without a problem).
  const ignored = stored?.groups.find((g) => g.grammar === grammar && ((g.problemId ?? null) === null || g.problemId === left.problemId))?.ignoredHashes ?? [];
  const templates = templatesOf(input);
  const fragments = await pairFragments(
    { id: leftId, language: left.language, code: code.get(leftId) ?? "", past: left.past !== null },
    { id: rightId, language: right.language, code: code.get(rightId) ?? "", past: right.past !== null },
    templates,
    ignored,
    input.engine,
  );
  const mark = (await marksOf(db, scope)).get(pairId) ?? null;
  const summary = stored?.pairs.find((p) => p.left === leftId && p.right === rightId);
  return {
    pair: summary ? { ...summary, id: pairId, mark } : null,
    left: { ...left, code: code.get(leftId) ?? "", pastes: pastes.get(leftId) ?? null },
    right: { ...right, code: code.get(rightId) ?? "", pastes: pastes.get(rightId) ?? null },
    fragments,
    mark,
  };
}

/**
 * Marks a pair (or clears its mark): kept for the scope, so a re-run report shows it again.
 * @throws SIMILARITY_REPORT_NOT_FOUND / SIMILARITY_PAIR_NOT_FOUND (404).
 */
export async function markPair(db: Database, user: Caller, input: z.infer<typeof markInput>, nowMs: number): Promise<MarkView | null> {
  const { row, scope, visible } = await requireReport(db, user, input.reportId, nowMs);
  const [leftId, rightId] = input.pairId.split("-") as [string, string];
  if (!visible.has(leftId) || !visible.has(rightId) || leftId === rightId) throw new AppError("SIMILARITY_PAIR_NOT_FOUND");
  const key = and(
    eq(similarityMarks.scopeKind, scope.kind),
    eq(similarityMarks.scopeId, scope.id),
    eq(similarityMarks.leftSubmissionId, leftId),
    eq(similarityMarks.rightSubmissionId, rightId),
  );
  if (input.status === null) {
    await db.delete(similarityMarks).where(key);
    return null;
  }
  const values = { status: input.status, note: input.note, reportId: row.id, markedBy: user.id, updatedAt: new Date(nowMs) };
  await db
    .insert(similarityMarks)
    .values({ scopeKind: scope.kind, scopeId: scope.id, leftSubmissionId: leftId, rightSubmissionId: rightId, ...values })
    .onConflictDoUpdate({ target: [similarityMarks.scopeKind, similarityMarks.scopeId, similarityMarks.leftSubmissionId, similarityMarks.rightSubmissionId], set: values });
  return { status: input.status, note: input.note, updatedAtMs: nowMs };
}

/** The CSV's columns, as src/i18n/answers/<locale>.json names them (English: rank, left, left_submission, ...). */
const CSV_COLUMNS = ["rank", "left", "leftSubmission", "right", "rightSubmission", "problem", "language", "similarity", "overlap", "longest", "mark", "note"] as const;

/**
 * The report's pairs as CSV (most similar first), names included. The header's labels and the marks'
 * words (reviewed, dismissed, flagged) are in `locale`; ids, names, numbers and notes are the same in every language.
 * @throws SIMILARITY_REPORT_NOT_FOUND (404).
 */
export async function reportCsv(db: Database, user: Caller, reportId: string, nowMs: number, locale: LocaleTag = "en"): Promise<string> {
  const report = await readReport(db, user, reportId, nowMs);
  const byId = new Map(report.programs.map((p) => [p.submissionId, p]));
  const label = new Map(report.problems.map((p) => [p.id, `${p.label}. ${p.title}`]));
  const rows = (report.result?.pairs ?? []).map((p, i) => {
    const l = byId.get(p.left);
    const r = byId.get(p.right);
    const mark = p.mark ? answerText(locale, `similarity.${p.mark.status}`) : "";
    return [i + 1, l?.owner.name ?? "", p.left, r?.owner.name ?? "", p.right, label.get(l?.problemId ?? "") ?? l?.problemId ?? "", l?.language ?? "", p.similarity.toFixed(3), p.overlap, p.longest, mark, p.mark?.note ?? ""];
  });
  return stringify([CSV_COLUMNS.map((c) => answerText(locale, `similarity.${c}`)), ...rows]);
}

/**
 * The students of an assignment with a flagged pair, per problem, with the pair (the gradebook links each cell to it).
 * @throws ASSIGNMENT_NOT_FOUND (404), FORBIDDEN (403) for those who may not review.
 */
export async function flaggedCells(db: Database, user: Caller, assignmentId: string, nowMs: number): Promise<{ userId: string; problemId: string; reportId: string; pairId: string; note: string }[]> {
  const scope = await requireScope(db, user, "assignment", assignmentId, nowMs);
  const flagged = await db
    .select()
    .from(similarityMarks)
    .where(and(eq(similarityMarks.scopeKind, "assignment"), eq(similarityMarks.scopeId, scope.id), eq(similarityMarks.status, "flagged")));
  if (!flagged.length) return [];
  const ids = flagged.flatMap((m) => [m.leftSubmissionId, m.rightSubmissionId]);
  const owners = new Map(
    (await db.select({ id: submissions.id, userId: submissions.userId, problemId: submissions.problemId, assignmentId: submissions.assignmentId }).from(submissions).where(inArray(submissions.id, ids))).map((s) => [s.id, s]),
  );
  const out: { userId: string; problemId: string; reportId: string; pairId: string; note: string }[] = [];
  for (const m of flagged) {
    for (const id of [m.leftSubmissionId, m.rightSubmissionId]) {
      const s = owners.get(id);
      // A past offering's program is not this gradebook's student.
      if (s && s.assignmentId === scope.id && m.reportId) out.push({ userId: s.userId, problemId: s.problemId, reportId: m.reportId, pairId: `${m.leftSubmissionId}-${m.rightSubmissionId}`, note: m.note });
    }
  }
  return out;
}
