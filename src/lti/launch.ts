/**
 * LTI 1.3 launches (IMS LTI Core 1.3 §5.1, IMS Security Framework §5.1.1):
 *
 * 1. Login (`startLogin`): the platform's third-party-initiated login names
 *    the issuer, the user hint and the target; the tool stores SHA-256(state)
 *    with a nonce (table lti_flows, 10 minutes, used once), puts the state in
 *    a cookie, and sends the browser to the platform's authorization URL
 *    (response_type=id_token, response_mode=form_post, prompt=none, with
 *    `lti_message_hint` passed through).
 * 2. Launch (`finishLaunch`): the platform form-posts the id_token and the
 *    state. The flow is taken back (deleted: a replay finds nothing); the
 *    state must match this browser's cookie (else, when a browser blocked the
 *    cookie inside the LMS iframe, the page offers to start again in a new
 *    window); the token is verified with jose: RS256 against the platform's
 *    JWKS, iss, aud (and azp), exp, iat at most 10 minutes old, nonce = the
 *    flow's; the deployment must be registered; the LTI claims are checked.
 * 3. The person is signed in (linked by (issuer, sub) through
 *    src/sso/identities.ts), the LMS course (context) opens the course linked
 *    to it (an instructor's first launch creates it; others join it with the
 *    role their LTI roles give), and the resource link opens its assignment
 *    or problem; a deep-linking request opens the activity picker.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { assignments, ltiContexts, ltiDeepLinks, ltiFlows, ltiPlatforms, ltiResourceLinks, problems } from "../../db/schema.ts";
import type { SessionUser } from "../accounts/user.ts";
import { createCourse, discardNewCourse } from "../courses/courses.ts";
import { AppError } from "../errors.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";
import { CLAIM, courseRoleFor, CUSTOM_ASSIGNMENT, CUSTOM_PROBLEM, describeClaimsError, launchClaims, type LaunchClaims } from "./claims.ts";
import { joinWithRole } from "../courses/roster.ts";
import { accountOf } from "./membership.ts";
import { platformUrlProblem } from "./urls.ts";
import { deploymentKnown, findPlatform, type PlatformRow } from "./registry.ts";
import { LTI_USER_AGENT } from "./services.ts";

/** How long a login may take to come back as a launch, ms. */
export const LTI_FLOW_TTL_MS = 10 * 60_000;
/** Oldest `iat` accepted, seconds, and the clock skew allowed on exp/iat, seconds. */
export const LTI_MAX_TOKEN_AGE_S = 600;
export const LTI_CLOCK_TOLERANCE_S = 60;
/** How long the activity picker of a deep-linking request stays open, ms. */
export const DEEP_LINK_TTL_MS = 60 * 60_000;
/** The cookie binding a login to the browser that launches. */
export const LTI_STATE_COOKIE = "oj_lti_state";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const random = () => randomBytes(24).toString("base64url");

export const loginParams = z.object({
  iss: z.string({ error: "Required" }).min(1, { error: "Required" }),
  login_hint: z.string({ error: "Required" }).min(1, { error: "Required" }),
  target_link_uri: z.string({ error: "Required" }).min(1, { error: "Required" }),
  lti_message_hint: z.string().optional(),
  client_id: z.string().optional(),
  lti_deployment_id: z.string().optional(),
});
export type LoginParams = z.infer<typeof loginParams>;

/**
 * Answers a third-party-initiated login.
 * @param launchUrl this tool's `/api/lti/launch` as registered at the platform.
 * @returns the platform's authorization URL to send the browser to, and the state for the cookie.
 * @throws AppError LTI_UNKNOWN_PLATFORM (400), LTI_LAUNCH_INVALID (401) for an unregistered deployment.
 */
