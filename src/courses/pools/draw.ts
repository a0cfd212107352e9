/**
 * A problem per student from a pool (issue 37 §3; decision 077): an
 * assignment's problems are grouped into slots; a slot holding several
 * problems is a pool, and each student is given one of them.
 *
 * The draw is a pure function of (assignment id, slot, user id): SHA-256 of
 * `"codearena-pool-v1\0" + assignmentId + "\0" + slot + "\0" + userId`, its
 * first 6 bytes read as an unsigned 48-bit integer, modulo the pool's size;
 * the pool's problems are taken in problem-id order, so the order staff list
 * them in changes nothing. Same student, same assignment, same pool: same
 * problem, on every server, whoever joins or leaves the course. Counts are
 * even in expectation (each problem with probability 1/k, the bias of a 48-bit
 * modulo below 2^-40); over n students a problem's count has standard
 * deviation sqrt(n·(1/k)·(1-1/k)) (≈ 14.9 for n = 1000, k = 3).
 */
import { createHash } from "node:crypto";

/** One problem of an assignment with the slot it fills. */
export interface SlottedProblem {
  problemId: string;
  slot: number;
}

/** A slot: its number and its problems (one for a plain slot, several for a pool), in problem-id order. */
export interface Slot {
  slot: number;
  problemIds: string[];
}

/** The slots of an assignment's problems, by slot number. */
export function slotsOf(list: readonly SlottedProblem[]): Slot[] {
  const by = new Map<number, string[]>();
  for (const p of list) by.set(p.slot, [...(by.get(p.slot) ?? []), p.problemId]);
  return [...by.entries()].sort(([a], [b]) => a - b).map(([slot, ids]) => ({ slot, problemIds: [...ids].sort() }));
}

/**
 * The index (0..size-1) drawn for a student in one slot.
 * @example drawIndex("a1", 0, "u1", 3) // the same number in 0..2 every call
 */
export function drawIndex(assignmentId: string, slot: number, userId: string, size: number): number {
  if (size <= 1) return 0;
  const digest = createHash("sha256").update(`codearena-pool-v1\0${assignmentId}\0${slot}\0${userId}`).digest();
  return digest.readUIntBE(0, 6) % size;
}

/** The problem of `s` given to the student. */
export function drawnProblem(assignmentId: string, s: Slot, userId: string): string {
  return s.problemIds[drawIndex(assignmentId, s.slot, userId, s.problemIds.length)]!;
}

/** The problems given to one student: one per slot, in slot order. */
export function drawFor(assignmentId: string, list: readonly SlottedProblem[], userId: string): string[] {
  return slotsOf(list).map((s) => drawnProblem(assignmentId, s, userId));
}

/** Whether the student was given `problemId` (true for a problem alone in its slot; false when not in the assignment). */
export function isDrawn(assignmentId: string, list: readonly SlottedProblem[], userId: string, problemId: string): boolean {
  const p = list.find((x) => x.problemId === problemId);
  if (!p) return false;
  const s = slotsOf(list).find((x) => x.slot === p.slot)!;
  return drawnProblem(assignmentId, s, userId) === problemId;
}

/**
 * Labels for an assignment's problems by slot: "1", "2"… for a slot of one
 * problem; "2a", "2b"… for the problems of a pool (letters in the listed
 * order). Similarity reports (src/similarity/scope.ts) compare each problem's
 * programs, so a pool's problems are compared among the students given the
 * same problem, and the label says which slot they fill.
 */
export function slotLabels(list: readonly SlottedProblem[]): Map<string, string> {
  const slots = [...new Set(list.map((p) => p.slot))].sort((a, b) => a - b);
  const out = new Map<string, string>();
  for (const [i, slot] of slots.entries()) {
    const members = list.filter((p) => p.slot === slot);
    members.forEach((p, j) => out.set(p.problemId, members.length > 1 ? `${i + 1}${String.fromCharCode(97 + (j % 26))}` : String(i + 1)));
  }
  return out;
}
