/**
 * A package's `keywords` (the Kattis / ICPC format's problem.yaml) as topic
 * tags: each keyword resolved through the vocabulary (slug, name or synonym);
 * a keyword that means no tag is a warning naming it (never dropped silently,
 * never a failed import); beyond 8 tags, the rest are warned about too.
 */
import type { Database } from "../../../db/index.ts";
import { resolveWords } from "./vocabulary.ts";
import { MAX_TAGS_PER_PROBLEM, normalizeTagWord } from "./words.ts";

/**
 * @returns the tags' slugs in the keywords' order (each once, at most 8) and the import's warnings.
 */
export async function tagsFromKeywords(db: Database, keywords: readonly string[], source = "problem.yaml"): Promise<{ slugs: string[]; warnings: string[] }> {
  const found = await resolveWords(db, keywords);
  const slugs: string[] = [];
  const warnings: string[] = [];
  const unknown: string[] = [];
  const beyond: string[] = [];
  for (const k of keywords) {
    const hit = found.get(normalizeTagWord(k));
    if (!hit) unknown.push(k);
    else if (slugs.includes(hit.slug)) continue;
    else if (slugs.length >= MAX_TAGS_PER_PROBLEM) beyond.push(k);
    else slugs.push(hit.slug);
  }
  for (const k of unknown) warnings.push(`${source}: keyword ${JSON.stringify(k)} is not a topic tag here (nor a synonym of one): left out; an admin may add it to the vocabulary`);
  if (beyond.length) warnings.push(`${source}: a problem has at most ${MAX_TAGS_PER_PROBLEM} tags: keywords ${beyond.map((k) => JSON.stringify(k)).join(", ")} left out`);
  return { slugs, warnings };
}