export async function startLogin(db: Database, params: LoginParams, launchUrl: string): Promise<{ url: URL; state: string }> {
  const platform = await findPlatform(db, params.iss, params.client_id);
  if (params.lti_deployment_id && !(await deploymentKnown(db, platform.id, params.lti_deployment_id))) {
    throw new AppError("LTI_LAUNCH_INVALID", { message: `The LMS launch failed verification: deployment ${params.lti_deployment_id} is not registered here` });
  }
  const state = random();
  const nonce = random();
  const now = Date.now();
  await db.delete(ltiFlows).where(lt(ltiFlows.expiresAt, new Date(now)));
  await db.insert(ltiFlows).values({ stateHash: sha256(state), platformId: platform.id, nonce, loginParams: JSON.stringify(params), expiresAt: new Date(now + LTI_FLOW_TTL_MS) });
  const url = new URL(platform.authUrl);
  const query: Record<string, string> = {
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    prompt: "none",
    client_id: platform.clientId,
    redirect_uri: launchUrl,
    login_hint: params.login_hint,
    state,
    nonce,
  };
  if (params.lti_message_hint) query.lti_message_hint = params.lti_message_hint;
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return { url, state };
}

const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function platformJwks(url: string) {
  let jwks = jwksByUrl.get(url);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(url), { headers: { "user-agent": LTI_USER_AGENT }, timeoutDuration: 10_000 });
    jwksByUrl.set(url, jwks);
  }
  return jwks;
}

/** What a verified launch leads to. */
export type LaunchResult =
  | { kind: "signed-in"; user: SessionUser; next: string }
  /** The browser did not send the state cookie (blocked inside the LMS iframe): start again in a new window. */
  | { kind: "cookie-blocked"; relaunchUrl: string };

/** Verifies the id_token of a launch. @throws AppError LTI_LAUNCH_INVALID naming the check that failed. */
async function verifyIdToken(platform: PlatformRow, idToken: string, nonce: string): Promise<LaunchClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, platformJwks(platform.jwksUrl), {
      issuer: platform.issuer,
      audience: platform.clientId,
      algorithms: ["RS256"],
      clockTolerance: LTI_CLOCK_TOLERANCE_S,
      maxTokenAge: LTI_MAX_TOKEN_AGE_S,
      requiredClaims: ["exp", "iat", "nonce", "sub"],
    }));
  } catch (err) {
    throw invalid((err as Error).message);
  }
  const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if ((aud.length > 1 || payload.azp !== undefined) && payload.azp !== platform.clientId) throw invalid(`"azp" is not this tool's client id`);
  if (payload.nonce !== nonce) throw invalid(`"nonce" is not the one this login sent`);
  const parsed = launchClaims.safeParse(payload);
  if (!parsed.success) throw invalid(describeClaimsError(parsed.error));
  return parsed.data;
}

function invalid(reason: string): AppError {
  return new AppError("LTI_LAUNCH_INVALID", { message: `The LMS launch failed verification: ${reason}`, details: { reason } });
}

/** A course code from the LMS course's label: the allowed characters, made unique with a suffix when taken. */
function courseCodeFrom(label: string | undefined, attempt: number): string {
  const base = (label ?? "LMS").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 30) || "LMS";
  const code = base.length < 2 ? `${base}-course` : base;
  return attempt === 0 ? code : `${code}-${randomBytes(3).toString("hex")}`;
}

/**
 * The course linked to the LMS context: found, or created by an instructor's first launch (the LMS vouches for
 * them, so no course-creation right is needed), with the launcher as its owner.
 * @throws AppError LTI_COURSE_NOT_SET_UP (403) for a student's launch into a context no instructor opened yet.
 */
