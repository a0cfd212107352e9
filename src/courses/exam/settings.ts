/**
 * An assignment's timed window and exam access rules as staff set them
 * (fields of `assignments.create` / `assignments.update`, POST/PATCH
 * /api/assignments), and as the API shows them.
 */
import { z } from "zod";
import { hashPassword } from "../../accounts/user.ts";
import { EXAM_LIST_MAX, isCidr } from "./rules.ts";
import { needsStart, type AssignmentRow } from "./windows.ts";

const cidrList = z
  .array(z.string({ error: "Must be text" }).trim().refine(isCidr, { error: "Must be an IPv4 or IPv6 address or CIDR, e.g. 10.1.0.0/16 or 2001:db8::/48" }), {
    error: "Must be a list of CIDRs",
  })
  .max(EXAM_LIST_MAX, { error: `At most ${EXAM_LIST_MAX} ranges` });
const sebKeys = z
  .array(z.string({ error: "Must be text" }).trim().regex(/^[0-9a-fA-F]{64}$/, { error: "Must be a Config Key: 64 hexadecimal digits" }), { error: "Must be a list of Config Keys" })
  .max(EXAM_LIST_MAX, { error: `At most ${EXAM_LIST_MAX} keys` });

/** The exam fields of an assignment's input, each optional (absent: unchanged; null or [] or false: off). */
export const examFields = {
  /** Minutes each student gets from Start, 1..1440; null: no timed window. */
  timeLimitMinutes: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(1, { error: "At least 1" }).max(1440, { error: "At most 1440" }).nullable().optional(),
  accessCidrs: cidrList.nullable().optional(),
  sebConfigKeys: sebKeys.nullable().optional(),
  /** The proctor's password (4..200 characters), stored hashed; null: none. */
  proctorPassword: z.string({ error: "Must be text" }).min(4, { error: "At least 4 characters" }).max(200, { error: "At most 200 characters" }).nullable().optional(),
  oneSession: z.boolean({ error: "Must be true or false" }).optional(),
  lockDown: z.boolean({ error: "Must be true or false" }).optional(),
};

/**
 * The access rules a contest may carry (checked on every read and write of it, the jury excepted): address
 * ranges and SEB keys; a proctor's password, one session and lock-down, which need each participant's entry
 * (src/contests/exam.ts; decision 081). A contest has no timed window of its own: its clock is the window.
 */
export const contestExamFields = {
  accessCidrs: examFields.accessCidrs,
  sebConfigKeys: examFields.sebConfigKeys,
  proctorPassword: examFields.proctorPassword,
  oneSession: examFields.oneSession,
  lockDown: examFields.lockDown,
};

type ExamInput = { [K in keyof typeof examFields]?: z.infer<(typeof examFields)[K]> };

/** The columns to write for the exam fields given (the password hashed with the account passwords' argon2id). */
export async function examColumns(input: ExamInput): Promise<Partial<Pick<AssignmentRow, "timeLimitMinutes" | "accessCidrs" | "sebConfigKeys" | "proctorPasswordHash" | "oneSession" | "lockDown">>> {
  const out: Awaited<ReturnType<typeof examColumns>> = {};
  if (input.timeLimitMinutes !== undefined) out.timeLimitMinutes = input.timeLimitMinutes;
  if (input.accessCidrs !== undefined) out.accessCidrs = input.accessCidrs?.length ? input.accessCidrs : null;
  if (input.sebConfigKeys !== undefined) out.sebConfigKeys = input.sebConfigKeys?.length ? input.sebConfigKeys.map((k) => k.toLowerCase()) : null;
  if (input.proctorPassword !== undefined) out.proctorPasswordHash = input.proctorPassword === null ? null : await hashPassword(input.proctorPassword);
  if (input.oneSession !== undefined) out.oneSession = input.oneSession;
  if (input.lockDown !== undefined) out.lockDown = input.lockDown;
  return out;
}

/** Splits an assignment input into its exam fields and the rest. */
export function splitExamInput<T extends Record<string, unknown>>(input: T): { exam: ExamInput; rest: Omit<T, keyof typeof examFields> } {
  const exam: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) (k in examFields ? exam : rest)[k] = v;
  return { exam: exam as ExamInput, rest: rest as Omit<T, keyof typeof examFields> };
}

/** The exam settings as the API shows them: staff see the ranges and how many SEB keys; students see which rules apply. */
export interface ExamShape {
  timeLimitMinutes: number | null;
  needsStart: boolean;
  passwordRequired: boolean;
  sebRequired: boolean;
  addressRestricted: boolean;
  oneSession: boolean;
  lockDown: boolean;
  /** Staff only (null for students). */
  accessCidrs: string[] | null;
  sebConfigKeyCount: number | null;
}

/** The rules an assignment or a contest carries, as the API shows them (ranges and key count to staff or the jury only). */
export function rulesShape(
  r: Pick<AssignmentRow, "proctorPasswordHash" | "sebConfigKeys" | "accessCidrs" | "oneSession" | "lockDown">,
  staff: boolean,
): Omit<ExamShape, "timeLimitMinutes" | "needsStart"> {
  return {
    passwordRequired: r.proctorPasswordHash !== null,
    sebRequired: Boolean(r.sebConfigKeys?.length),
    addressRestricted: Boolean(r.accessCidrs?.length),
    oneSession: r.oneSession,
    lockDown: r.lockDown,
    accessCidrs: staff ? (r.accessCidrs ?? []) : null,
    sebConfigKeyCount: staff ? (r.sebConfigKeys?.length ?? 0) : null,
  };
}

export function examShape(a: AssignmentRow, staff: boolean): ExamShape {
  return { timeLimitMinutes: a.timeLimitMinutes, needsStart: needsStart(a), ...rulesShape(a, staff) };
}
