/** Shapes the client reads, inferred from the server's router so they cannot drift. */
import type { RouterOutputs } from "./trpc.ts";

export type Problem = RouterOutputs["problems"]["list"][number];
export type Difficulty = Problem["difficulty"];
export type Checker = Problem["checker"];

export const DIFFICULTIES: readonly Difficulty[] = ["easy", "medium", "hard"];

/** Languages we judge (spec §9): id and display name; cpp is the default. */
export const LANGUAGES = [
  { id: "cpp", name: "C++" },
  { id: "java", name: "Java" },
  { id: "py", name: "Python" },
] as const;
export type LanguageId = (typeof LANGUAGES)[number]["id"];
export const DEFAULT_LANGUAGE: LanguageId = "cpp";

export function isLanguageId(value: string): value is LanguageId {
  return LANGUAGES.some((l) => l.id === value);
}
