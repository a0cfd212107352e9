/**
 * What the contest routes take (zod, every field bounded) and answer.
 */
import { contestExamFields } from "../courses/exam/settings.ts";
import { z } from "zod";
import { LANGUAGE_IDS } from "../../isolate/languages/index.ts";
import { CODE_MAX_BYTES } from "../judge/limits.ts";
import { idField, instantField, requiredBlock, requiredText } from "../lib/fields.ts";
import { listInWords } from "../lib/words.ts";

/** Most problems in a contest (A–Z). */
export const CONTEST_MAX_PROBLEMS = 26;
/** Longest contest: a week, in minutes. */
export const CONTEST_MAX_MINUTES = 7 * 24 * 60;
/** Shortest registration code a jury may choose, characters (a made one is as long: src/courses/courses.ts newInviteCode, about 40 bits). */
export const REGISTRATION_CODE_MIN_CHARS = 8;
/** Longest clarification text, characters. */
export const CLARIFICATION_MAX_CHARS = 4000;

const problemEntry = z.object({
  problemId: idField(),
  label: z.string({ error: "Required" }).trim().regex(/^[A-Za-z0-9]{1,10}$/, { error: "1 to 10 letters or digits" }),
  color: z
    .string({ error: "Must be text" })
    .regex(/^#[0-9a-fA-F]{6}$/, { error: "Must be a colour like #1e90ff" })
    .transform((c) => c.toLowerCase())
    .nullish(),
});

const fields = {
  title: requiredText(200),
  shortName: z
    .string({ error: "Required" })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9_-]{0,35}$/, { error: "1 to 36 lower-case letters, digits, - or _, starting with a letter or digit" }),
  startsAt: instantField(),
  durationMinutes: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(1, { error: "At least 1" }).max(CONTEST_MAX_MINUTES, { error: `At most ${CONTEST_MAX_MINUTES}` }),
  freezeMinutes: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(0, { error: "At least 0" }).max(CONTEST_MAX_MINUTES, { error: `At most ${CONTEST_MAX_MINUTES}` }).nullable(),
  scoring: z.enum(["icpc", "ioi"], { error: "Must be icpc or ioi" }),
  penaltyMinutes: z.number({ error: "Must be a number" }).int({ error: "Must be a whole number" }).min(0, { error: "At least 0" }).max(1000, { error: "At most 1000" }),
  registration: z.enum(["open", "code", "roster"], { error: "Must be open, code or roster" }),
  // At least REGISTRATION_CODE_MIN_CHARS: with 10 guesses per 10 minutes per user and contest (./registration.ts), a code
  // of 8 characters is out of reach; left out, the server makes a random one.
  registrationCode: z
    .string({ error: "Must be text" })
    .trim()
    .min(REGISTRATION_CODE_MIN_CHARS, { error: `At least ${REGISTRATION_CODE_MIN_CHARS} characters` })
    .max(64, { error: "At most 64 characters" })
    .nullable(),
  problems: z
    .array(problemEntry, { error: "Must be a list" })
    .min(1, { error: "At least one problem" })
    .max(CONTEST_MAX_PROBLEMS, { error: `At most ${CONTEST_MAX_PROBLEMS} problems` }),
};

export const contestInput = z.object({
  title: fields.title,
  shortName: fields.shortName,
  startsAt: fields.startsAt,
  durationMinutes: fields.durationMinutes,
  freezeMinutes: fields.freezeMinutes.optional(),
  scoring: fields.scoring,
  penaltyMinutes: fields.penaltyMinutes.optional(),
  courseId: idField().optional(),
  registration: fields.registration.optional(),
  registrationCode: fields.registrationCode.optional(),
  problems: fields.problems,
  ...contestExamFields,
});
export type ContestInput = z.infer<typeof contestInput>;

export const contestUpdateInput = z.object({
  id: idField(),
  title: fields.title.optional(),
  startsAt: fields.startsAt.optional(),
  durationMinutes: fields.durationMinutes.optional(),
  freezeMinutes: fields.freezeMinutes.optional(),
  penaltyMinutes: fields.penaltyMinutes.optional(),
  registration: fields.registration.optional(),
  registrationCode: fields.registrationCode.optional(),
  problems: fields.problems.optional(),
  ...contestExamFields,
});
export type ContestUpdateInput = z.infer<typeof contestUpdateInput>;

export const registerInput = z.object({
  id: idField(),
  /** A new team's name (default: the user's name). */
  teamName: requiredText(100).optional(),
  organization: z.string({ error: "Must be text" }).trim().max(100, { error: "At most 100 characters" }).optional(),
  /** The contest's registration code, when it asks for one. */
  code: z.string({ error: "Must be text" }).trim().max(64, { error: "At most 64 characters" }).optional(),
  /** Join an existing team with the code its first member was given. */
  teamCode: z.string({ error: "Must be text" }).trim().max(64, { error: "At most 64 characters" }).optional(),
  /** Take part virtually in a finished contest (a window of its length starting now). */
  virtual: z.boolean({ error: "Must be true or false" }).optional(),
});

export const contestSubmitInput = z.object({
  id: idField(),
  problemId: idField(),
  language: z.enum(LANGUAGE_IDS, { error: `Must be ${listInWords(LANGUAGE_IDS)}` }),
  code: requiredBlock(CODE_MAX_BYTES),
});

export const clarificationInput = z.object({
  id: idField(),
  problemId: idField().optional(),
  text: requiredText(CLARIFICATION_MAX_CHARS),
  /** Jury: the question answered. */
  replyToId: idField().optional(),
  /** Jury: to this team only (default: a reply goes to the asking team; an announcement to all). */
  toTeamId: idField().optional(),
  /** Jury: send the reply to every team. */
  toAll: z.boolean({ error: "Must be true or false" }).optional(),
});
