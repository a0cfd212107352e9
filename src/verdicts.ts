/**
 * The standard verdict codes and their full names, defined once for the
 * database, the judge, the AI review and the client. IE (the system's fault)
 * is never shown as WA. No imports: the client bundles this file as it is.
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

/** Every verdict code, in the order above (database enums take it as is). */
export const VERDICTS = Object.keys(VERDICT_NAMES) as unknown as readonly [VerdictCode, ...VerdictCode[]];
