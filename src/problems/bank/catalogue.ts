/**
 * The bank's shared part in memory (docs/decisions/082-bank-in-memory.md): every live problem's
 * card without the viewer's parts (title, difficulty, limits, tags, author, course), the tag
 * vocabulary (slugs, names, synonyms), the public counters, and what is derived from them (each
 * sort's order, the rows a tag or search admits with their per-difficulty counts, the FTS5 matches
 * and match texts), per database handle.
 *
 * Keys and freshness: the problem cards and the vocabulary are one `Catalogue`, keyed by
 * `revisions('problems')`; the counters are one `Counters`, keyed by `revisions('problem-stats')`
 * (./revision.ts says which writes bump which). The caller reads both revisions after its request
 * began (./revision.ts `readBankState`) and asks for exactly those: a write that committed before the
 * request is always seen. A revision is read before the rows it labels, so a write racing a rebuild
 * costs one more rebuild, never a stale answer. Concurrent requests for the same revision share one
 * read (single-flight: safe here because the key was read after each request began).
 *
 * Memory bound: one catalogue and one counters object per handle (the newest asked for; ~400 bytes a
 * problem: ~4 MB for 10,000), plus each catalogue's LRU of derived values (`DERIVED_MAX_BYTES`, sized
 * by an estimate of each value's bytes). A replaced catalogue's LRU goes with it.
 */
import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "../../../db/index.ts";
import type { Difficulty } from "../limits.ts";
import type { BankSort, BankTag, BankTagCount } from "./shape.ts";

/** One live problem as every viewer shares it. Shared between requests: never mutate. */
export interface CatalogueEntry {
  rowid: number;
  id: string;
  title: string;
  /** The title as SQLite's NOCASE compares it (ASCII letters folded). */
  titleKey: string;
  difficulty: Difficulty;
  createdAtMs: number;
  /** ISO 8601, made once. */
  createdAt: string;
  timeLimitMs: number;
  memoryLimitKib: number;
  interactive: boolean;
  scoring: boolean;
  userId: string;
  courseId: string | null;
  /** By name. */
  tags: BankTag[];
}

/** One problem's public counters. */
export interface Counter {
  submitters: number;
  solvers: number;
}

/** The counters of every problem (a problem without a row has none). */
export interface Counters {
  revision: number;
  byId: Map<string, Counter>;
}

/** Upper bound, in estimated bytes, of one catalogue's derived values (orders, filtered rows, searches, match texts). */
export const DERIVED_MAX_BYTES = 32 * 1024 * 1024;

/** The cards and the vocabulary at one `revisions('problems')`. */
export interface Catalogue {
  /** "r<revision>", or a one-off key when the revision row is missing (then nothing is kept). */
  key: string;
  /** Newest first (created_at DESC, id DESC): the `newest` order. */
  newest: CatalogueEntry[];
  byId: Map<string, CatalogueEntry>;
  /** A tag's slug or synonym → the tag ids it names. */
  tagWords: Map<string, string[]>;
  /** A tag id → the live problems carrying it. */
  tagged: Map<string, Set<string>>;
  /** Every tag with its public live problems, as `GET /api/problems/tags` lists them. */
  tagCounts: BankTagCount[];
  /** Derived values keyed by what they depend on (the counters' revision included where it matters). */
  derived: LRUCache<string, Derived, () => Promise<Derived>>;
}

/** A derived value with its estimated size. */
export interface Derived {
  bytes: number;
}

interface Memory {
  catalogue?: { revision: number; key: string; value: Promise<Catalogue> };
  counters?: { revision: number; value: Promise<Counters> };
}
const memories = new WeakMap<Database, Memory>();
const memoryOf = (db: Database): Memory => {
  let m = memories.get(db);
  if (!m) memories.set(db, (m = {}));
  return m;
};

/** The catalogue at `revision` (from `readBankState`; null: read afresh, not kept). */
export function catalogueAt(db: Database, revision: number | null): Promise<Catalogue> {
  const m = memoryOf(db);
  const key = revision === null ? `uncached:${Math.random()}` : `r${revision}`;
  if (m.catalogue?.key === key) return m.catalogue.value;
  const value = readCatalogue(db, key);
  // A request that read an older revision than the one kept (it began before a write another has seen) is answered, not kept.
  if (revision === null || (m.catalogue && m.catalogue.revision > revision)) return value;
  const slot = { revision, key, value };
  m.catalogue = slot;
  value.catch(() => {
    if (m.catalogue === slot) m.catalogue = undefined;
  });
  return value;
}

/** The counters at `revision` (from `readBankState`). */
export function countersAt(db: Database, revision: number): Promise<Counters> {
  const m = memoryOf(db);
  if (m.counters?.revision === revision) return m.counters.value;
  const value = readCounters(db, revision);
  if (m.counters && m.counters.revision > revision) return value;
  const slot = { revision, value };
  m.counters = slot;
  slot.value.catch(() => {
    if (m.counters === slot) m.counters = undefined;
  });
  return slot.value;
}

/**
 * A derived value of `catalogue`, computed once per key while the LRU keeps it (concurrent misses
 * share one computation). `key` must name everything the value depends on besides the catalogue.
 */
export async function derive<V extends Derived>(catalogue: Catalogue, key: string, compute: () => Promise<V> | V): Promise<V> {
  const v = await catalogue.derived.fetch(key, { context: async () => compute() });
  return v as V;
}

/** SQLite NOCASE: ASCII A-Z fold to a-z, nothing else. */
export const nocase = (s: string): string => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());

