/**
 * The services every procedure can reach, built once at start (src/server.ts)
 * and passed down; and the per-request context that tRPC and the REST adapter
 * both build from a Hono request.
 */
import type { Config } from "./config.ts";
import type { Database } from "../db/index.ts";

/** Long-lived services. Issues that add a service add a field here. */
export interface Services {
  config: Config;
  db: Database;
}

/** The signed-in user as procedures see it (public columns only). */
export interface SessionUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface Context extends Services {
  /** Null when the request carries no valid session. */
  user: SessionUser | null;
  /** Hashed id of the current session (for logout), null when signed out. */
  sessionId: string | null;
  /** Client address (honours X-Forwarded-For only with TRUST_PROXY). */
  ip: string;
  /** Headers to add to the response (Set-Cookie on login/logout/renewal). */
  resHeaders: Headers;
}
