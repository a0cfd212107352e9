/**
 * Verdict codes and their full names (design.md, "Judging happens on the
 * server"), shared by the server, the AI review and the client. No imports:
 * the client bundles this file as it is.
 */
export const VERDICT_NAMES = {
  AC: "Accepted",
  WA: "Wrong Answer",
  TLE: "Time Limit Exceeded",
  MLE: "Memory Limit Exceeded",
  RE: "Runtime Error",
  CE: "Compilation Error",
  OLE: "Output Limit Exceeded",
  IE: "Internal Error",
} as const;

export type VerdictCode = keyof typeof VERDICT_NAMES;
