/**
 * Deep Linking 2.0: an instructor adding an activity in the LMS picks one of
 * their course's assignments or problems here; the tool answers the signed
 * `LtiDeepLinkingResponse` (RS256 with the tool's key; iss = the tool's
 * client id, aud = the platform's issuer) holding one `ltiResourceLink`
 * content item whose custom parameter names what it opens, and, for an
 * assignment, a line item for its grades. The browser form-posts it to the
 * platform's return URL. A pick is used once and expires after an hour.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { assignmentProblems, assignments, ltiDeepLinks, ltiPlatforms, problems } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { requireCourse } from "../courses/access.ts";
import { AppError } from "../errors.ts";
import { CLAIM, CUSTOM_ASSIGNMENT, CUSTOM_PROBLEM } from "./claims.ts";
import { signingKey } from "./keys.ts";
import { platformUrlProblem } from "./urls.ts";

export const deepLinkPick = z
  .object({
    id: z.string().min(1).max(100),
    assignmentId: z.string().max(100).optional(),
    problemId: z.string().max(100).optional(),
  })
  .refine((v) => Boolean(v.assignmentId) !== Boolean(v.problemId), { error: "Pick one assignment or one problem", path: ["assignmentId"] });

async function pending(db: Database, caller: Caller, id: string) {
  const [row] = await db
    .select()
    .from(ltiDeepLinks)
    .where(and(eq(ltiDeepLinks.id, id), gt(ltiDeepLinks.expiresAt, new Date())))
    .limit(1);
  if (!row || row.userId !== caller.id) throw new AppError("LTI_DEEP_LINK_NOT_FOUND");
  await requireCourse(db, caller, row.courseId, "assignment.edit");
  return row;
}

/**
 * What the instructor may pick: the course's assignments (with their points) and problems.
 * @throws AppError LTI_DEEP_LINK_NOT_FOUND (404: expired, used or someone else's), FORBIDDEN (403).
 */
export async function deepLinkChoices(db: Database, caller: Caller, id: string) {
  const row = await pending(db, caller, id);
  const [list, courseProblems] = await Promise.all([
    db
      .select({ id: assignments.id, title: assignments.title, points: sql<number>`coalesce((select sum(${assignmentProblems.points}) from ${assignmentProblems} where ${assignmentProblems.assignmentId} = ${assignments.id}), 0)` })
      .from(assignments)
      .where(eq(assignments.courseId, row.courseId))
      .orderBy(asc(assignments.title)),
    // Live problems only: a deleted one, or one an import is still writing (staged, ../problems/staged.ts), is no choice.
    db
      .select({ id: problems.id, title: problems.title })
      .from(problems)
      .where(and(eq(problems.courseId, row.courseId), isNull(problems.deletedAt)))
      .orderBy(asc(problems.title)),
  ]);
  return { courseId: row.courseId, assignments: list, problems: courseProblems };
}

/**
 * Signs the response for the pick and spends it.
 * @param launchUrl this tool's /api/lti/launch (the content item's url).
 * @returns the platform's return URL and the JWT to form-post there as `JWT`.
 * @throws AppError LTI_DEEP_LINK_NOT_FOUND (404), FORBIDDEN (403), BAD_INPUT (400, field assignmentId/problemId) for another course's.
 */
export async function deepLinkResponse(db: Database, caller: Caller, pick: z.infer<typeof deepLinkPick>, launchUrl: string): Promise<{ returnUrl: string; jwt: string }> {
  const row = await pending(db, caller, pick.id);
  const choices = await deepLinkChoices(db, caller, pick.id);
  let item: Record<string, unknown>;
  if (pick.assignmentId) {
    const a = choices.assignments.find((x) => x.id === pick.assignmentId);
    if (!a) throw new AppError("BAD_INPUT", { field: "assignmentId", message: "assignmentId: not an assignment of this course" });
    item = {
      type: "ltiResourceLink",
      title: a.title,
      url: launchUrl,
      custom: { [CUSTOM_ASSIGNMENT]: a.id },
      lineItem: { scoreMaximum: a.points > 0 ? a.points : 100, label: a.title, resourceId: a.id },
    };
  } else {
    const p = choices.problems.find((x) => x.id === pick.problemId);
    if (!p) throw new AppError("BAD_INPUT", { field: "problemId", message: "problemId: not a problem of this course" });
    item = { type: "ltiResourceLink", title: p.title, url: launchUrl, custom: { [CUSTOM_PROBLEM]: p.id } };
  }
  const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, row.platformId)).limit(1);
  if (!platform) throw new AppError("LTI_DEEP_LINK_NOT_FOUND");
  // The client posts the signed response to this URL (a form action): only to the platform's own site.
  const problem = platformUrlProblem(platform, row.returnUrl);
  if (problem) throw new AppError("LTI_LAUNCH_INVALID", { message: `The LMS's return URL cannot be used: ${problem}` });
  const { kid, key } = await signingKey(db);
  const claims: Record<string, unknown> = {
    nonce: randomBytes(16).toString("base64url"),
    [CLAIM.messageType]: "LtiDeepLinkingResponse",
    [CLAIM.version]: "1.3.0",
    [CLAIM.deploymentId]: row.deploymentId,
    [CLAIM.contentItems]: [item],
  };
  if (row.data !== null) claims[CLAIM.deepLinkData] = row.data;
  const jwt = await new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key);
  const spent = await db.delete(ltiDeepLinks).where(eq(ltiDeepLinks.id, row.id)).returning({ id: ltiDeepLinks.id });
  if (!spent.length) throw new AppError("LTI_DEEP_LINK_NOT_FOUND");
  return { returnUrl: row.returnUrl, jwt };
}
