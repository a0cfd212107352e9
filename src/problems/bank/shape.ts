/**
 * The problem bank's shapes (issue 35): what the paginated list takes and
 * answers, shared by the tRPC procedure `problems.bank`, the REST door
 * (`GET /api/problems` with any of these parameters) and the client.
 * `GET /api/problems` without parameters keeps the spec's answer (every
 * problem, src/problems/list-cache.ts).
 */
import { z } from "zod";
import { DIFFICULTIES, type Difficulty } from "../limits.ts";
import type { ProblemStatus } from "./status.ts";

/** Sorts: newest first (default), title A→Z, acceptance rate high→low, solvers many→few; ties by newest, then id. */
export const BANK_SORTS = ["newest", "title", "acceptance", "solvers"] as const;
export type BankSort = (typeof BANK_SORTS)[number];
/** The viewer's status filter: solved, attempted but not solved, never submitted. */
export const BANK_STATUSES = ["solved", "attempted", "untried"] as const;
export type BankStatusFilter = (typeof BANK_STATUSES)[number];
/**
 * Where a problem comes from: `public` (the public list), `course` (a course-private problem the
 * viewer may see), `contest` (a problem of a contest whose problems the viewer may see).
 */
export const BANK_SOURCES = ["public", "course", "contest"] as const;
export type BankSource = (typeof BANK_SOURCES)[number];

/** Page size: default 50 (DMOJ's), at most 100 (Hydro's). */
export const BANK_PAGE_DEFAULT = 50;
export const BANK_PAGE_MAX = 100;
/** A search's words, at most (FTS5 query length stays bounded). */
export const BANK_QUERY_MAX_CHARS = 200;

/** A tag's stable key: lower-case kebab, 1–40 characters (`dynamic-programming`). */
export const tagSlugField = z
  .string({ error: "Must be text" })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "A tag: lower-case letters, digits and single dashes" })
  .max(40, { error: "At most 40 characters" });

/** One page of the bank: every filter optional; `cursor` from the previous page's `nextCursor`. */
export const bankQueryInput = z.object({
  q: z.string({ error: "Must be text" }).trim().max(BANK_QUERY_MAX_CHARS, { error: `At most ${BANK_QUERY_MAX_CHARS} characters` }).optional(),
  tag: tagSlugField.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  status: z.enum(BANK_STATUSES).optional(),
  source: z.enum(BANK_SOURCES).optional(),
  sort: z.enum(BANK_SORTS).default("newest"),
  /** Opaque; from `nextCursor`. A cursor made for another sort or filter is a 400 on `cursor`. */
  cursor: z.string({ error: "Must be text" }).max(500, { error: "At most 500 characters" }).optional(),
  limit: z.coerce.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(1, { error: "At least 1" }).max(BANK_PAGE_MAX, { error: `At most ${BANK_PAGE_MAX}` }).default(BANK_PAGE_DEFAULT),
});
export type BankQuery = z.infer<typeof bankQueryInput>;

/** A tag as the bank shows it: `name` is the stored English name (the client translates the base vocabulary by slug). */
export interface BankTag {
  slug: string;
  name: string;
}

/**
 * Where a search matched: the field and its text around the match (≤ ~160 characters), with
 * the matched words' UTF-16 offsets into `text` as [start, end) pairs. Plain text, never HTML.
 */
export interface BankMatch {
  field: "title" | "statement";
  text: string;
  highlights: [number, number][];
}

/** One problem of a bank page: no statement, no tests (a page of 100 stays a few KiB). */
export interface BankProblem {
  id: string;
  title: string;
  difficulty: Difficulty;
  /** ISO 8601. */
  createdAt: string;
  timeLimitMs: number;
  memoryLimitKib: number;
  interactive: boolean;
  /** A scoring problem (test groups with points). */
  scoring: boolean;
  /** Empty when the viewer hides tags (spoiler-free mode). */
  tags: BankTag[];
  /** Users with a public AC; users with any public judged submission. */
  solvers: number;
  submitters: number;
  /** solvers / submitters in [0, 1]; null without submitters. */
  acceptanceRate: number | null;
  /** The viewer's own status, from every submission of theirs (contests and courses included); null: never submitted. */
  viewerStatus: ProblemStatus | null;
  source: BankSource;
  /** The viewer wrote it (may edit and delete it). */
  owned: boolean;
  /** Only with `q`. */
  match?: BankMatch;
}

export interface BankPage {
  problems: BankProblem[];
  /** Null on the last page. */
  nextCursor: string | null;
  /** Problems matching the filters (every page). */
  total: number;
  /** Counts per difficulty under the other filters (the difficulty tabs' numbers). */
  difficultyCounts: Record<Difficulty, number>;
  /** The viewer's spoiler-free setting (tags hidden). */
  hideTags: boolean;
}

/** `GET /api/problems/tags`: every tag with its number of public live problems, by name. */
export interface BankTagCount extends BankTag {
  problems: number;
}
