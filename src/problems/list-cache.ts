/**
 * The public problem list, cached per database handle until any problem or
 * test case changes (docs/decisions/024-problem-list-cache.md).
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problems, revisions } from "../../db/schema.ts";
import { shareJson } from "../lib/json.ts";
import { toProblemShape, type ProblemShape } from "./shape.ts";
import { countTests, readHiddenTests, readValidators } from "./store.ts";
import { readProblemTags } from "./tags/problem-tags.ts";

interface ListCache {
  /** `revisions('problems')` when `shapes` was read. */
  key: string;
  /** Shared by every request that finds this key, the ones arriving while it is still being read included. */
  shapes: Promise<readonly Readonly<ProblemShape>[]>;
}
const listCaches = new WeakMap<Database, ListCache>();
const revisionQueries = new WeakMap<Database, ReturnType<typeof prepareRevision>>();
function prepareRevision(db: Database) {
  return db.select({ value: revisions.value }).from(revisions).where(eq(revisions.name, "problems")).prepare();
}

/**
 * `revisions('problems')`: bumped by triggers on every write to problems and
 * test cases (migration 0003), by any process. One primary-key read; null
 * when the row is missing.
 */
export async function problemsRevision(db: Database): Promise<number | null> {
  let revision = revisionQueries.get(db);
  if (!revision) {
    revision = prepareRevision(db);
    revisionQueries.set(db, revision);
  }
  const [row] = await revision.execute();
  // No revision row (a database migrated by hand without 0003): callers must not cache.
  return row ? row.value : null;
}

/**
 * The public shapes of every live problem (no hidden tests), oldest first,
 * cached per database handle. Freshness: triggers (migration 0003) bump
 * `revisions('problems')` on every insert, update and delete of problems and
 * test cases, by any writer in any process (and the tag curation, which renames,
 * merges and deletes the tags the shapes show, bumps it in the same write); one primary-key read per call
 * compares it. The revision is read before the rows, so a write racing a
 * rebuild costs one more rebuild, never a stale answer after the write.
 * Concurrent callers that see the same new revision share one rebuild.
 * Why: docs/decisions/024-problem-list-cache.md. The shapes are shared between
 * requests: never mutate them (copy, as `list` does for the owner's tests).
 */
export async function publicProblemList(db: Database): Promise<readonly Readonly<ProblemShape>[]> {
  const rev = await problemsRevision(db);
  const key = rev !== null ? String(rev) : `uncached:${Math.random()}`;
  const cached = listCaches.get(db);
  if (cached?.key === key) return cached.shapes;
  // One read per revision: requests that arrive while it runs (a burst right after a write) wait for it
  // instead of each reading 1,000 rows and each getting its own copy to serialise.
  const entry: ListCache = { key, shapes: readPublicShapes(db) };
  listCaches.set(db, entry);
  entry.shapes.catch(() => {
    if (listCaches.get(db) === entry) listCaches.delete(db);
  });
  return entry.shapes;
}

async function readPublicShapes(db: Database): Promise<readonly Readonly<ProblemShape>[]> {
  const [rows, counts, tags] = await Promise.all([
    // Course-private problems are never in the public list (their course's pages list them).
    db
      .select()
      .from(problems)
      .where(and(isNull(problems.deletedAt), isNull(problems.courseId)))
      .orderBy(asc(problems.createdAt), asc(problems.id)),
    countTests(db),
    // Tag names are in the shapes: a curation that changes them bumps the revision too (src/problems/tags/curation.ts).
    readProblemTags(db),
  ]);
  // Not Object.freeze'd: JSC serialises frozen objects several times slower; `readonly` types guard them instead.
  // shareJson: the REST door serialises this array (and each shape) once, not per request (src/lib/json.ts).
  return shareJson(rows.map((r) => toProblemShape(r, counts.get(r.id) ?? 0, tags.get(r.id) ?? [])));
}

/** Each owner's problem ids in one cached list, indexed once per list (the list route asks on every request). */
const ownersIndex = new WeakMap<readonly Readonly<ProblemShape>[], Map<string, string[]>>();
export function ownProblemIds(shapes: readonly Readonly<ProblemShape>[], userId: string): string[] {
  let index = ownersIndex.get(shapes);
  if (!index) {
    index = new Map();
    for (const p of shapes) {
      const ids = index.get(p.user);
      if (ids) ids.push(p._id);
      else index.set(p.user, [p._id]);
    }
    ownersIndex.set(shapes, index);
  }
  return index.get(userId) ?? [];
}

/**
 * Every live public problem, oldest first, as `userId` sees the list: the
 * cached public part, with hidden tests and validator only on their own.
 */
export async function problemListFor(db: Database, userId: string): Promise<ProblemShape[]> {
  const shapes = await publicProblemList(db);
  const ownIds = ownProblemIds(shapes, userId);
  if (!ownIds.length) return shapes as ProblemShape[];
  const [own, validators] = await Promise.all([readHiddenTests(db, ownIds), readValidators(db, ownIds)]);
  return shapes.map((p) => (own.has(p._id) ? { ...p, hiddenTestCases: own.get(p._id), validator: validators.get(p._id) ?? null } : p));
}

/** A public problem as a picker lists it: no statement, no tests (`problems.titles`). */
export interface ProblemTitle {
  _id: string;
  title: string;
  difficulty: ProblemShape["difficulty"];
  /** The author's user id (the course page offers one's own problems to copy). */
  user: string;
}

/** The titles of one cached list, made once per list (shared between requests: never mutate). */
const titlesOf = new WeakMap<readonly Readonly<ProblemShape>[], readonly ProblemTitle[]>();

/**
 * Every live public problem's id, title, difficulty and author, oldest first:
 * what a picker needs (an assignment's problems, a copy into a course), about
 * 60 bytes a problem where the whole list sends its statements too. Cached
 * with the list (same revision).
 */
export async function publicProblemTitles(db: Database): Promise<readonly ProblemTitle[]> {
  const shapes = await publicProblemList(db);
  let titles = titlesOf.get(shapes);
  if (!titles) {
    titles = shareJson(shapes.map((p) => ({ _id: p._id, title: p.title, difficulty: p.difficulty, user: p.user })));
    titlesOf.set(shapes, titles);
  }
  return titles;
}
