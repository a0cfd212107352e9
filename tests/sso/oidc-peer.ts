/**
 * A real OpenID Provider for tests: panva's `oidc-provider` (a certified OP)
 * on 127.0.0.1 with a fixed RSA key made at start, its development login
 * form (any login; the accounts below give the claims), consent granted for
 * the registered client, PKCE required.
 *
 * In front of it sits a pass-through proxy, which is the issuer's address.
 * By default it changes nothing; `tamper` makes it re-sign the next ID token
 * the token endpoint answers with changed claims or a foreign key, which is
 * how forged answers (wrong iss, aud, nonce, exp, signature) reach the judge
 * through the real protocol.
 */
import type { Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from "jose";
import Provider from "oidc-provider";

export interface PeerAccount {
  email: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
}

export type Tamper = { claims?: Record<string, unknown>; foreignKey?: boolean } | null;

export interface OidcPeer {
  /** The issuer (the proxy's origin). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, PeerAccount>;
  /** Applied to the next token response only. */
  tamper: Tamper;
  /** How many token requests carried a code_verifier. */
  tokenRequests: { codeVerifier: boolean }[];
  stop(): Promise<void>;
}

/**
 * Starts the provider.
 * @param redirectUris the judge's callback URLs registered for the client.
 */
export async function startOidcPeer(redirectUris: string[], clientId = "judge"): Promise<OidcPeer> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "peer-key-1", alg: "RS256", use: "sig" };
  const foreign = (await generateKeyPair("RS256", { extractable: true })).privateKey;
  const accounts = new Map<string, PeerAccount>();
  const proxy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("starting", { status: 503 }) });
  const issuer = `http://127.0.0.1:${proxy.port}`;
  const clientSecret = "peer-client-secret-0123456789";
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, response_types: ["code"], grant_types: ["authorization_code"] }],
    jwks: { keys: [jwk] },
    cookies: { keys: ["peer-cookie-key-0123456789"] },
    pkce: { required: () => true },
    scopes: ["openid", "email", "profile", "groups"],
    claims: { email: ["email", "email_verified"], profile: ["given_name", "family_name", "name"], groups: ["groups"] },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    // Consent is the registered client's by default (a first-party login), so the login form is the only page.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile groups");
      await grant.save();
      return grant;
    },
  });
  provider.proxy = true;
  const server: Server = provider.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const upstream = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const peer: OidcPeer = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamper: null,
    tokenRequests: [],
    async stop() {
      proxy.stop(true);
      await new Promise((r) => server.close(r));
    },
  };
  proxy.reload({
    async fetch(req) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.set("x-forwarded-host", url.host);
      headers.set("x-forwarded-proto", "http");
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      if (url.pathname === "/token" && body) peer.tokenRequests.push({ codeVerifier: new URLSearchParams(new TextDecoder().decode(body)).has("code_verifier") });
      const res = await fetch(`${upstream}${url.pathname}${url.search}`, { method: req.method, headers, body, redirect: "manual" });
      if (url.pathname !== "/token" || !peer.tamper || !res.ok) return res;
      const tamper = peer.tamper;
      peer.tamper = null;
      const json = (await res.json()) as { id_token?: string };
      if (json.id_token) {
        const claims = { ...decodeJwt(json.id_token), ...tamper.claims };
        json.id_token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: jwk.kid }).sign(tamper.foreignKey ? foreign : privateKey);
      }
      return Response.json(json, { status: res.status, headers: { "cache-control": "no-store" } });
    },
  });
  return peer;
}
