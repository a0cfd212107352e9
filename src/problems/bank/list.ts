/**
 * The problem bank's list (issue 35): one page of the live problems a viewer
 * may see, filtered, searched and sorted, with the viewer's marks and the
 * public counters. Shapes: ./shape.ts. Search: ./search.ts. Cursor: ./cursor.ts.
 * Who sees a course problem: ./visible.ts (the rules of src/problems/access.ts).
 *
 * Served from memory (docs/decisions/082-bank-in-memory.md): the shared part (every live
 * problem's card, tags, counters, each sort's order, what a tag or a search admits and its counts,
 * match texts) comes from ./catalogue.ts, keyed by the revisions every write touching it bumps
 * (./revision.ts). Per request and per viewer, read after the request began: the revisions with
 * the viewer's spoiler-free setting (one statement), the viewer's private sight (./visible.ts, kept
 * per viewer while the sight revision and the clock allow: ./sight-cache.ts; skipped for
 * `source=public`), and the viewer's marks on the page (one indexed statement; all
 * their status rows with a status filter). Identical concurrent per-viewer reads are collapsed
 * without ever serving a read begun before the request (./coalesce.ts).
 *
 * Every page is a keyset page (no offset): the sort's key, then newest, then
 * id, strictly after the cursor's row, so rows never repeat or go missing
 * while paging. `total` and `difficultyCounts` count the same filters
 * (difficulty aside for the counts).
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import type { Caller } from "../../accounts/user.ts";
import { DIFFICULTIES, type Difficulty } from "../limits.ts";
import { catalogueAt, compareKeys, countersAt, derive, ordered, sortKey, type Catalogue, type CatalogueEntry, type Counters } from "./catalogue.ts";
import { AfterArrival } from "./coalesce.ts";
import { decodeCursor, encodeCursor, fingerprint, type CursorKeys } from "./cursor.ts";
import { readBankState, type BankState } from "./revision.ts";
import { matchesOf, matchingRowids, searchWords } from "./search.ts";
import type { BankMatch, BankPage, BankProblem, BankQuery, BankSort, BankSource } from "./shape.ts";
import type { ProblemStatus } from "./status.ts";
import { sightOf } from "./sight-cache.ts";
import type { PrivateSight } from "./visible.ts";

const KEY_TYPES: Record<BankSort, "string" | "number" | "null"> = { newest: "null", title: "string", acceptance: "number", solvers: "number" };

/** The per-viewer reads of one database handle, each collapsed per key (./coalesce.ts). */
interface Readers {
  state: AfterArrival<Caller, BankState>;
  marks: AfterArrival<{ viewer: Caller; ids: string[] | null }, Map<string, ProblemStatus>>;
}
const readers = new WeakMap<Database, Readers>();
function readersOf(db: Database): Readers {
  let r = readers.get(db);
  if (!r) {
    r = {
      state: new AfterArrival((q) => q, (viewer) => readBankState(db, viewer.id)),
      marks: new AfterArrival((q) => q, ({ viewer, ids }) => readMarks(db, viewer.id, ids)),
    };
    readers.set(db, r);
  }
  return r;
}

/** The viewer's status rows: on `ids` (one primary-key lookup each), or all of them (null). */
async function readMarks(db: Database, userId: string, ids: string[] | null): Promise<Map<string, ProblemStatus>> {
  if (ids && !ids.length) return new Map();
  const on = ids ? sql`AND problem_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))` : sql``;
  const rows = await db.all<{ problem_id: string; status: ProblemStatus }>(sql`SELECT problem_id, status FROM user_problem_status WHERE user_id = ${userId} ${on}`);
  return new Map(rows.map((r) => [r.problem_id, r.status]));
}

/** Which problems the source filter (or its absence: everything the viewer may see) admits: public ones, and which private ones. */
function sourceParts(source: BankSource | undefined, sight: PrivateSight | null): { publicToo: boolean; privateIds: string[] } {
  if (source === "public" || !sight) return { publicToo: true, privateIds: [] };
  if (source === "course") return { publicToo: false, privateIds: sight.course };
  if (source === "contest") return { publicToo: false, privateIds: sight.contest };
  return { publicToo: true, privateIds: [...sight.course, ...sight.contest] };
}

