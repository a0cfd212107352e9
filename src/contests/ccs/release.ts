/**
 * The releases of the ICPC Contest API this server speaks, and what differs
 * between them. One implementation (./objects.ts writes each object once, in
 * a release-neutral shape, into the change log; ./api.ts and ./event-feed.ts
 * read it) and, here, the small mapping from that shape to a release's:
 *
 * | | 2023-06 | 2026-01 |
 * | --- | --- | --- |
 * | `contest.penalty_time` | integer, minutes | RELTIME |
 * | scoreboard `score.total_time`, problem `time` | integer, minutes | RELTIME |
 * | scoreboard `score.time` | optional (not sent) | RELTIME, null iff nothing solved (required by its schema) |
 * | `judgements.current` | absent | `true` (a rejudge replaces the judgement here) |
 *
 * Both releases: `penalty_time` only for `pass-fail` contests, `rgb`/`color`
 * only when set (strings, never null), `entry_point_name` only with
 * `entry_point_required`, a team's `label` (its id when the log's object
 * predates it). Applying these at read time also repairs objects logged by
 * earlier versions of this server.
 *
 * Which release is served: the CCS_API_VERSION setting (src/config.ts),
 * 2023-06 by default. Checked against the specification's own JSON schemas
 * (github.com/icpc/ccs-specs `json-schema/` at each release) by
 * tests/contests/ccs-api.test.ts.
 */
import { relTime } from "./format.ts";

/** The releases served, oldest first; the first is the default. */
export const CCS_RELEASES = ["2023-06", "2026-01"] as const;
export type CcsRelease = (typeof CCS_RELEASES)[number];

/** Where each release is written down (its `version_url`). */
export const CCS_VERSION_URL: Record<CcsRelease, string> = {
  "2023-06": "https://ccs-specs.icpc.io/2023-06/contest_api",
  "2026-01": "https://ccs-specs.icpc.io/2026-01/contest_api",
};

type Obj = Record<string, unknown>;

/** A whole number of minutes as the release writes a duration of minutes: an integer (2023-06) or a RELTIME (2026-01). */
export function minutesIn(release: CcsRelease, minutes: number): number | string {
  return release === "2023-06" ? minutes : relTime(minutes * 60_000);
}

/** Removes the keys whose value is null or undefined (for properties a schema types as a bare string). */
function dropNull(o: Obj, keys: readonly string[]): Obj {
  const out = { ...o };
  for (const k of keys) if (out[k] === null || out[k] === undefined) delete out[k];
  return out;
}

/** Per event type: the logged object as the release shows it. */
const SHAPES: Partial<Record<string, (o: Obj, release: CcsRelease) => Obj>> = {
  contest(o, release) {
    const out = dropNull(o, ["formal_name"]);
    // The spec: penalty_time is for pass-fail only (its schema forbids it on a score contest).
    if (out.scoreboard_type !== "pass-fail" || typeof out.penalty_time !== "number") delete out.penalty_time;
    else out.penalty_time = minutesIn(release, out.penalty_time);
    return out;
  },
  languages(o) {
    if (o.entry_point_required === true) return o;
    // The schema's else-branch: no entry_point_name at all unless one is required.
    const { entry_point_name: _, ...rest } = o;
    return rest;
  },
  problems(o) {
    return dropNull(o, ["rgb", "color"]);
  },
  teams(o) {
    return { ...o, label: typeof o.label === "string" ? o.label : o.id };
  },
  judgements(o, release) {
    return release === "2023-06" ? o : { ...o, current: true };
  },
};

/**
 * One logged object (an event's `data`, or an element of a collection) in the
 * release's shape; null (a deletion) stays null.
 * @param type the event type (`contest`, `teams`, ...).
 */
export function inRelease(release: CcsRelease, type: string, data: unknown): unknown {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return data;
  const shape = SHAPES[type];
  return shape ? shape(data as Obj, release) : data;
}
