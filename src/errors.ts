/**
 * The error catalogue: every error the API can answer with is one entry here,
 * carrying its HTTP status, its tRPC code and its message. Procedures throw
 * `AppError`; the tRPC error formatter and the REST adapter translate it.
 * Judge failures are not here: a program's fault is a verdict (CE, WA, ...),
 * the system's fault is IE (see src/judge).
 */
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

interface CatalogueEntry {
  status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503 | 504;
  code: TRPC_ERROR_CODE_KEY;
  message: string;
}

export const ERRORS = {
  BAD_INPUT: { status: 400, code: "BAD_REQUEST", message: "Invalid input" },
  UNAUTHENTICATED: { status: 401, code: "UNAUTHORIZED", message: "Authentication required" },
  INVALID_CREDENTIALS: { status: 401, code: "UNAUTHORIZED", message: "Invalid email or password" },
  EMAIL_TAKEN: { status: 409, code: "CONFLICT", message: "An account with this email already exists" },
  TOO_MANY_LOGIN_ATTEMPTS: {
    status: 429,
    code: "TOO_MANY_REQUESTS",
    message: "Too many failed sign-in attempts. Try again later.",
  },
  RATE_LIMITED: { status: 429, code: "TOO_MANY_REQUESTS", message: "Too many requests. Try again later." },
  FORBIDDEN_ORIGIN: { status: 403, code: "FORBIDDEN", message: "Cross-site request refused" },
  PROBLEM_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Problem not found" },
  SUBMISSION_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Submission not found" },
  NOT_PROBLEM_OWNER_UPDATE: { status: 403, code: "FORBIDDEN", message: "You can only update your own problems" },
  NOT_PROBLEM_OWNER_DELETE: { status: 403, code: "FORBIDDEN", message: "You can only delete your own problems" },
  NOT_PROBLEM_OWNER_EXPORT: { status: 403, code: "FORBIDDEN", message: "You can only export your own problems (or your course's)" },
  NOT_PROBLEM_OWNER_COPY: {
    status: 403,
    code: "FORBIDDEN",
    message: "Only the problem's owner (or its course's teachers) may copy it with its hidden tests; add the public problem to an assignment instead",
  },
  LANGUAGE_UNAVAILABLE: { status: 400, code: "BAD_REQUEST", message: "This language is not offered on this server" },
  PAYLOAD_TOO_LARGE: { status: 413, code: "PAYLOAD_TOO_LARGE", message: "Payload too large" },
  COMPILATION_ERROR: { status: 400, code: "BAD_REQUEST", message: "Compilation error" },
  SANDBOX_UNAVAILABLE: { status: 503, code: "SERVICE_UNAVAILABLE", message: "Code execution is unavailable" },
  AI_EMPTY_CODE: {
    status: 400,
    code: "BAD_REQUEST",
    message: "Please write some code before requesting AI review.",
  },
  AI_PROVIDER_FAILED: { status: 502, code: "BAD_GATEWAY", message: "AI Review failed. Please try again later." },
  AI_PROVIDER_TIMEOUT: { status: 504, code: "TIMEOUT", message: "AI Review failed. Please try again later." },
  FORBIDDEN: { status: 403, code: "FORBIDDEN", message: "You do not have permission to do this" },
  COURSE_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Course not found" },
  COURSE_CODE_TAKEN: { status: 409, code: "CONFLICT", message: "A course with this code already exists" },
  COURSE_ARCHIVED: { status: 403, code: "FORBIDDEN", message: "This course is archived" },
  EXAM_ADDRESS_REFUSED: { status: 403, code: "FORBIDDEN", message: "Exam rule (address): your network address is outside this exam's allowed ranges" },
  EXAM_SEB_REQUIRED: { status: 403, code: "FORBIDDEN", message: "Exam rule (Safe Exam Browser): open this exam in Safe Exam Browser with the exam's configuration" },
  EXAM_PASSWORD_WRONG: { status: 403, code: "FORBIDDEN", message: "Exam rule (proctor's password): the proctor's password is missing or wrong" },
  EXAM_OTHER_SESSION: { status: 403, code: "FORBIDDEN", message: "Exam rule (one session): your exam is open in another session; ask the staff to release it" },
  EXAM_WINDOW_OVER: { status: 403, code: "FORBIDDEN", message: "Exam rule (time): your exam window is over" },
  EXAM_LOCKED_DOWN: { status: 403, code: "FORBIDDEN", message: "Exam rule (lock-down): during your exam only its problems are available" },
  EXAM_NOT_STARTED: { status: 403, code: "FORBIDDEN", message: "Exam rule (Start): press Start on the assignment first" },
  POOL_IN_USE: { status: 409, code: "CONFLICT", message: "Students have already drawn from this pool; changing it would change the problem each was given" },
  EXAM_NOT_ENTERED: { status: 403, code: "FORBIDDEN", message: "Exam rule (entry): enter the contest first, with the proctor's password when it asks for one" },
  CONTEST_ENTRY_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "This participant has not entered the contest" },
  CANNOT_CREATE_COURSES: {
    status: 403,
    code: "FORBIDDEN",
    message: "Your account may not create courses; ask an administrator to allow it",
  },
  INVITE_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No course has this invite code (it may have been changed or disabled)" },
  MEMBER_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Not a member of this course" },
  LAST_OWNER: { status: 409, code: "CONFLICT", message: "A course keeps at least one owner" },
  ASSIGNMENT_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Assignment not found" },
  ASSIGNMENT_NOT_OPEN: { status: 403, code: "FORBIDDEN", message: "This assignment is not open yet" },
  ASSIGNMENT_CLOSED: { status: 403, code: "FORBIDDEN", message: "This assignment is closed" },
  PROBLEM_NOT_DRAWN: { status: 403, code: "FORBIDDEN", message: "This problem of the pool was given to other students" },
  LATE_DAYS_NOT_ALLOWED: { status: 409, code: "CONFLICT", message: "Late days cannot be spent on this assignment" },
  LATE_DAYS_EXCEEDED: { status: 409, code: "CONFLICT", message: "Not enough late days remain" },
  AI_OFF: { status: 403, code: "FORBIDDEN", message: "AI review is off for this assignment." },
  WRONG_PASSWORD: { status: 400, code: "BAD_REQUEST", message: "currentPassword: This is not your current password" },
  NO_PASSWORD: { status: 400, code: "BAD_REQUEST", message: "currentPassword: This account has no password; it signs in through your campus account" },
  SESSION_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Session not found (it may have ended already)" },
  PASSWORD_WRONG: { status: 400, code: "BAD_REQUEST", message: "password: This is not your password" },
  TWO_FACTOR_SETUP_REQUIRED: { status: 403, code: "FORBIDDEN", message: "Your account must use two-factor sign-in: turn it on first" },
  TWO_FACTOR_CODE_WRONG: { status: 400, code: "BAD_REQUEST", message: "code: This code is not right, or it was already used" },
  TWO_FACTOR_TICKET_INVALID: { status: 401, code: "UNAUTHORIZED", message: "ticket: This sign-in has expired or had too many wrong codes; sign in again" },
  TWO_FACTOR_ALREADY_ON: { status: 409, code: "CONFLICT", message: "Two-factor sign-in is already on" },
  TWO_FACTOR_OFF: { status: 409, code: "CONFLICT", message: "Two-factor sign-in is off" },
  TWO_FACTOR_NOT_STARTED: { status: 409, code: "CONFLICT", message: "Start setting up two-factor sign-in first" },
  TWO_FACTOR_REQUIRED: { status: 403, code: "FORBIDDEN", message: "Your account must use two-factor sign-in; it cannot be turned off" },
  RESET_LINK_INVALID: { status: 400, code: "BAD_REQUEST", message: "token: This link is not valid: it was used, replaced by a password change, or is more than an hour old. Ask for a new one." },
  EMAIL_LINK_INVALID: { status: 400, code: "BAD_REQUEST", message: "token: This link is not valid: it was used, replaced by a newer one, or is more than 24 hours old. Ask for a new one." },
  EMAIL_ALREADY_VERIFIED: { status: 409, code: "CONFLICT", message: "This e-mail address is already verified" },
  EMAIL_UNCHANGED: { status: 400, code: "BAD_REQUEST", message: "newEmail: This is already your address" },
  NEW_EMAIL_TAKEN: { status: 409, code: "CONFLICT", message: "newEmail: An account with this email already exists" },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    code: "FORBIDDEN",
    message: "Verify your e-mail address before submitting (this site's REQUIRE_VERIFIED_EMAIL_TO_SUBMIT): open the link we sent you, or send it again from your account page.",
  },
  LOCAL_SIGNUP_OFF: { status: 403, code: "FORBIDDEN", message: "Sign-up with a password is turned off here. Sign in with your campus account." },
  SSO_PROVIDER_UNKNOWN: { status: 404, code: "NOT_FOUND", message: "No such sign-in provider" },
  SSO_FLOW_INVALID: {
    status: 400,
    code: "BAD_REQUEST",
    message: "This sign-in could not be verified (it expired, was already used or was not started in this browser). Start again from the sign-in page.",
  },
  SSO_TOKEN_INVALID: { status: 401, code: "UNAUTHORIZED", message: "The identity provider's answer failed verification" },
  SSO_PROVIDER_DOWN: { status: 503, code: "SERVICE_UNAVAILABLE", message: "The sign-in provider cannot be reached right now. Try again in a few minutes." },
  IDENTITY_EMAIL_TAKEN: {
    status: 409,
    code: "CONFLICT",
    message: "An account with this email already exists. Sign in to it first, then link this sign-in method from your profile.",
  },
  IDENTITY_LINKED_ELSEWHERE: { status: 409, code: "CONFLICT", message: "This identity is already linked to another account" },
  IDENTITY_NO_ACCOUNT: { status: 403, code: "FORBIDDEN", message: "There is no account here for this identity. Ask your instructor or the site's administrator." },
  IDENTITY_NO_EMAIL: { status: 400, code: "BAD_REQUEST", message: "The identity provider sent no email address, which a new account needs" },
  LTI_UNKNOWN_PLATFORM: { status: 400, code: "BAD_REQUEST", message: "This LMS platform is not registered here" },
  LTI_LAUNCH_INVALID: { status: 401, code: "UNAUTHORIZED", message: "The LMS launch failed verification" },
  LTI_LAUNCH_EXPIRED: {
    status: 400,
    code: "BAD_REQUEST",
    message: "This launch expired or was already used. Open the activity again from your course in the LMS.",
  },
  LTI_COURSE_NOT_SET_UP: { status: 403, code: "FORBIDDEN", message: "Your instructor has not opened this course here yet. Try again after they have." },
  LTI_NOT_LINKED: { status: 404, code: "NOT_FOUND", message: "This activity is not linked to an assignment or problem here yet. Ask your instructor." },
  LTI_DEEP_LINK_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "This activity picker expired. Add the activity again from the LMS." },
  CONTEST_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Contest not found" },
  SIMILARITY_REPORT_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Similarity report not found" },
  SIMILARITY_PAIR_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Pair not found in this similarity report" },
  CONTEST_NAME_TAKEN: { status: 409, code: "CONFLICT", message: "A contest with this short name already exists" },
  CONTEST_NOT_STARTED: { status: 403, code: "FORBIDDEN", message: "The contest has not started yet" },
  CONTEST_OVER: { status: 403, code: "FORBIDDEN", message: "The contest is over" },
  CONTEST_REGISTRATION_CLOSED: { status: 403, code: "FORBIDDEN", message: "Registration for this contest is closed" },
  CONTEST_CODE_WRONG: { status: 403, code: "FORBIDDEN", message: "This registration code is not the contest's" },
  CONTEST_ALREADY_REGISTERED: { status: 409, code: "CONFLICT", message: "You are already taking part in this contest" },
  CONTEST_TEAM_NAME_TAKEN: { status: 409, code: "CONFLICT", message: "A team with this name is already registered" },
  CONTEST_TEAM_FULL: { status: 409, code: "CONFLICT", message: "This team is full" },
  CONTEST_TEAM_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No team of this contest has this team code" },
  CONTEST_PROBLEM_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "This problem is not part of the contest" },
  USER_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No account has this e-mail address" },
  CONTEST_ROLE_CONFLICT: { status: 409, code: "CONFLICT", message: "A participant of the contest cannot be its jury" },
  CONTEST_ROLE_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "This user does not hold this role in the contest" },
  CLARIFICATION_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Clarification not found" },
  REVIEW_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No released review of this submission yet" },
  NOT_ASSIGNMENT_SUBMISSION: { status: 409, code: "CONFLICT", message: "Only a submission made for an assignment can be reviewed" },
  COMMENT_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No comment of the comment bank has this id" },
  REGRADE_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Regrade request not found" },
  REGRADE_ALREADY_OPEN: { status: 409, code: "CONFLICT", message: "A regrade request of this submission is already waiting for an answer" },
  REGRADE_ALREADY_ANSWERED: { status: 409, code: "CONFLICT", message: "This regrade request was already answered" },
  CCS_OBJECT_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No such object" },
  CCS_BAD_TOKEN: { status: 400, code: "BAD_REQUEST", message: "since_token: not a token of this event feed" },
  TAG_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No topic tag has this slug" },
  TAG_WORD_TAKEN: { status: 409, code: "CONFLICT", message: "This word already names a topic tag" },
  HANDLE_TAKEN: { status: 409, code: "CONFLICT", message: "handle: This handle is taken" },
  HANDLE_RESERVED: { status: 400, code: "BAD_REQUEST", message: "handle: This handle is reserved" },
  PROFILE_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "No public profile has this handle" },
  ERASE_CONFIRM_WRONG: { status: 400, code: "BAD_REQUEST", message: "confirm: Type your account's e-mail address exactly to confirm" },
  RECENT_SIGN_IN_REQUIRED: {
    status: 403,
    code: "FORBIDDEN",
    message: "Sign in again to delete your account: your sign-in must be less than 10 minutes old",
  },
  LAST_ADMIN: {
    status: 409,
    code: "CONFLICT",
    message: "You are the site's only administrator: make another account an administrator before deleting yours",
  },
  ANNOUNCEMENT_NOT_FOUND: { status: 404, code: "NOT_FOUND", message: "Announcement not found" },
  UNSUBSCRIBE_INVALID: {
    status: 400,
    code: "BAD_REQUEST",
    message: "This unsubscribe link is not valid (it may be damaged); turn e-mails off on your account page instead",
  },
  INTERNAL: { status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error" },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorName = keyof typeof ERRORS;

/**
 * A catalogued error. `message` defaults to the catalogue's text; `field`
 * names the offending input field for 400s; `details` is extra JSON for the
 * body (e.g. `{ compileOutput }`), `retryAfterSeconds` sets `Retry-After`.
 * @example throw new AppError("PROBLEM_NOT_FOUND")
 */
export class AppError extends Error {
  override name = "AppError";
  readonly status: CatalogueEntry["status"];
  readonly code: TRPC_ERROR_CODE_KEY;
  constructor(
    readonly kind: ErrorName,
    opts: { message?: string; field?: string; details?: Record<string, unknown>; retryAfterSeconds?: number } = {},
  ) {
    super(opts.message ?? ERRORS[kind].message);
    this.status = ERRORS[kind].status;
    this.code = ERRORS[kind].code;
    this.field = opts.field;
    this.details = opts.details;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
  readonly field?: string;
  readonly details?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;
}