const zeroCounts = () => Object.fromEntries(DIFFICULTIES.map((d) => [d, 0])) as Record<Difficulty, number>;

/** The rows a tag and a search admit, in a sort's order, with the public ones' counts per difficulty: shared by every viewer. */
interface Admitted {
  entries: CatalogueEntry[];
  publicCounts: Record<Difficulty, number>;
  /** Whether an entry is admitted (for the viewer's private and status rows). */
  admits: (e: CatalogueEntry) => boolean;
  bytes: number;
}

async function admitted(db: Database, catalogue: Catalogue, counters: Counters, sort: BankSort, tag: string | undefined, words: string[]): Promise<Admitted> {
  const ranked = sort === "acceptance" || sort === "solvers";
  const key = `rows|${sort}|${ranked ? counters.revision : ""}|${tag ?? ""}|${words.join(" ")}`;
  return derive(catalogue, key, async () => {
    const [order, matched] = await Promise.all([
      ordered(catalogue, sort, counters),
      words.length ? derive(catalogue, `fts|${words.join(" ")}`, async () => {
        const rowids = await matchingRowids(db, words);
        return { set: new Set(rowids), bytes: 16 * rowids.length + 64 };
      }) : null,
    ]);
    const tagSets = tag === undefined ? null : (catalogue.tagWords.get(tag) ?? []).map((id) => catalogue.tagged.get(id) ?? new Set<string>());
    const admits = (e: CatalogueEntry) => (!tagSets || tagSets.some((s) => s.has(e.id))) && (!matched || matched.set.has(e.rowid));
    const entries = tagSets || matched ? order.entries.filter(admits) : order.entries;
    const publicCounts = zeroCounts();
    for (const e of entries) if (e.courseId === null) publicCounts[e.difficulty]++;
    return { entries, publicCounts, admits, bytes: entries === order.entries ? 64 : 8 * entries.length + 64 };
  });
}

