/**
 * What the vocabulary's doors accept, validated by zod (a 400 names the
 * field: `slug: A tag: lower-case letters, digits and single dashes`), and
 * the tag as every reader gets it.
 */
import { z } from "zod";
import { tagSlugField } from "../bank/shape.ts";
import { MAX_TAGS_PER_PROBLEM, normalizeTagWord, TAG_WORD_MAX_CHARS } from "./words.ts";

/** A tag as problems and lists show it: its stable slug and its stored (English) name. */
export interface TagRef {
  slug: string;
  name: string;
}

/** A tag of the vocabulary with the free words that mean it (normalised, A→Z). */
export interface TagListing extends TagRef {
  synonyms: string[];
}

const typeError = (iss: { input: unknown }) => (iss.input === undefined || iss.input === null ? "Required" : "Must be text");

/** A free word: trimmed, 1–60 characters (compared normalised: ./words.ts). */
export const tagWordField = z
  .string({ error: typeError })
  .trim()
  .min(1, { error: "Required" })
  .max(TAG_WORD_MAX_CHARS, { error: `At most ${TAG_WORD_MAX_CHARS} characters` });

/** A tag's slug as a door receives it (required). */
export const requiredSlug = z.string({ error: typeError }).pipe(tagSlugField);

/** A tag's display name: trimmed, inner spaces single, 1–60 characters. */
export const tagNameField = tagWordField.transform((s) => s.replace(/\s+/g, " "));

/** A synonym: stored normalised (lower-case, single spaces). */
export const synonymField = tagWordField.transform(normalizeTagWord);

/** A problem's tags as an author sends them: slugs or free words (resolved through synonyms), at most 8. */
export const problemTagsField = z
  .array(tagWordField, { error: "Must be a list of tags" })
  .max(MAX_TAGS_PER_PROBLEM, { error: `At most ${MAX_TAGS_PER_PROBLEM} tags` });

export const resolveTagInput = z.object({ word: tagWordField });
export const createTagInput = z.object({ slug: requiredSlug, name: tagNameField });
export const renameTagInput = z.object({ slug: requiredSlug, name: tagNameField });
export const synonymInput = z.object({ slug: requiredSlug, synonym: synonymField });
export const mergeTagInput = z.object({ slug: requiredSlug, into: requiredSlug });
export const deleteTagInput = z.object({ slug: requiredSlug });
