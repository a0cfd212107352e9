/**
 * Platform registrations (site admins, in the admin page and by
 * `bun run lti`): issuer, client id, deployment ids and the platform's
 * authorization, token and JWKS URLs. A platform is found by (issuer, client
 * id); a launch must also name a registered deployment.
 */
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { ltiDeployments, ltiPlatforms } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import { isUniqueViolation } from "../lib/sql-errors.ts";
import { isLoopbackHost } from "../sso/config.ts";
import { forgetFrameOrigins } from "./frame-origins.ts";

/** An https URL (plain http only to this machine, for tests and a platform on the same host). */
const endpoint = z
  .string({ error: "Required" })
  .trim()
  .max(500, { error: "At most 500 characters" })
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return u.protocol === "https:" || (u.protocol === "http:" && isLoopbackHost(u.hostname));
      } catch {
        return false;
      }
    },
    { error: "An https:// URL (plain http only to this machine)" },
  );

export const platformInput = z.object({
  name: z.string({ error: "Required" }).trim().min(1, { error: "Required" }).max(100, { error: "At most 100 characters" }),
  /** The platform's issuer, e.g. https://canvas.instructure.com or the Moodle site's URL. */
  issuer: endpoint,
  clientId: z.string({ error: "Required" }).trim().min(1, { error: "Required" }).max(200, { error: "At most 200 characters" }),
  deploymentIds: z
    .array(z.string().trim().min(1, { error: "Required" }).max(200, { error: "At most 200 characters" }), { error: "A list of deployment ids" })
    .min(1, { error: "At least one deployment id" })
    .max(100, { error: "At most 100" }),
  authUrl: endpoint,
  tokenUrl: endpoint,
  jwksUrl: endpoint,
  /** The operator vouches for this LMS's email addresses (linking to existing accounts, staff invitations); default false. */
  trustEmail: z.boolean({ error: "Must be true or false" }).default(false),
});
export type PlatformInput = z.infer<typeof platformInput>;

export interface PlatformShape extends PlatformInput {
  id: string;
  createdAt: string;
}

export type PlatformRow = typeof ltiPlatforms.$inferSelect;

/** Every platform with its deployments, by name. */
export async function listPlatforms(db: Database): Promise<PlatformShape[]> {
  const [rows, deps] = await Promise.all([db.select().from(ltiPlatforms).orderBy(asc(ltiPlatforms.name)), db.select().from(ltiDeployments)]);
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    issuer: p.issuer,
    clientId: p.clientId,
    authUrl: p.authUrl,
    tokenUrl: p.tokenUrl,
    jwksUrl: p.jwksUrl,
    trustEmail: p.trustEmail,
    deploymentIds: deps.filter((d) => d.platformId === p.id).map((d) => d.deploymentId),
    createdAt: p.createdAt.toISOString(),
  }));
}

/**
 * Registers a platform.
 * @throws AppError BAD_INPUT (409-like, field `clientId`) when (issuer, client id) is registered already.
 */
export async function addPlatform(db: Database, input: PlatformInput): Promise<PlatformShape> {
  const { deploymentIds, ...platform } = input;
  let id: string;
  try {
    const [row] = await db.insert(ltiPlatforms).values(platform).returning({ id: ltiPlatforms.id });
    id = row!.id;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("BAD_INPUT", { field: "clientId", message: "clientId: this issuer and client id are registered already" });
    throw err;
  }
  await db.insert(ltiDeployments).values([...new Set(deploymentIds)].map((deploymentId) => ({ platformId: id, deploymentId })));
  forgetFrameOrigins();
  return (await listPlatforms(db)).find((p) => p.id === id)!;
}

/** Replaces a platform's settings and deployments. @throws AppError BAD_INPUT (field `id`) for an unknown platform. */
export async function updatePlatform(db: Database, id: string, input: PlatformInput): Promise<PlatformShape> {
  const { deploymentIds, ...platform } = input;
  const [row] = await db.update(ltiPlatforms).set(platform).where(eq(ltiPlatforms.id, id)).returning({ id: ltiPlatforms.id });
  if (!row) throw new AppError("BAD_INPUT", { field: "id", message: "id: no such platform" });
  await db.batch([
    db.delete(ltiDeployments).where(eq(ltiDeployments.platformId, id)),
    db.insert(ltiDeployments).values([...new Set(deploymentIds)].map((deploymentId) => ({ platformId: id, deploymentId }))),
  ]);
  forgetFrameOrigins();
  return (await listPlatforms(db)).find((p) => p.id === id)!;
}

/** Removes a platform (its contexts and links go too; courses stay). @returns whether it existed. */
export async function removePlatform(db: Database, id: string): Promise<boolean> {
  const removed = (await db.delete(ltiPlatforms).where(eq(ltiPlatforms.id, id)).returning({ id: ltiPlatforms.id })).length > 0;
  forgetFrameOrigins();
  return removed;
}

/**
 * The platform a login or launch comes from.
 * @param clientId may be absent in a login request; then the issuer must have exactly one registration.
 * @throws AppError LTI_UNKNOWN_PLATFORM (400) when none (or several, without a client id) match.
 */
export async function findPlatform(db: Database, issuer: string, clientId?: string | null): Promise<PlatformRow> {
  const rows = await db
    .select()
    .from(ltiPlatforms)
    .where(clientId ? and(eq(ltiPlatforms.issuer, issuer), eq(ltiPlatforms.clientId, clientId)) : eq(ltiPlatforms.issuer, issuer))
    .limit(2);
  if (rows.length !== 1) {
    throw new AppError("LTI_UNKNOWN_PLATFORM", {
      message: rows.length ? `Several registrations use ${issuer}; the platform must send client_id` : `No LMS platform is registered here for ${issuer}${clientId ? ` and client ${clientId}` : ""}`,
    });
  }
  return rows[0]!;
}

/** Whether the platform registered this deployment. */
export async function deploymentKnown(db: Database, platformId: string, deploymentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: ltiDeployments.deploymentId })
    .from(ltiDeployments)
    .where(and(eq(ltiDeployments.platformId, platformId), eq(ltiDeployments.deploymentId, deploymentId)))
    .limit(1);
  return row !== undefined;
}
