/** Shapes the client reads, inferred from the server's router so they cannot drift. */
import type { RouterOutputs } from "./trpc.ts";

export { CHECKER_LABELS, CHECKERS, DEFAULT_CHECKER, DIFFICULTIES, PROBLEM_LIMITS } from "../../../src/problems/limits.ts";

export type Problem = RouterOutputs["problems"]["list"][number];
export type Difficulty = Problem["difficulty"];
export type Checker = Problem["checker"];
export type PythonImplementation = Problem["pythonImplementation"];
