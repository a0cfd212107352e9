/**
 * Topic tags (src/problems/tags): the vocabulary for everyone signed in, its
 * curation for site admins only (403 otherwise; docs/permissions.md "Site
 * roles"). A thin door: validate, call, return.
 */
import { addSynonym, createTag, deleteTag, mergeTag, removeSynonym, renameTag, tagUsageForAdmin } from "../../problems/tags/curation.ts";
import { createTagInput, deleteTagInput, mergeTagInput, renameTagInput, resolveTagInput, synonymInput, type TagListing, type TagRef } from "../../problems/tags/input.ts";
import { listTags, resolveTag } from "../../problems/tags/vocabulary.ts";
import { protectedProcedure, router } from "../init.ts";

export const tagsRouter = router({
  /** Every tag by name, with its synonyms (signed in). */
  list: protectedProcedure.query(({ ctx }): Promise<TagListing[]> => listTags(ctx.db)),
  /** The tag a free word means (slug, name or synonym). @throws TAG_NOT_FOUND (404, `word`). */
  resolve: protectedProcedure.input(resolveTagInput).query(({ ctx, input }): Promise<TagRef> => resolveTag(ctx.db, input.word)),
  /** Live problems (every source) carrying each tag, by slug. @throws FORBIDDEN (403) unless a site admin. */
  usage: protectedProcedure.query(({ ctx }): Promise<Record<string, number>> => tagUsageForAdmin(ctx.db, ctx.user)),
  /** @throws FORBIDDEN (403); TAG_WORD_TAKEN (409, `slug` or `name`). */
  create: protectedProcedure.input(createTagInput).mutation(({ ctx, input }) => createTag(ctx.db, ctx.user, input)),
  /** The name only (the slug is stable). @throws FORBIDDEN (403); TAG_NOT_FOUND (404); TAG_WORD_TAKEN (409, `name`). */
  rename: protectedProcedure.input(renameTagInput).mutation(({ ctx, input }) => renameTag(ctx.db, ctx.user, input)),
  /** @throws FORBIDDEN (403); TAG_NOT_FOUND (404); TAG_WORD_TAKEN (409, `synonym`). */
  addSynonym: protectedProcedure.input(synonymInput).mutation(({ ctx, input }) => addSynonym(ctx.db, ctx.user, input)),
  /** @throws FORBIDDEN (403); TAG_NOT_FOUND (404, `slug` or `synonym`). */
  removeSynonym: protectedProcedure.input(synonymInput).mutation(({ ctx, input }) => removeSynonym(ctx.db, ctx.user, input)),
  /** `slug` into `into`: its problems and synonyms move, its slug and name become synonyms. @throws FORBIDDEN (403); TAG_NOT_FOUND (404); BAD_INPUT (400, `into`: itself). */
  merge: protectedProcedure.input(mergeTagInput).mutation(({ ctx, input }) => mergeTag(ctx.db, ctx.user, input)),
  /** Problems lose it; its synonyms go. @throws FORBIDDEN (403); TAG_NOT_FOUND (404). */
  delete: protectedProcedure.input(deleteTagInput).mutation(({ ctx, input }) => deleteTag(ctx.db, ctx.user, input)),
});