async function courseForContext(db: Database, platform: PlatformRow, claims: LaunchClaims, user: SessionUser, role: string | null): Promise<{ courseId: string; contextRowId: string; created: boolean }> {
  const context = claims[CLAIM.context];
  const deploymentId = claims[CLAIM.deploymentId];
  const membershipsUrl = claims[CLAIM.nrps]?.context_memberships_url ?? null;
  const find = async () =>
    (await db.select().from(ltiContexts).where(and(eq(ltiContexts.platformId, platform.id), eq(ltiContexts.contextId, context.id))).limit(1))[0];
  const found = await find();
  if (found) {
    if (membershipsUrl && membershipsUrl !== found.membershipsUrl) await db.update(ltiContexts).set({ membershipsUrl }).where(eq(ltiContexts.id, found.id));
    return { courseId: found.courseId, contextRowId: found.id, created: false };
  }
  if (role !== "instructor") throw new AppError("LTI_COURSE_NOT_SET_UP");
  let courseId: string | null = null;
  for (let attempt = 0; courseId === null && attempt < 5; attempt++) {
    try {
      const course = await createCourse(db, { ...user, canCreateCourses: true }, { title: context.title ?? context.label ?? "LMS course", code: courseCodeFrom(context.label, attempt), term: "" });
      courseId = course.id;
    } catch (err) {
      if (!(err instanceof AppError && err.kind === "COURSE_CODE_TAKEN")) throw err;
    }
  }
  if (!courseId) throw new Error("lti: no free course code");
  try {
    const [row] = await db.insert(ltiContexts).values({ platformId: platform.id, deploymentId, contextId: context.id, courseId, membershipsUrl }).returning({ id: ltiContexts.id });
    return { courseId, contextRowId: row!.id, created: true };
  } catch (err) {
    // Another instructor's launch linked the context meanwhile: theirs stands, this course goes.
    if (!isUniqueViolation(err)) throw err;
    await discardNewCourse(db, courseId);
    const winner = await find();
    return { courseId: winner!.courseId, contextRowId: winner!.id, created: false };
  }
}

/** Records the resource link (and what its custom parameters link it to, when they are this course's). @returns where it opens. */
async function openResourceLink(db: Database, platform: PlatformRow, claims: LaunchClaims, courseId: string, contextRowId: string): Promise<string> {
  const link = claims[CLAIM.resourceLink]!;
  const custom = claims[CLAIM.custom] ?? {};
  const lineItemUrl = claims[CLAIM.agsEndpoint]?.lineitem ?? null;
  const [existing] = await db
    .select()
    .from(ltiResourceLinks)
    .where(and(eq(ltiResourceLinks.platformId, platform.id), eq(ltiResourceLinks.resourceLinkId, link.id)))
    .limit(1);
  let assignmentId = existing?.assignmentId ?? null;
  let problemId = existing?.problemId ?? null;
  const wantAssignment = typeof custom[CUSTOM_ASSIGNMENT] === "string" ? (custom[CUSTOM_ASSIGNMENT] as string) : null;
  const wantProblem = typeof custom[CUSTOM_PROBLEM] === "string" ? (custom[CUSTOM_PROBLEM] as string) : null;
  if (wantAssignment) {
    const [a] = await db.select({ id: assignments.id }).from(assignments).where(and(eq(assignments.id, wantAssignment), eq(assignments.courseId, courseId))).limit(1);
    if (a) assignmentId = a.id;
  } else if (wantProblem) {
    const [p] = await db.select({ id: problems.id, courseId: problems.courseId }).from(problems).where(and(eq(problems.id, wantProblem), isNull(problems.deletedAt))).limit(1);
    if (p && (p.courseId === courseId || p.courseId === null)) problemId = p.id;
  }
  if (existing) {
    await db
      .update(ltiResourceLinks)
      .set({ assignmentId, problemId, lineItemUrl: lineItemUrl ?? existing.lineItemUrl, contextRowId })
      .where(eq(ltiResourceLinks.id, existing.id));
  } else {
    await db
      .insert(ltiResourceLinks)
      .values({ platformId: platform.id, contextRowId, resourceLinkId: link.id, assignmentId, problemId, lineItemUrl })
      .onConflictDoNothing();
  }
  if (assignmentId) return `/assignments/${assignmentId}`;
  if (problemId) return `/solve/${problemId}`;
  return `/courses/${courseId}`;
}

