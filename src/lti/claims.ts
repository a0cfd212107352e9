/**
 * The LTI 1.3 claims the tool reads (IMS LTI Core 1.3 §5, Deep Linking 2.0
 * §4.4, AGS 2.0 §3.1, NRPS 2.0 §3.6), checked with zod, and how LTI roles
 * become course roles.
 */
import { z } from "zod";
import type { CourseRole } from "../courses/permissions.ts";

const LTI = "https://purl.imsglobal.org/spec/lti/claim/";
export const CLAIM = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  targetLinkUri: `${LTI}target_link_uri`,
  resourceLink: `${LTI}resource_link`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  custom: `${LTI}custom`,
  deepLinkingSettings: "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings",
  contentItems: "https://purl.imsglobal.org/spec/lti-dl/claim/content_items",
  deepLinkData: "https://purl.imsglobal.org/spec/lti-dl/claim/data",
  agsEndpoint: "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint",
  nrps: "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice",
} as const;

export const SCOPE = {
  score: "https://purl.imsglobal.org/spec/lti-ags/scope/score",
  lineItem: "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
  resultRead: "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
  memberships: "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
} as const;

/** The custom parameter a deep-linked activity carries: what it opens here. */
export const CUSTOM_ASSIGNMENT = "oj_assignment";
export const CUSTOM_PROBLEM = "oj_problem";

const id = z.string().min(1).max(255);

/** The claims every launch must carry (beyond the ID token's own iss/aud/exp/iat/nonce). */
export const launchClaims = z.object({
  sub: id,
  [CLAIM.messageType]: z.enum(["LtiResourceLinkRequest", "LtiDeepLinkingRequest"]),
  [CLAIM.version]: z.literal("1.3.0"),
  [CLAIM.deploymentId]: id,
  [CLAIM.roles]: z.array(z.string()),
  [CLAIM.context]: z.object({ id, label: z.string().max(255).optional(), title: z.string().max(255).optional() }),
  [CLAIM.resourceLink]: z.object({ id, title: z.string().max(255).optional() }).optional(),
  [CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
  [CLAIM.deepLinkingSettings]: z
    .object({ deep_link_return_url: z.url(), accept_types: z.array(z.string()), data: z.string().optional() })
    .optional(),
  [CLAIM.agsEndpoint]: z.object({ scope: z.array(z.string()).optional(), lineitem: z.url().optional(), lineitems: z.url().optional() }).optional(),
  [CLAIM.nrps]: z.object({ context_memberships_url: z.url() }).optional(),
  email: z.string().max(254).optional(),
  given_name: z.string().max(100).optional(),
  family_name: z.string().max(100).optional(),
  name: z.string().max(200).optional(),
});
export type LaunchClaims = z.infer<typeof launchClaims>;

/** Why the claims are not a launch, in a line naming the claim (for the error page). */
export function describeClaimsError(err: z.ZodError): string {
  const issue = err.issues[0]!;
  const path = issue.path.map(String).join(".").replace("https://purl.imsglobal.org/spec/", "");
  return `${path || "claims"}: ${issue.message}`;
}

const MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership";

/**
 * The course role for LTI roles (LTI Core §A.2): TeachingAssistant (a
 * sub-role of Instructor) → ta; Instructor, Administrator or ContentDeveloper
 * → instructor; Learner (or Mentor) → student; none of these → null.
 * Short names (`Instructor`) are accepted as LTI 1.3 allows for context roles.
 */
export function courseRoleFor(roles: readonly string[]): Exclude<CourseRole, "owner"> | null {
  // Context (membership) roles only: an institution role such as `.../institution/person#Instructor` says
  // nothing about this course.
  const has = (...names: string[]) => roles.some((r) => names.some((n) => r === `${MEMBERSHIP}#${n}` || r === n));
  if (roles.some((r) => r === `${MEMBERSHIP}/Instructor#TeachingAssistant` || r === "TeachingAssistant")) return "ta";
  if (has("Instructor", "Administrator", "ContentDeveloper")) return "instructor";
  if (has("Learner", "Mentor")) return "student";
  return null;
}
