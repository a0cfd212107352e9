/**
 * The problem bank's list (issue 35): one page of the live problems a viewer
 * may see, filtered, searched and sorted, with the viewer's marks and the
 * public counters. Shapes: ./shape.ts. Search: ./search.ts. Cursor: ./cursor.ts.
 * Who sees a course problem: ./visible.ts (the rules of src/problems/access.ts).
 *
 * Every page is a keyset read (no OFFSET): the sort's key, then newest, then
 * id, strictly after the cursor's row, so rows never repeat or go missing
 * while paging. `total` and `difficultyCounts` count the same filters
 * (difficulty aside for the counts) in one grouped read.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import type { Caller } from "../../accounts/user.ts";
import { DIFFICULTIES, type Difficulty } from "../limits.ts";
import { decodeCursor, encodeCursor, fingerprint } from "./cursor.ts";
import { matchesOf, matchingRowids, rowidCondition, searchWords } from "./search.ts";
import type { BankPage, BankProblem, BankQuery, BankSort, BankSource, BankTag } from "./shape.ts";
import type { ProblemStatus } from "./status.ts";
import { privateSight, type PrivateSight } from "./visible.ts";

interface SortSpec {
  /** The sort's key over `p` (problems) and `s` (problem_stats); null: newest only. */
  key: SQL | null;
  keyType: "string" | "number" | "null";
  ascending: boolean;
}

const ACCEPTANCE = sql`(CASE WHEN coalesce(s.submitters, 0) > 0 THEN s.solvers * 1.0 / s.submitters ELSE -1 END)`;
const SORTS: Record<BankSort, SortSpec> = {
  newest: { key: null, keyType: "null", ascending: false },
  title: { key: sql`p.title COLLATE NOCASE`, keyType: "string", ascending: true },
  // No submitters sorts last (-1, below every rate).
  acceptance: { key: ACCEPTANCE, keyType: "number", ascending: false },
  solvers: { key: sql`coalesce(s.solvers, 0)`, keyType: "number", ascending: false },
};

interface Row {
  rowid: number;
  id: string;
  title: string;
  difficulty: Difficulty;
  created_at: number;
  time_limit_ms: number;
  memory_limit_kib: number;
  interactive: number;
  scoring: number;
  user_id: string;
  course_id: string | null;
  submitters: number | null;
  solvers: number | null;
  status: ProblemStatus | null;
  sort_key: string | number | null;
}