/**
 * Finishes a launch.
 * @param form the posted `id_token` and `state`.
 * @param cookieState the state cookie this browser sent (null when none came).
 * @returns who is signed in and the path to open, or that the cookie was blocked.
 * @throws AppError LTI_LAUNCH_EXPIRED (400: no such login, used, expired, or another browser's),
 *   LTI_LAUNCH_INVALID (401, naming the failed check), LTI_COURSE_NOT_SET_UP (403), the identity errors.
 */
export async function finishLaunch(
  db: Database,
  form: { id_token?: string | null; state?: string | null },
  cookieState: string | null,
): Promise<LaunchResult> {
  if (!form.state || !form.id_token) throw new AppError("LTI_LAUNCH_EXPIRED");
  const [flow] = await db.delete(ltiFlows).where(eq(ltiFlows.stateHash, sha256(form.state))).returning();
  if (!flow || flow.expiresAt.getTime() < Date.now()) throw new AppError("LTI_LAUNCH_EXPIRED");
  if (!cookieState) {
    const params = new URLSearchParams(JSON.parse(flow.loginParams) as Record<string, string>);
    return { kind: "cookie-blocked", relaunchUrl: `/api/lti/login?${params}` };
  }
  if (cookieState !== form.state) throw new AppError("LTI_LAUNCH_EXPIRED");
  const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, flow.platformId)).limit(1);
  if (!platform) throw new AppError("LTI_UNKNOWN_PLATFORM");
  const claims = await verifyIdToken(platform, form.id_token, flow.nonce);
  const deploymentId = claims[CLAIM.deploymentId];
  if (!(await deploymentKnown(db, platform.id, deploymentId))) throw invalid(`deployment ${deploymentId} is not registered here`);
  const messageType = claims[CLAIM.messageType];
  if (messageType === "LtiResourceLinkRequest" && !claims[CLAIM.resourceLink]) throw invalid("resource_link: Required for a resource link launch");
  if (messageType === "LtiDeepLinkingRequest" && !claims[CLAIM.deepLinkingSettings]) throw invalid("deep_linking_settings: Required for a deep linking request");
  // Every URL the launch names is the platform's own (src/lti/urls.ts), checked before anything is kept.
  const named: [string, string | undefined][] = [
    ["deep_link_return_url", claims[CLAIM.deepLinkingSettings]?.deep_link_return_url],
    ["context_memberships_url", claims[CLAIM.nrps]?.context_memberships_url],
    ["lineitem", claims[CLAIM.agsEndpoint]?.lineitem],
    ["lineitems", claims[CLAIM.agsEndpoint]?.lineitems],
  ];
  for (const [claim, url] of named) {
    const problem = url === undefined ? null : platformUrlProblem(platform, url);
    if (problem) throw invalid(`${claim}: ${problem}`);
  }
  const role = courseRoleFor(claims[CLAIM.roles]) ?? "student";
  const user = await accountOf(
    db,
    platform,
    { id: claims.sub, email: claims.email, givenName: claims.given_name, familyName: claims.family_name, name: claims.name, roles: claims[CLAIM.roles] },
    { linkByEmail: true },
  );
  const { courseId, contextRowId } = await courseForContext(db, platform, claims, user, role);
  await joinWithRole(db, courseId, user.id, role);
  if (messageType === "LtiDeepLinkingRequest") {
    if (role !== "instructor") throw invalid("only an instructor may add activities");
    const settings = claims[CLAIM.deepLinkingSettings]!;
    const id = random();
    await db.insert(ltiDeepLinks).values({
      id,
      platformId: platform.id,
      deploymentId,
      courseId,
      userId: user.id,
      returnUrl: settings.deep_link_return_url,
      data: settings.data ?? null,
      expiresAt: new Date(Date.now() + DEEP_LINK_TTL_MS),
    });
    return { kind: "signed-in", user, next: `/lti/deep-link/${id}` };
  }
  return { kind: "signed-in", user, next: await openResourceLink(db, platform, claims, courseId, contextRowId) };
}

/** Forgets cached platform key sets (tests rotate their platform's keys). */
export function forgetPlatformKeys(): void {
  jwksByUrl.clear();
}
