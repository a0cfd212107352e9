/**
 * The bank's tag reads (the spoiler-free setting is the account's: src/accounts/hide-tags.ts). Curating tags
 * (create, rename, merge, synonyms) and choosing a problem's tags are
 * src/problems/tags/'s.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/index.ts";
import type { BankTagCount } from "./shape.ts";

/**
 * Every tag with its number of public live problems (no course, not deleted, not staged), by name;
 * tags without such problems are listed with 0 (the vocabulary is small).
 */
export async function listTagCounts(db: Database): Promise<BankTagCount[]> {
  return db.all<BankTagCount>(sql`
    SELECT t.slug, t.name, count(p.id) AS problems
    FROM tags t
    LEFT JOIN problem_tags pt ON pt.tag_id = t.id
    LEFT JOIN problems p ON p.id = pt.problem_id AND p.course_id IS NULL AND p.deleted_at IS NULL AND p.staged_at IS NULL
    GROUP BY t.id ORDER BY t.name COLLATE NOCASE, t.slug`);
}