const ids = (list: string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(list)}))`;

/** Which problems the source filter (or its absence: everything the viewer may see) admits: public ones, and which private ones. */
function sourceParts(source: BankSource | undefined, sight: PrivateSight | null): { publicToo: boolean; privateIds: string[] } {
  if (source === "public" || !sight) return { publicToo: true, privateIds: [] };
  if (source === "course") return { publicToo: false, privateIds: sight.course };
  if (source === "contest") return { publicToo: false, privateIds: sight.contest };
  return { publicToo: true, privateIds: [...sight.course, ...sight.contest] };
}

/**
 * @param page for the page's read: `+p.course_id` keeps the planner off the course index, so that it
 *   walks problems_bank_newest_idx (or title's) in the page's order and stops at the limit instead of
 *   sorting every public problem (the server runs no ANALYZE: the planner guesses without statistics).
 */
function sourceCondition(parts: { publicToo: boolean; privateIds: string[] }, page: boolean): SQL {
  const course = page ? sql`+p.course_id` : sql`p.course_id`;
  const priv = parts.privateIds.length ? sql`(${course} IS NOT NULL AND p.id IN ${ids(parts.privateIds)})` : null;
  if (parts.publicToo) return priv ? sql`(${course} IS NULL OR ${priv})` : sql`${course} IS NULL`;
  return priv ?? sql`0`;
}

function statusCondition(status: BankQuery["status"]): SQL | null {
  if (status === "solved") return sql`u.status = 'solved'`;
  if (status === "attempted") return sql`u.status = 'attempted'`;
  if (status === "untried") return sql`u.user_id IS NULL`;
  return null;
}

function tagCondition(tag: string | undefined): SQL | null {
  if (!tag) return null;
  // The slug, or a synonym written as one (`dp`).
  return sql`p.id IN (SELECT pt.problem_id FROM problem_tags pt WHERE pt.tag_id IN (
    SELECT id FROM tags WHERE slug = ${tag} UNION SELECT tag_id FROM tag_synonyms WHERE synonym = ${tag}))`;
}

function afterCursor(spec: SortSpec, c: { key: string | number | null; createdAtMs: number; id: string }): SQL {
  const tie = sql`(p.created_at < ${c.createdAtMs} OR (p.created_at = ${c.createdAtMs} AND p.id < ${c.id}))`;
  if (!spec.key) return tie;
  const cmp = spec.ascending ? sql`>` : sql`<`;
  return sql`(${spec.key} ${cmp} ${c.key} OR (${spec.key} = ${c.key} AND ${tie}))`;
}

/**
 * One page of the bank for `viewer` at `now` (ms).
 * @param query parsed by `bankQueryInput` (./shape.ts).
 * @returns the page (≤ `query.limit` problems), the next page's cursor (null on the last), the
 *   total under the filters, per-difficulty counts under the other filters, and the viewer's hideTags.
 * @throws AppError BAD_INPUT (400, field `cursor`) for a cursor unreadable or made for another sort or filter.
 */
export async function listBank(db: Database, viewer: Caller, query: BankQuery, now: number): Promise<BankPage> {
  const spec = SORTS[query.sort];
  const fp = fingerprint(query);
  const after = query.cursor !== undefined ? decodeCursor(query.cursor, fp, spec.keyType) : null;
  const words = searchWords(query.q);
  const sight = query.source === "public" ? null : await privateSight(db, viewer, now);

  const from = sql`FROM problems p
    LEFT JOIN problem_stats s ON s.problem_id = p.id
    LEFT JOIN user_problem_status u ON u.user_id = ${viewer.id} AND u.problem_id = p.id`;
  const parts = sourceParts(query.source, sight);
  const filters: SQL[] = [sql`p.deleted_at IS NULL`, sql`p.staged_at IS NULL`];
  const matched = words.length ? await matchingRowids(db, words) : null;
  for (const c of [statusCondition(query.status), tagCondition(query.tag), matched ? rowidCondition(matched) : null]) if (c) filters.push(c);
  const pageConds = [...filters, sourceCondition(parts, true)];
  if (query.difficulty) pageConds.push(sql`+p.difficulty = ${query.difficulty}`);
  if (after) pageConds.push(afterCursor(spec, after));
  const order = spec.key
    ? sql`${spec.key} ${spec.ascending ? sql`ASC` : sql`DESC`}, p.created_at DESC, p.id DESC`
    : sql`p.created_at DESC, p.id DESC`;

  // The counts read public and private problems apart, so that the public part is one scan of the
  // covering index problems_bank_public_idx (migration 0033) rather than of the problems' rows.
  const countFrom = query.status ? sql`FROM problems p LEFT JOIN user_problem_status u ON u.user_id = ${viewer.id} AND u.problem_id = p.id` : sql`FROM problems p`;
  const countParts: SQL[] = [];
  if (parts.publicToo) countParts.push(sql`SELECT p.difficulty AS d, count(*) AS n ${countFrom} WHERE ${sql.join([...filters, sql`p.course_id IS NULL`], sql` AND `)} GROUP BY p.difficulty`);
  if (parts.privateIds.length) countParts.push(sql`SELECT p.difficulty AS d, count(*) AS n ${countFrom} WHERE ${sql.join([...filters, sourceCondition({ publicToo: false, privateIds: parts.privateIds }, false)], sql` AND `)} GROUP BY p.difficulty`);

  // The viewer's spoiler-free setting rides with the counts (one statement fewer per page).
  countParts.push(sql`SELECT '-hide' AS d, hide_tags AS n FROM users WHERE id = ${viewer.id}`);

  const [rows, counts] = await Promise.all([
    db.all<Row>(sql`SELECT p.rowid AS rowid, p.id, p.title, p.difficulty, p.created_at, p.time_limit_ms, p.memory_limit_kib,
        p.interactive, p.scoring IS NOT NULL AS scoring, p.user_id, p.course_id, s.submitters, s.solvers, u.status,
        ${spec.key ?? sql`NULL`} AS sort_key
      ${from} WHERE ${sql.join(pageConds, sql` AND `)} ORDER BY ${order} LIMIT ${query.limit + 1}`),
    db.all<{ difficulty: Difficulty | "-hide"; n: number }>(sql`SELECT d AS difficulty, sum(n) AS n FROM (${sql.join(countParts, sql` UNION ALL `)}) GROUP BY d`),
  ]);

  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const hideTags = counts.some((c) => c.difficulty === "-hide" && c.n > 0);
  const [tags, matches] = await Promise.all([hideTags ? new Map<string, BankTag[]>() : tagsOf(db, page.map((r) => r.id)), matchesOf(db, words, page.map((r) => r.rowid))]);
  const courseSet = new Set(sight?.course ?? []);

  const difficultyCounts = Object.fromEntries(DIFFICULTIES.map((d) => [d, 0])) as Record<Difficulty, number>;
  for (const c of counts) if (c.difficulty !== "-hide") difficultyCounts[c.difficulty] = c.n;
  const total = query.difficulty ? difficultyCounts[query.difficulty] : DIFFICULTIES.reduce((n, d) => n + difficultyCounts[d], 0);
  const last = page[page.length - 1];
  return {
    problems: page.map((r): BankProblem => {
      const submitters = r.submitters ?? 0;
      const solvers = r.solvers ?? 0;
      const match = matches.get(r.rowid);
      return {
        id: r.id,
        title: r.title,
        difficulty: r.difficulty,
        createdAt: new Date(r.created_at).toISOString(),
        timeLimitMs: r.time_limit_ms,
        memoryLimitKib: r.memory_limit_kib,
        interactive: Boolean(r.interactive),
        scoring: Boolean(r.scoring),
        tags: tags.get(r.id) ?? [],
        solvers,
        submitters,
        acceptanceRate: submitters > 0 ? solvers / submitters : null,
        viewerStatus: r.status,
        source: r.course_id === null ? "public" : courseSet.has(r.id) ? "course" : "contest",
        owned: r.user_id === viewer.id,
        ...(match ? { match } : {}),
      };
    }),
    nextCursor: more && last ? encodeCursor(fp, { key: spec.key ? last.sort_key : null, createdAtMs: last.created_at, id: last.id }) : null,
    total,
    difficultyCounts,
    hideTags,
  };
}

/** The tags of each problem, by name. */
async function tagsOf(db: Database, problemIds: string[]): Promise<Map<string, BankTag[]>> {
  const out = new Map<string, BankTag[]>();
  if (!problemIds.length) return out;
  const rows = await db.all<{ problem_id: string; slug: string; name: string }>(sql`
    SELECT pt.problem_id, t.slug, t.name FROM problem_tags pt JOIN tags t ON t.id = pt.tag_id
    WHERE pt.problem_id IN ${ids(problemIds)} ORDER BY t.name`);
  for (const r of rows) {
    const list = out.get(r.problem_id) ?? [];
    list.push({ slug: r.slug, name: r.name });
    out.set(r.problem_id, list);
  }
  return out;
}