/** The index of the first entry strictly after the cursor's row (the entries are in `sort`'s order). */
function firstAfter(entries: CatalogueEntry[], sort: BankSort, counters: Counters, after: CursorKeys): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = entries[mid]!;
    if (compareKeys(sort, { key: sortKey(sort, e, counters), createdAtMs: e.createdAtMs, id: e.id }, after) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One page of the bank for `viewer` at `now` (ms).
 * @param query parsed by `bankQueryInput` (./shape.ts).
 * @returns the page (≤ `query.limit` problems), the next page's cursor (null on the last), the
 *   total under the filters, per-difficulty counts under the other filters, and the viewer's hideTags.
 * @throws AppError BAD_INPUT (400, field `cursor`) for a cursor unreadable or made for another sort or filter.
 */
export async function listBank(db: Database, viewer: Caller, query: BankQuery, now: number): Promise<BankPage> {
  const fp = fingerprint(query);
  const after = query.cursor !== undefined ? decodeCursor(query.cursor, fp, KEY_TYPES[query.sort]) : null;
  const words = searchWords(query.q);
  const r = readersOf(db);
  const [state, allMarks] = await Promise.all([r.state.run(viewer.id, viewer), query.status ? r.marks.run(`${viewer.id}|*`, { viewer, ids: null }) : null]);
  // After the state: a kept sight is served only under the revision this request read (./sight-cache.ts).
  const sight = query.source === "public" ? null : await sightOf(db, viewer, now, state.sight);
  const [catalogue, counters] = await Promise.all([catalogueAt(db, state.problems), countersAt(db, state.stats)]);
  const shared = await admitted(db, catalogue, counters, query.sort, query.tag, words);

  const parts = sourceParts(query.source, sight);
  const privateIds = new Set(parts.privateIds);
  const visible = (e: CatalogueEntry) => (e.courseId === null ? parts.publicToo : privateIds.has(e.id));
  const statusOk = (e: CatalogueEntry): boolean => {
    if (!query.status || !allMarks) return true;
    const s = allMarks.get(e.id);
    return query.status === "untried" ? s === undefined : s === query.status;
  };

  const page: CatalogueEntry[] = [];
  for (let i = after ? firstAfter(shared.entries, query.sort, counters, after) : 0; i < shared.entries.length && page.length <= query.limit; i++) {
    const e = shared.entries[i]!;
    if (visible(e) && (!query.difficulty || e.difficulty === query.difficulty) && statusOk(e)) page.push(e);
  }
  const more = page.length > query.limit;
  if (more) page.pop();

  const difficultyCounts = countsOf(catalogue, shared, parts.publicToo, parts.privateIds, visible, query.status, allMarks);
  const total = query.difficulty ? difficultyCounts[query.difficulty] : DIFFICULTIES.reduce((n, d) => n + difficultyCounts[d], 0);
  const [marks, matches] = await Promise.all([
    allMarks ?? (page.length ? r.marks.run(`${viewer.id}|${page.map((e) => e.id).join(",")}`, { viewer, ids: page.map((e) => e.id) }) : new Map<string, ProblemStatus>()),
    matchTexts(db, catalogue, words, page),
  ]);
  const course = new Set(sight?.course ?? []);
  const last = page[page.length - 1];
  return {
    problems: page.map((e): BankProblem => {
      const c = counters.byId.get(e.id);
      const submitters = c?.submitters ?? 0;
      const solvers = c?.solvers ?? 0;
      const match = matches?.get(e.rowid);
      return {
        id: e.id,
        title: e.title,
        difficulty: e.difficulty,
        createdAt: e.createdAt,
        timeLimitMs: e.timeLimitMs,
        memoryLimitKib: e.memoryLimitKib,
        interactive: e.interactive,
        scoring: e.scoring,
        tags: state.hideTags ? [] : e.tags,
        solvers,
        submitters,
        acceptanceRate: submitters > 0 ? solvers / submitters : null,
        viewerStatus: marks.get(e.id) ?? null,
        source: e.courseId === null ? "public" : course.has(e.id) ? "course" : "contest",
        owned: e.userId === viewer.id,
        ...(match ? { match } : {}),
      };
    }),
    nextCursor: more && last ? encodeCursor(fp, { key: sortKey(query.sort, last, counters), createdAtMs: last.createdAtMs, id: last.id }) : null,
    total,
    difficultyCounts,
    hideTags: state.hideTags,
  };
}

/** Per-difficulty counts under every filter but difficulty: the shared public counts, plus the viewer's private rows, less (or only) their status rows. */
function countsOf(
  catalogue: Catalogue,
  shared: Admitted,
  publicToo: boolean,
  privateIds: string[],
  visible: (e: CatalogueEntry) => boolean,
  status: BankQuery["status"],
  marks: Map<string, ProblemStatus> | null,
): Record<Difficulty, number> {
  const counts = zeroCounts();
  if (status && status !== "untried" && marks) {
    for (const [id, s] of marks) {
      const e = catalogue.byId.get(id);
      if (e && s === status && visible(e) && shared.admits(e)) counts[e.difficulty]++;
    }
    return counts;
  }
  if (publicToo) for (const d of DIFFICULTIES) counts[d] += shared.publicCounts[d];
  for (const id of privateIds) {
    const e = catalogue.byId.get(id);
    if (e && e.courseId !== null && shared.admits(e)) counts[e.difficulty]++;
  }
  if (status === "untried" && marks) {
    for (const id of marks.keys()) {
      const e = catalogue.byId.get(id);
      if (e && visible(e) && shared.admits(e)) counts[e.difficulty]--;
    }
  }
  return counts;
}

/** Where the page's rows matched the search (FTS5 highlight and snippet), kept per page of the catalogue. */
async function matchTexts(db: Database, catalogue: Catalogue, words: string[], page: CatalogueEntry[]): Promise<Map<number, BankMatch> | null> {
  if (!words.length || !page.length) return null;
  const rowids = page.map((e) => e.rowid);
  const found = await derive(catalogue, `match|${words.join(" ")}|${rowids.join(",")}`, async () => {
    const map = await matchesOf(db, words, rowids);
    let bytes = 64;
    for (const m of map.values()) bytes += 2 * m.text.length + 16 * m.highlights.length + 64;
    return { map, bytes };
  });
  return found.map;
}