const byNewest = (a: CatalogueEntry, b: CatalogueEntry) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A sort's key of one entry (null for newest), as the cursor carries it. */
export function sortKey(sort: BankSort, e: CatalogueEntry, counters: Counters): string | number | null {
  if (sort === "newest") return null;
  if (sort === "title") return e.titleKey;
  const c = counters.byId.get(e.id);
  if (sort === "solvers") return c?.solvers ?? 0;
  // No submitters sorts last (-1, below every rate).
  return c && c.submitters > 0 ? (c.solvers * 1.0) / c.submitters : -1;
}

/**
 * The order of a sort over (key, created_at DESC, id DESC): < 0 when `a` comes first. Title ascends,
 * acceptance and solvers descend.
 */
export function compareKeys(sort: BankSort, a: { key: string | number | null; createdAtMs: number; id: string }, b: { key: string | number | null; createdAtMs: number; id: string }): number {
  if (sort === "title") {
    const c = cmpStr(a.key as string, b.key as string);
    if (c) return c;
  } else if (sort !== "newest") {
    const c = (b.key as number) - (a.key as number);
    if (c) return c;
  }
  return b.createdAtMs - a.createdAtMs || cmpStr(b.id, a.id);
}

/** Every live problem in `sort`'s order (memoised: the ranked sorts per counters' revision). */
export function ordered(catalogue: Catalogue, sort: BankSort, counters: Counters): Promise<{ entries: CatalogueEntry[]; bytes: number }> {
  if (sort === "newest") return Promise.resolve({ entries: catalogue.newest, bytes: 0 });
  const key = sort === "title" ? "order|title" : `order|${sort}|s${counters.revision}`;
  return derive(catalogue, key, () => {
    const keyed = catalogue.newest.map((e) => ({ e, key: sortKey(sort, e, counters), createdAtMs: e.createdAtMs, id: e.id }));
    keyed.sort((a, b) => compareKeys(sort, a, b));
    return { entries: keyed.map((k) => k.e), bytes: 8 * keyed.length + 64 };
  });
}

async function readCatalogue(db: Database, key: string): Promise<Catalogue> {
  const [rows, tagRows, vocabulary, synonyms] = await Promise.all([
    db.all<{
      rowid: number; id: string; title: string; difficulty: Difficulty; created_at: number; time_limit_ms: number; memory_limit_kib: number;
      interactive: number; scoring: number; user_id: string; course_id: string | null;
    }>(sql`SELECT rowid, id, title, difficulty, created_at, time_limit_ms, memory_limit_kib, interactive, scoring IS NOT NULL AS scoring, user_id, course_id
      FROM problems WHERE deleted_at IS NULL AND staged_at IS NULL`),
    db.all<{ problem_id: string; tag_id: string }>(sql`SELECT problem_id, tag_id FROM problem_tags`),
    db.all<{ id: string; slug: string; name: string }>(sql`SELECT id, slug, name FROM tags`),
    db.all<{ synonym: string; tag_id: string }>(sql`SELECT synonym, tag_id FROM tag_synonyms`),
  ]);
  const tagById = new Map(vocabulary.map((t) => [t.id, t]));
  const byId = new Map<string, CatalogueEntry>();
  const newest = rows.map((r): CatalogueEntry => {
    const e: CatalogueEntry = {
      rowid: r.rowid, id: r.id, title: r.title, titleKey: nocase(r.title), difficulty: r.difficulty, createdAtMs: r.created_at,
      createdAt: new Date(r.created_at).toISOString(), timeLimitMs: r.time_limit_ms, memoryLimitKib: r.memory_limit_kib,
      interactive: Boolean(r.interactive), scoring: Boolean(r.scoring), userId: r.user_id, courseId: r.course_id, tags: [],
    };
    byId.set(e.id, e);
    return e;
  });
  newest.sort(byNewest);
  const tagged = new Map<string, Set<string>>();
  for (const r of tagRows) {
    const e = byId.get(r.problem_id);
    const t = tagById.get(r.tag_id);
    if (!e || !t) continue;
    e.tags.push({ slug: t.slug, name: t.name });
    let set = tagged.get(t.id);
    if (!set) tagged.set(t.id, (set = new Set()));
    set.add(e.id);
  }
  // By name, as SQL's ORDER BY t.name (binary) gave them.
  for (const e of newest) if (e.tags.length > 1) e.tags.sort((a, b) => cmpStr(a.name, b.name));
  const tagWords = new Map<string, string[]>();
  const addWord = (w: string, id: string) => tagWords.set(w, [...(tagWords.get(w) ?? []), id]);
  for (const t of vocabulary) addWord(t.slug, t.id);
  for (const s of synonyms) if (tagById.has(s.tag_id) && !tagWords.get(s.synonym)?.includes(s.tag_id)) addWord(s.synonym, s.tag_id);
  const tagCounts = vocabulary
    .map((t): BankTagCount & { key: string } => {
      let n = 0;
      for (const id of tagged.get(t.id) ?? []) if (byId.get(id)!.courseId === null) n++;
      return { slug: t.slug, name: t.name, problems: n, key: nocase(t.name) };
    })
    .sort((a, b) => cmpStr(a.key, b.key) || cmpStr(a.slug, b.slug))
    .map(({ slug, name, problems }) => ({ slug, name, problems }));
  const derived = new LRUCache<string, Derived, () => Promise<Derived>>({
    maxSize: DERIVED_MAX_BYTES,
    sizeCalculation: (v) => Math.max(1, v.bytes),
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  return { key, newest, byId, tagWords, tagged, tagCounts, derived };
}

async function readCounters(db: Database, revision: number): Promise<Counters> {
  const rows = await db.all<{ problem_id: string; submitters: number; solvers: number }>(sql`SELECT problem_id, submitters, solvers FROM problem_stats`);
  const byId = new Map<string, Counter>();
  for (const r of rows) byId.set(r.problem_id, { submitters: r.submitters, solvers: r.solvers });
  return { revision, byId };
}
