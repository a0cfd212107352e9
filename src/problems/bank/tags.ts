/**
 * The bank's tag reads (the spoiler-free setting is the account's: src/accounts/hide-tags.ts). Curating tags
 * (create, rename, merge, synonyms) and choosing a problem's tags are
 * src/problems/tags/'s.
 */
import type { Database } from "../../../db/index.ts";
import { problemsRevision } from "../list-cache.ts";
import { catalogueAt } from "./catalogue.ts";
import type { BankTagCount } from "./shape.ts";

/**
 * Every tag with its number of public live problems (no course, not deleted, not staged), by name
 * (case-folded as SQLite's NOCASE), then slug; tags without such problems are listed with 0 (the
 * vocabulary is small). From the bank's memory (./catalogue.ts): one primary-key read of
 * `revisions('problems')` per call, the counts themselves once per revision.
 */
export async function listTagCounts(db: Database): Promise<BankTagCount[]> {
  const catalogue = await catalogueAt(db, await problemsRevision(db));
  return catalogue.tagCounts.map((t) => ({ ...t }));
}
