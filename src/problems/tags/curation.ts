/**
 * Curating the vocabulary (site admins only, `requireAdmin`; docs/permissions.md
 * "Site roles"): create a tag, rename it (the slug stays: links, filters and
 * packages name it), add and remove synonyms, merge a tag into another, delete
 * one. Every word (slug, name, synonym) means at most one tag: a word that
 * already means one is a 409 TAG_WORD_TAKEN naming the field and that tag.
 * Every write (a new tag, a name, a synonym, a merge, a delete) bumps
 * `revisions('problems')` in the same batch, so the cached problem list
 * (src/problems/list-cache.ts) and the bank's memory (src/problems/bank/catalogue.ts,
 * which lists every tag and resolves synonyms) are read again.
 */
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "../../../db/index.ts";
import { tagSynonyms, tags } from "../../../db/schema.ts";
import { requireAdmin } from "../../accounts/admin.ts";
import type { Caller } from "../../accounts/user.ts";
import { AppError } from "../../errors.ts";
import { isUniqueViolation } from "../../lib/sql-errors.ts";
import type { createTagInput, deleteTagInput, mergeTagInput, renameTagInput, synonymInput, TagListing } from "./input.ts";
import { listTags, requireTagBySlug, resolveWords, tagUsage, type TagRow } from "./vocabulary.ts";
import { normalizeTagWord } from "./words.ts";

/** The statement that makes every cached problem list and the bank's memory stale (they carry tag names, slugs and synonyms). */
function bumpProblemsRevision(db: Database) {
  return db.run(sql`UPDATE revisions SET value = value + 1 WHERE name = 'problems'`);
}

/**
 * Refuses a word that already means a tag (other than `allowed`).
 * @throws AppError TAG_WORD_TAKEN (409) naming `field` and the tag.
 */
async function requireFreeWord(db: Database, word: string, field: string, allowed?: TagRow): Promise<void> {
  const hit = (await resolveWords(db, [word])).get(normalizeTagWord(word));
  if (hit && hit.id !== allowed?.id) {
    throw new AppError("TAG_WORD_TAKEN", { field, message: `${field}: ${JSON.stringify(word)} already means the tag ${hit.slug} (${hit.name})` });
  }
}

async function listingOf(db: Database, slug: string): Promise<TagListing> {
  const found = (await listTags(db)).find((t) => t.slug === slug);
  if (!found) throw new AppError("TAG_NOT_FOUND", { field: "slug" });
  return found;
}

/**
 * Live problems (every source, course-private included) carrying each tag, by slug: what a merge or delete would touch.
 * @throws FORBIDDEN (403) unless a site admin.
 */
export async function tagUsageForAdmin(db: Database, caller: Caller): Promise<Record<string, number>> {
  requireAdmin(caller);
  return tagUsage(db);
}

/**
 * Adds a tag to the vocabulary.
 * @returns the new tag (no synonyms yet).
 * @throws FORBIDDEN (403) unless a site admin; TAG_WORD_TAKEN (409, `slug` or `name`) when either already means a tag.
 */
