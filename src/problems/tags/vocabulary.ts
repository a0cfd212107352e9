/**
 * Reading the vocabulary of topic tags: every tag with its synonyms, and
 * resolving a free word to a tag. A word means a tag when, normalised
 * (./words.ts: lower-case, trimmed, single spaces), it equals the tag's slug,
 * its name lower-cased, or one of its synonyms (`dp` → dynamic-programming).
 * Curation (./curation.ts) keeps every word meaning at most one tag.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { problems, problemTags, tagSynonyms, tags } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { TagListing, TagRef } from "./input.ts";
import { normalizeTagWord } from "./words.ts";

/** A tags row as the rules need it. */
export interface TagRow extends TagRef {
  id: string;
}

const tagColumns = { id: tags.id, slug: tags.slug, name: tags.name };

/** Every tag, by name (A→Z, case-insensitive), each with its synonyms (A→Z). */
export async function listTags(db: Database): Promise<TagListing[]> {
  const [rows, synonyms] = await Promise.all([
    db.select(tagColumns).from(tags).orderBy(asc(sql`lower(${tags.name})`), asc(tags.slug)),
    db.select({ tagId: tagSynonyms.tagId, synonym: tagSynonyms.synonym }).from(tagSynonyms).orderBy(asc(tagSynonyms.synonym)),
  ]);
  const byTag = new Map<string, string[]>();
  for (const s of synonyms) byTag.set(s.tagId, [...(byTag.get(s.tagId) ?? []), s.synonym]);
  return rows.map((r) => ({ slug: r.slug, name: r.name, synonyms: byTag.get(r.id) ?? [] }));
}

/**
 * The tags the words mean, by normalised word (words that mean no tag are absent).
 * Two reads whatever the number of words: the vocabulary's tags (a few dozen to a
 * few hundred rows, compared here so names outside ASCII lower-case as in
 * `normalizeTagWord`, which SQLite's lower() would not), and the synonyms by key.
 */
export async function resolveWords(db: Database, words: readonly string[]): Promise<Map<string, TagRow>> {
  const wanted = [...new Set(words.map(normalizeTagWord).filter(Boolean))];
  const out = new Map<string, TagRow>();
  if (!wanted.length) return out;
  const [direct, viaSynonym] = await Promise.all([
    db.select(tagColumns).from(tags),
    db
      .select({ ...tagColumns, synonym: tagSynonyms.synonym })
      .from(tagSynonyms)
      .innerJoin(tags, eq(tags.id, tagSynonyms.tagId))
      .where(inArray(tagSynonyms.synonym, wanted)),
  ]);
  for (const w of wanted) {
    const hit =
      direct.find((t) => t.slug === w) ?? direct.find((t) => normalizeTagWord(t.name) === w) ?? viaSynonym.find((t) => t.synonym === w);
    if (hit) out.set(w, { id: hit.id, slug: hit.slug, name: hit.name });
  }
  return out;
}

/**
 * The tag a free word means.
 * @throws AppError TAG_NOT_FOUND (404, field `word`) when it means none.
 */
export async function resolveTag(db: Database, word: string): Promise<TagRef> {
  const hit = (await resolveWords(db, [word])).get(normalizeTagWord(word));
  if (!hit) throw new AppError("TAG_NOT_FOUND", { field: "word", message: `word: ${JSON.stringify(word)} names no topic tag` });
  return { slug: hit.slug, name: hit.name };
}

/**
 * The tags an author's words mean, in the order given, each once.
 * @throws AppError BAD_INPUT (400, field `tags`) naming the first word that means no tag.
 */
export async function requireTags(db: Database, words: readonly string[]): Promise<TagRow[]> {
  const found = await resolveWords(db, words);
  const out: TagRow[] = [];
  for (const w of words) {
    const hit = found.get(normalizeTagWord(w));
    if (!hit) throw new AppError("BAD_INPUT", { field: "tags", message: `tags: ${JSON.stringify(w)} is not a topic tag (nor a synonym of one)` });
    if (!out.some((t) => t.id === hit.id)) out.push(hit);
  }
  return out;
}

/**
 * One tag by slug.
 * @param field the request field named in the 404 (`slug`, `into`).
 * @throws AppError TAG_NOT_FOUND (404).
 */
export async function requireTagBySlug(db: Database, slug: string, field = "slug"): Promise<TagRow> {
  const [row] = await db.select(tagColumns).from(tags).where(eq(tags.slug, slug)).limit(1);
  if (!row) throw new AppError("TAG_NOT_FOUND", { field, message: `${field}: no topic tag has the slug ${JSON.stringify(slug)}` });
  return row;
}

/** Live problems (every source: public, course, contest) carrying each tag, by slug; tags on none are absent. */
export async function tagUsage(db: Database): Promise<Record<string, number>> {
  const rows = await db
    .select({ slug: tags.slug, n: sql<number>`count(*)` })
    .from(problemTags)
    .innerJoin(tags, eq(tags.id, problemTags.tagId))
    .innerJoin(problems, eq(problems.id, problemTags.problemId))
    .where(sql`${problems.deletedAt} is null`)
    .groupBy(tags.slug);
  return Object.fromEntries(rows.map((r) => [r.slug, Number(r.n)]));
}
