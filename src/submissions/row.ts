/** A submission as stored (table `submissions`): what the queue claims and the judge writes. */
import type { submissions } from "../../db/schema.ts";

export type SubmissionRow = typeof submissions.$inferSelect;