export async function createTag(db: Database, caller: Caller, input: z.infer<typeof createTagInput>): Promise<TagListing> {
  requireAdmin(caller);
  await requireFreeWord(db, input.slug, "slug");
  await requireFreeWord(db, input.name, "name");
  try {
    // The bank's memory lists every tag (../bank/catalogue.ts): a new one bumps the revision too.
    await db.batch([db.insert(tags).values({ slug: input.slug, name: input.name }), bumpProblemsRevision(db)]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("TAG_WORD_TAKEN", { field: "slug", message: `slug: ${input.slug} is already a tag` });
    throw err;
  }
  return { slug: input.slug, name: input.name, synonyms: [] };
}

/**
 * Renames a tag (its display name only: the slug is stable).
 * @throws FORBIDDEN (403); TAG_NOT_FOUND (404, `slug`); TAG_WORD_TAKEN (409, `name`) when the name means another tag.
 */
export async function renameTag(db: Database, caller: Caller, input: z.infer<typeof renameTagInput>): Promise<TagListing> {
  requireAdmin(caller);
  const tag = await requireTagBySlug(db, input.slug);
  await requireFreeWord(db, input.name, "name", tag);
  // The tag's own synonym equal to its new name would be a second way to say the same word: it goes.
  await db.batch([
    db.update(tags).set({ name: input.name }).where(eq(tags.id, tag.id)),
    db.delete(tagSynonyms).where(and(eq(tagSynonyms.tagId, tag.id), eq(tagSynonyms.synonym, normalizeTagWord(input.name)))),
    bumpProblemsRevision(db),
  ]);
  return listingOf(db, tag.slug);
}

/**
 * Adds a free word that means the tag (stored normalised: lower-case, single spaces).
 * @throws FORBIDDEN (403); TAG_NOT_FOUND (404, `slug`); TAG_WORD_TAKEN (409, `synonym`) when the word already means a tag (this one included).
 */
export async function addSynonym(db: Database, caller: Caller, input: z.infer<typeof synonymInput>): Promise<TagListing> {
  requireAdmin(caller);
  const tag = await requireTagBySlug(db, input.slug);
  await requireFreeWord(db, input.synonym, "synonym");
  try {
    // A synonym is a word the bank's tag filter takes: its memory (../bank/catalogue.ts) must see it.
    await db.batch([db.insert(tagSynonyms).values({ synonym: input.synonym, tagId: tag.id }), bumpProblemsRevision(db)]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("TAG_WORD_TAKEN", { field: "synonym", message: `synonym: ${JSON.stringify(input.synonym)} already means a tag` });
    throw err;
  }
  return listingOf(db, tag.slug);
}

/**
 * Removes one of the tag's synonyms.
 * @throws FORBIDDEN (403); TAG_NOT_FOUND (404, `slug`, or `synonym` when the word is not this tag's synonym).
 */
export async function removeSynonym(db: Database, caller: Caller, input: z.infer<typeof synonymInput>): Promise<TagListing> {
  requireAdmin(caller);
  const tag = await requireTagBySlug(db, input.slug);
  const [done] = await db.batch([db.delete(tagSynonyms).where(and(eq(tagSynonyms.tagId, tag.id), eq(tagSynonyms.synonym, input.synonym))), bumpProblemsRevision(db)]);
  if (done.rowsAffected === 0) {
    throw new AppError("TAG_NOT_FOUND", { field: "synonym", message: `synonym: ${JSON.stringify(input.synonym)} is not a synonym of ${tag.slug}` });
  }
  return listingOf(db, tag.slug);
}

/**
 * Merges tag `slug` into tag `into`, in one transaction: its problems get
 * `into` (a problem with both keeps one), its synonyms become `into`'s, its
 * slug and name become synonyms of `into` (so words, links and packages that
 * named it still resolve), and it is deleted. A problem may end with more than
 * 8 tags this way (authors' limit, not the vocabulary's).
 * @returns the tag merged into, with its synonyms.
 * @throws FORBIDDEN (403); TAG_NOT_FOUND (404, `slug` or `into`); BAD_INPUT (400, `into`) when both are the same tag.
 */
export async function mergeTag(db: Database, caller: Caller, input: z.infer<typeof mergeTagInput>): Promise<TagListing> {
  requireAdmin(caller);
  const from = await requireTagBySlug(db, input.slug);
  const into = await requireTagBySlug(db, input.into, "into");
  if (from.id === into.id) throw new AppError("BAD_INPUT", { field: "into", message: "into: A tag cannot be merged into itself" });
  const intoWords = new Set([into.slug, normalizeTagWord(into.name)]);
  const newSynonyms = [...new Set([from.slug, normalizeTagWord(from.name)])].filter((w) => !intoWords.has(w));
  await db.batch([
    db.run(sql`INSERT INTO problem_tags (problem_id, tag_id) SELECT problem_id, ${into.id} FROM problem_tags WHERE tag_id = ${from.id} ON CONFLICT DO NOTHING`),
    db.update(tagSynonyms).set({ tagId: into.id }).where(eq(tagSynonyms.tagId, from.id)),
    // The tag's own rows in problem_tags go with it (on delete cascade).
    db.delete(tags).where(eq(tags.id, from.id)),
    ...newSynonyms.map((synonym) => db.insert(tagSynonyms).values({ synonym, tagId: into.id }).onConflictDoNothing()),
    bumpProblemsRevision(db),
  ]);
  return listingOf(db, into.slug);
}

/**
 * Deletes a tag: its synonyms go, and every problem loses it.
 * @returns the deleted tag's slug.
 * @throws FORBIDDEN (403); TAG_NOT_FOUND (404, `slug`).
 */
export async function deleteTag(db: Database, caller: Caller, input: z.infer<typeof deleteTagInput>): Promise<{ slug: string }> {
  requireAdmin(caller);
  const tag = await requireTagBySlug(db, input.slug);
  await db.batch([db.delete(tags).where(eq(tags.id, tag.id)), bumpProblemsRevision(db)]);
  return { slug: tag.slug };
}
