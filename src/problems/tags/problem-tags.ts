/**
 * A problem's tags: reading them for the problem shapes (src/problems/shape.ts
 * `tags`), and the statements that set them, which the problem writers
 * (src/problems/store.ts, ./staged.ts, the seed) put in their own batch so a
 * problem and its tags are written together or not at all.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import { problemTags, tags } from "../../../db/schema.ts";
import type { TagRef } from "./input.ts";

/**
 * The tags of `problemIds` (of every problem when absent), each problem's by
 * name (A→Z, case-insensitive); a problem without tags maps to [] when asked
 * for by id, and is absent otherwise.
 */
export async function readProblemTags(db: Database, problemIds?: readonly string[]): Promise<Map<string, TagRef[]>> {
  const out = new Map<string, TagRef[]>((problemIds ?? []).map((id) => [id, []]));
  if (problemIds && !problemIds.length) return out;
  const q = db
    .select({ problemId: problemTags.problemId, slug: tags.slug, name: tags.name })
    .from(problemTags)
    .innerJoin(tags, eq(tags.id, problemTags.tagId));
  const rows = await (problemIds ? q.where(problemIds.length === 1 ? eq(problemTags.problemId, problemIds[0]!) : inArray(problemTags.problemId, [...problemIds])) : q).orderBy(
    asc(problemTags.problemId),
    asc(sql`lower(${tags.name})`),
  );
  for (const r of rows) {
    const list = out.get(r.problemId);
    if (list) list.push({ slug: r.slug, name: r.name });
    else out.set(r.problemId, [{ slug: r.slug, name: r.name }]);
  }
  return out;
}

/** Tags as shapes show them: by name (A→Z, ASCII case-insensitive, as `readProblemTags` orders them), without their ids. */
export function tagsByName(list: readonly TagRef[]): TagRef[] {
  const key = (t: TagRef) => t.name.toLowerCase();
  return list.map(({ slug, name }) => ({ slug, name })).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** One problem's tags, by name. */
export async function tagsOfProblem(db: Database, problemId: string): Promise<TagRef[]> {
  return (await readProblemTags(db, [problemId])).get(problemId) ?? [];
}

/**
 * The statements that give a new problem its tags (none for no tags); for the
 * caller's batch after the problem's insert.
 */
export function addTagsStatements(db: Database, problemId: string, tagIds: readonly string[]) {
  return tagIds.length ? [db.insert(problemTags).values(tagIds.map((tagId) => ({ problemId, tagId }))).onConflictDoNothing()] : [];
}

/** The statements that replace a problem's tags with `tagIds`; for the caller's batch. */
export function replaceTagsStatements(db: Database, problemId: string, tagIds: readonly string[]) {
  return [db.delete(problemTags).where(eq(problemTags.problemId, problemId)), ...addTagsStatements(db, problemId, tagIds)];
}

/** The statement that gives problem `copyId` the tags of problem `sourceId` (a copy keeps its tags); for the caller's batch. */
export function copyTagsStatement(db: Database, sourceId: string, copyId: string) {
  return db.run(sql`INSERT INTO problem_tags (problem_id, tag_id) SELECT ${copyId}, tag_id FROM problem_tags WHERE problem_id = ${sourceId} ON CONFLICT DO NOTHING`);
}
