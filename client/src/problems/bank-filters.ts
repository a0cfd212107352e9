/**
 * The problem bank's filters as the address holds them (`/problems?q=graph&tag=dp&difficulty=easy
 * &status=solved&source=public&sort=title`), so a search can be shared, reloaded and undone with
 * Back. Unknown or malformed values read as "no filter"; the server validates again
 * (src/problems/bank/shape.ts's bankQueryInput). The lists below are the client's copies of the
 * server's (runtime imports of src/ stay out of the bundle); the type checks at the end fail
 * the build when either side changes.
 */
import type { BankQuery, BankSort, BankSource, BankStatusFilter } from "../../../src/problems/bank/shape.ts";
import { DIFFICULTIES, type Difficulty } from "../lib/types.ts";

export const SORTS = ["newest", "title", "acceptance", "solvers"] as const;
export const STATUSES = ["solved", "attempted", "untried"] as const;
export const SOURCES = ["public", "course", "contest"] as const;
/** Problems a page asks for (the server's default, BANK_PAGE_DEFAULT). */
export const PAGE_SIZE = 50;
/** The search box waits this long after the last key before it searches. */
export const SEARCH_DEBOUNCE_MS = 300;
/** The server's limit on a search's length (BANK_QUERY_MAX_CHARS). */
export const QUERY_MAX_CHARS = 200;

/** What the page filters by; absent fields: no filter (sort: newest). */
export interface BankFilters {
  q: string;
  tag: string | null;
  difficulty: Difficulty | null;
  status: BankStatusFilter | null;
  source: BankSource | null;
  sort: BankSort;
}

const TAG_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function oneOf<V extends string>(values: readonly V[], raw: string | null): V | null {
  return values.find((v) => v === raw) ?? null;
}

/** The filters in an address's query string. */
export function filtersFromParams(p: URLSearchParams): BankFilters {
  const tag = p.get("tag");
  return {
    q: (p.get("q") ?? "").slice(0, QUERY_MAX_CHARS),
    tag: tag && TAG_SLUG.test(tag) && tag.length <= 40 ? tag : null,
    difficulty: oneOf(DIFFICULTIES, p.get("difficulty")),
    status: oneOf(STATUSES, p.get("status")),
    source: oneOf(SOURCES, p.get("source")),
    sort: oneOf(SORTS, p.get("sort")) ?? "newest",
  };
}

/**
 * The query string for `next` filters, keeping the address's other parameters (`lang`); empty
 * filters and the default sort are left out, so the plain page stays `/problems`.
 */
export function paramsWithFilters(current: URLSearchParams, next: BankFilters): URLSearchParams {
  const out = new URLSearchParams(current);
  const set = (k: string, v: string | null) => (v ? out.set(k, v) : out.delete(k));
  set("q", next.q.trim() || null);
  set("tag", next.tag);
  set("difficulty", next.difficulty);
  set("status", next.status);
  set("source", next.source);
  set("sort", next.sort === "newest" ? null : next.sort);
  return out;
}

/** The server's input for these filters (without cursor: the infinite query adds it). */
export function bankInput(f: BankFilters): Omit<BankQuery, "cursor"> {
  const q = f.q.trim();
  return {
    ...(q ? { q } : {}),
    ...(f.tag ? { tag: f.tag } : {}),
    ...(f.difficulty ? { difficulty: f.difficulty } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.source ? { source: f.source } : {}),
    sort: f.sort,
    limit: PAGE_SIZE,
  };
}

/** Whether any filter narrows the bank (the sort does not). */
export function isFiltered(f: BankFilters): boolean {
  return Boolean(f.q.trim() || f.tag || f.difficulty || f.status || f.source);
}

// The copies above are exactly the server's lists (a compile error names the side that drifted).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameSorts: Same<(typeof SORTS)[number], BankSort> = true;
const sameStatuses: Same<(typeof STATUSES)[number], BankStatusFilter> = true;
const sameSources: Same<(typeof SOURCES)[number], BankSource> = true;
void [sameSorts, sameStatuses, sameSources];
