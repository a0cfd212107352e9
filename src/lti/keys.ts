/**
 * The tool's own signing keys (RS256, 2048-bit, made with jose): generated
 * once on first use, rotatable. The newest unretired key signs deep-linking
 * responses and client assertions; `GET /api/lti/jwks` lists it and keys
 * retired in the last KEY_RETIRED_LISTED_MS, so platforms that cached the old
 * key id can still check what it signed.
 */
import { desc, eq, gt, isNull, or } from "drizzle-orm";
import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { Database } from "../../db/index.ts";
import { ltiKeys } from "../../db/schema.ts";

/** How long a retired key stays in the JWKS, ms (platforms cache JWKS for hours). */
export const KEY_RETIRED_LISTED_MS = 7 * 24 * 3_600_000;

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

async function createKey(db: Database): Promise<void> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const kid = crypto.randomUUID();
  const pub = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const priv = { ...(await exportJWK(privateKey)), kid, alg: "RS256" };
  await db.insert(ltiKeys).values({ kid, privateJwk: JSON.stringify(priv), publicJwk: JSON.stringify(pub) });
}

/** The key that signs now (made on first use). */
export async function signingKey(db: Database): Promise<SigningKey> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const [row] = await db.select().from(ltiKeys).where(isNull(ltiKeys.retiredAt)).orderBy(desc(ltiKeys.createdAt)).limit(1);
    if (row) return { kid: row.kid, key: (await importJWK(JSON.parse(row.privateJwk) as JWK, "RS256")) as CryptoKey };
    await createKey(db);
  }
  throw new Error("lti: no signing key after creating one");
}

/**
 * Makes a new signing key and retires the others (listed for KEY_RETIRED_LISTED_MS more).
 * @returns the new key id.
 */
export async function rotateKey(db: Database): Promise<string> {
  await db.update(ltiKeys).set({ retiredAt: new Date() }).where(isNull(ltiKeys.retiredAt));
  await createKey(db);
  return (await signingKey(db)).kid;
}

/** The public JWKS: the signing key and recently retired ones (made on first call). */
export async function publicJwks(db: Database): Promise<{ keys: JWK[] }> {
  await signingKey(db);
  const rows = await db
    .select({ publicJwk: ltiKeys.publicJwk })
    .from(ltiKeys)
    .where(or(isNull(ltiKeys.retiredAt), gt(ltiKeys.retiredAt, new Date(Date.now() - KEY_RETIRED_LISTED_MS))))
    .orderBy(desc(ltiKeys.createdAt));
  return { keys: rows.map((r) => JSON.parse(r.publicJwk) as JWK) };
}

/** Deletes a key by id (after a compromise: it leaves the JWKS at once). */
export async function deleteKey(db: Database, kid: string): Promise<boolean> {
  const gone = await db.delete(ltiKeys).where(eq(ltiKeys.kid, kid)).returning({ kid: ltiKeys.kid });
  return gone.length > 0;
}

/**
 * What an LMS administrator pastes into the platform to register this tool:
 * its login, launch, deep-linking and JWKS URLs under `origin`, and the
 * current signing key's id.
 */
export async function toolRegistration(db: Database, origin: string): Promise<{ loginUrl: string; launchUrl: string; deepLinkUrl: string; jwksUrl: string; keyId: string }> {
  const { kid } = await signingKey(db);
  return {
    loginUrl: `${origin}/api/lti/login`,
    launchUrl: `${origin}/api/lti/launch`,
    deepLinkUrl: `${origin}/api/lti/launch`,
    jwksUrl: `${origin}/api/lti/jwks`,
    keyId: kid,
  };
}
