/** The scrape-time facts of a running server: the judge queue (from the database) and the compile cache. */
import { sql } from "drizzle-orm";
import type { Services } from "../context.ts";
import type { LiveSources } from "./metrics.ts";

export interface QueueFacts {
  queued: number;
  oldestQueuedAgeSeconds: number;
  inProgress: number;
}

/** Queue length, the oldest queued submission's age, and jobs in progress: one query. */
export async function queueFacts(services: Pick<Services, "db">, now = Date.now()): Promise<QueueFacts> {
  const [row] = await services.db.all<{ queued: number; oldest: number | null; running: number }>(sql`
    SELECT sum(status = 'queued') AS queued,
           min(CASE WHEN status = 'queued' THEN created_at END) AS oldest,
           sum(status IN ('compiling', 'running')) AS running
      FROM submissions WHERE status IN ('queued', 'compiling', 'running')`);
  return {
    queued: Number(row?.queued ?? 0),
    oldestQueuedAgeSeconds: row?.oldest ? Math.max(0, (now - Number(row.oldest)) / 1000) : 0,
    inProgress: Number(row?.running ?? 0),
  };
}

export function liveSources(services: Services): LiveSources {
  return {
    queue: () => queueFacts(services),
    compileCache: () => services.judge?.cache.stats ?? null,
  };
}
