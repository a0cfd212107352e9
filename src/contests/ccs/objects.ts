/**
 * Our rows as the Contest API's objects (ccs-specs 2023-06, "Interface
 * specification"): one function per object type, pure. Ids: a contest is
 * its short name; problems, teams, submissions and clarifications keep our
 * ids (20 base32 characters, valid Contest API IDs); a submission's one
 * judgement has the submission's id; a run is `<submission>-<ordinal>`;
 * an organization is `org-` and a hash of its name.
 */
import { createHash } from "node:crypto";
import { LANGUAGES, type LanguageId } from "../../../isolate/languages/index.ts";
import type { VerdictCode } from "../../verdicts.ts";
import { durationMs, endMs, freezeContestMs, phaseAt } from "../clock.ts";
import { timesOf, type ContestRow } from "../access.ts";
import { submissionScore } from "../scoring.ts";
import type { TeamRow } from "../teams.ts";
import { absTime, absTimeOrNull, relTime } from "./format.ts";

/** Our verdicts as the Contest API's judgement types (RE is its RTE; IE its JE, judging error). */
export const JUDGEMENT_TYPE_OF: Record<VerdictCode, string> = { AC: "AC", WA: "WA", TLE: "TLE", MLE: "MLE", RE: "RTE", CE: "CE", OLE: "OLE", IE: "JE" };

const JUDGEMENT_TYPES = [
  { id: "AC", name: "Accepted", penalty: false, solved: true },
  { id: "WA", name: "Wrong Answer", penalty: true, solved: false },
  { id: "TLE", name: "Time Limit Exceeded", penalty: true, solved: false },
  { id: "MLE", name: "Memory Limit Exceeded", penalty: true, solved: false },
  { id: "RTE", name: "Run-Time Error", penalty: true, solved: false },
  { id: "OLE", name: "Output Limit Exceeded", penalty: true, solved: false },
  { id: "CE", name: "Compile Error", penalty: false, solved: false },
  { id: "JE", name: "Judging Error", penalty: false, solved: false },
] as const;

export function contestObject(c: ContestRow) {
  const freeze = c.freezeMinutes && c.freezeMinutes > 0 ? c.freezeMinutes * 60_000 : null;
  return {
    id: c.shortName,
    name: c.title,
    formal_name: c.title,
    start_time: absTime(c.startsAt.getTime()),
    countdown_pause_time: null,
    duration: relTime(durationMs(timesOf(c))),
    scoreboard_freeze_duration: freeze === null ? null : relTime(Math.min(freeze, durationMs(timesOf(c)))),
    scoreboard_type: c.scoring === "icpc" ? "pass-fail" : "score",
    // Integer minutes in the log; ./release.ts writes it as the served release does.
    ...(c.scoring === "icpc" ? { penalty_time: c.penaltyMinutes } : {}),
  };
}

export function judgementTypeObjects() {
  return JUDGEMENT_TYPES.map((t) => ({ ...t }));
}

/** The languages offered, with their Kattis/ICPC codes as ids. */
export function languageObjects(ids: readonly LanguageId[]) {
  return ids.map((id) => {
    const l = LANGUAGES[id];
    // A language sharing its extension with another (PyPy's .py) names the one its source files get.
    const extensions = l.package.extensions.length ? [...l.package.extensions] : [l.sourceFileName("").split(".").pop()!];
    return { id: l.package.code, name: l.displayName, entry_point_required: false, extensions };
  });
}

export interface ContestProblemInfo {
  problemId: string;
  label: string;
  color: string | null;
  ordinal: number;
  title: string;
  timeLimitMs: number;
  /** Sample plus hidden tests. */
  testCount: number;
}

export function problemObject(c: ContestRow, p: ContestProblemInfo) {
  return {
    id: p.problemId,
    label: p.label,
    name: p.title,
    ordinal: p.ordinal,
    // The schema types rgb as a string: absent, not null, when the contest gives the problem no colour.
    ...(p.color ? { rgb: p.color } : {}),
    time_limit: Math.round(p.timeLimitMs) / 1000,
    test_data_count: p.testCount,
    ...(c.scoring === "ioi" ? { max_score: 100 } : {}),
  };
}

/** An organization's id: stable for a name. */
export function organizationId(name: string): string {
  return `org-${createHash("sha256").update(name.trim().toLowerCase()).digest("hex").slice(0, 16)}`;
}

export function organizationObject(name: string) {
  return { id: organizationId(name), icpc_id: null, name: name.trim(), formal_name: name.trim() };
}

export function teamObject(t: TeamRow) {
  return {
    id: t.id,
    icpc_id: null,
    name: t.name,
    // Required by both releases; our teams have no seat numbers, and the id is stable and unique.
    label: t.id,
    display_name: t.name,
    organization_id: t.organization ? organizationId(t.organization) : null,
    group_ids: [] as string[],
    hidden: false,
  };
}

