/** Shapes and the grade arithmetic the review screens share (the server's rules: src/courses/grading/score.ts). */
import type { RouterOutputs } from "../lib/trpc.ts";

export type Review = RouterOutputs["grading"]["review"];
export type RubricItem = Review["rubric"]["items"][number];
export type LineComment = { line: number; text: string };

/**
 * The grade the server will compute for these picks (shown live while staff pick):
 * override, else judge + items (`add`) or items alone (`replace`), clamped to [0, max].
 */
export function previewPoints(mode: "add" | "replace", judge: number, itemPoints: number[], overridePoints: number | null, max: number): number {
  const items = itemPoints.reduce((s, p) => s + p, 0);
  const raw = overridePoints ?? (mode === "add" ? judge + items : items);
  return Math.round(Math.min(max, Math.max(0, raw)) * 100) / 100;
}

/** Points with their sign: "+5", "-10", "0". */
export function signed(points: number): string {
  return points > 0 ? `+${points}` : String(points);
}