/** The state object at `nowMs` (ccs-specs: started < frozen < ended < thawed; finalized after ended). */
export function stateObject(c: ContestRow, nowMs: number) {
  const t = timesOf(c);
  const started = nowMs >= t.startsAtMs ? t.startsAtMs : null;
  const freeze = freezeContestMs(t);
  const frozenAt = freeze === null ? null : t.startsAtMs + freeze;
  const frozen = frozenAt !== null && nowMs >= frozenAt ? frozenAt : null;
  const ended = phaseAt(t, nowMs) === "over" ? endMs(t) : null;
  const thawed = frozen !== null && ended !== null && c.unfrozenAt ? Math.max(c.unfrozenAt.getTime(), ended + 1) : null;
  const finalized = ended !== null && c.finalizedAt ? Math.max(c.finalizedAt.getTime(), ended + 1) : null;
  const endOfUpdates = finalized !== null && (frozen === null || thawed !== null) ? Math.max(finalized, thawed ?? 0) + 1 : null;
  return {
    started: absTimeOrNull(started),
    frozen: absTimeOrNull(frozen),
    ended: absTimeOrNull(ended),
    thawed: absTimeOrNull(thawed),
    finalized: absTimeOrNull(finalized),
    end_of_updates: absTimeOrNull(endOfUpdates),
  };
}

/** A contest submission as the API sees it (the columns read). */
export interface CcsSubmissionRow {
  id: string;
  teamId: string;
  problemId: string;
  language: LanguageId;
  createdAt: Date;
  status: string;
  verdict: VerdictCode | null;
  claimedAt: Date | null;
  judgedAt: Date | null;
  timeMs: number | null;
  hiddenPassed: number;
  hiddenTotal: number;
}

/**
 * A submission as stored in the change log: without `files` (who may fetch
 * them depends on the reader: ./api.ts `withFiles` adds them when read).
 */
export function submissionObject(s: CcsSubmissionRow, startMs: number) {
  return {
    id: s.id,
    language_id: LANGUAGES[s.language].package.code,
    problem_id: s.problemId,
    team_id: s.teamId,
    time: absTime(s.createdAt.getTime()),
    contest_time: relTime(s.createdAt.getTime() - startMs),
    entry_point: null,
  };
}

/** The submission's judgement, or null before judging started. */
export function judgementObject(c: ContestRow, s: CcsSubmissionRow, startMs: number) {
  const started = s.claimedAt?.getTime() ?? s.judgedAt?.getTime() ?? null;
  if (started === null) return null;
  const done = s.status === "done" && s.verdict !== null && s.judgedAt !== null;
  const end = done ? Math.max(s.judgedAt!.getTime(), started) : null;
  return {
    id: s.id,
    submission_id: s.id,
    judgement_type_id: done ? JUDGEMENT_TYPE_OF[s.verdict!] : null,
    ...(c.scoring === "ioi" ? { score: done ? submissionScore(s) : 0 } : {}),
    start_time: absTime(started),
    start_contest_time: relTime(started - startMs),
    end_time: absTimeOrNull(end),
    end_contest_time: end === null ? null : relTime(end - startMs),
    max_run_time: done && s.timeMs !== null ? Math.round(s.timeMs) / 1000 : null,
  };
}

export interface CcsRunRow {
  index: number;
  verdict: VerdictCode;
  timeMs: number;
}

export function runObject(s: CcsSubmissionRow, r: CcsRunRow, startMs: number) {
  const at = s.judgedAt?.getTime() ?? s.createdAt.getTime();
  return {
    id: `${s.id}-${r.index + 1}`,
    judgement_id: s.id,
    ordinal: r.index + 1,
    judgement_type_id: JUDGEMENT_TYPE_OF[r.verdict],
    time: absTime(at),
    contest_time: relTime(at - startMs),
    run_time: Math.round(r.timeMs) / 1000,
  };
}

export interface CcsClarificationRow {
  id: string;
  fromTeamId: string | null;
  toTeamId: string | null;
  replyToId: string | null;
  problemId: string | null;
  text: string;
  createdAt: Date;
}

export function clarificationObject(c: ContestRow, r: CcsClarificationRow) {
  return {
    id: r.id,
    from_team_id: r.fromTeamId,
    to_team_id: r.toTeamId,
    reply_to_id: r.replyToId,
    problem_id: r.problemId,
    text: r.text,
    time: absTime(r.createdAt.getTime()),
    contest_time: relTime(r.createdAt.getTime() - c.startsAt.getTime()),
  };
}
