/**
 * An LTI 1.3 platform stand-in for tests, made of real parts:
 *
 * - its OpenID side is panva's `oidc-provider` (a certified OP) on
 *   127.0.0.1: it signs the launch id_token (response_type=id_token,
 *   response_mode=form_post, prompt=none against the LMS session the test
 *   made by signing in on its login page) with the LTI claims of the launch
 *   named by `lti_message_hint`, and issues client-credentials tokens to the
 *   tool, which authenticates with `private_key_jwt` against the tool's JWKS;
 * - its services are a small Hono server: AGS line items' /scores, NRPS
 *   memberships (paged with `Link: rel="next"`), and the deep-linking return
 *   URL, which verifies the tool's signed response against the tool's JWKS.
 * Each call the services get is recorded for the test to check.
 */
import type { Server } from "node:http";
import { Hono } from "hono";
import { createRemoteJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type JWTPayload } from "jose";
import Provider, { interactionPolicy } from "oidc-provider";
import { CLAIM, SCOPE } from "../../src/lti/claims.ts";
import type { Agent } from "../sso/agent.ts";

export const ROLE = {
  instructor: "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
  ta: "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant",
  learner: "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
  institutionInstructor: "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor",
};

export interface LmsUser {
  email?: string;
  given_name?: string;
  family_name?: string;
}

/** What one launch (named by its lti_message_hint) carries. */
export interface LaunchSpec {
  messageType?: "LtiResourceLinkRequest" | "LtiDeepLinkingRequest";
  roles: string[];
  contextId: string;
  contextTitle?: string;
  resourceLinkId?: string;
  custom?: Record<string, string>;
  lineItem?: string;
  deploymentId?: string;
  /** Extra or replaced claims. */
  extra?: Record<string, unknown>;
}

export interface Platform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  authUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  services: string;
  users: Map<string, LmsUser>;
  launches: Map<string, LaunchSpec>;
  /** Scores received: the line item, the body, the token's scopes. */
  scores: { lineItem: string; body: Record<string, unknown>; scopes: string[] }[];
  /** Members per context for NRPS, served `pageSize` at a time. */
  members: Map<string, Record<string, unknown>[]>;
  pageSize: number;
  memberPagesServed: number;
  /** When set, every memberships page links this as its next page (a hostile or broken platform). */
  nextLinkOverride: string | null;
  /** Deep-linking responses received and verified against the tool's JWKS. */
  deepLinks: JWTPayload[];
  /** The `aud` of each client assertion the token endpoint accepted, and the User-Agent of each AGS/NRPS call. */
  assertionAudiences: unknown[];
  userAgents: string[];
  /** The next N score posts answer 500. */
  failScores: number;
  signingKid: string;
  /** Signs claims as the platform would (or with a key it never published): for forged launches. */
  sign(claims: Record<string, unknown>, opts?: { foreignKey?: boolean }): Promise<string>;
  signIn(agent: Agent, userId: string): Promise<void>;
  /** The tool's login URL as the LMS would open it for this user and launch. */
  loginUrl(toolLogin: string, userId: string, hint: string, extra?: Record<string, string>): string;
  stop(): Promise<void>;
}

const LTI_CLAIM_NAMES = Object.values(CLAIM);

/**
 * Starts the platform.
 * @param tool the tool's launch URL and its JWKS (fetched now: the client is registered with these keys).
 */
export async function startPlatform(tool: { launchUrl: string; jwksUrl: string }): Promise<Platform> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKid = "platform-key-1";
  const jwk = { ...(await exportJWK(privateKey)), kid: signingKid, alg: "RS256", use: "sig" };
  const toolJwks = (await (await fetch(tool.jwksUrl)).json()) as { keys: JWK[] };
  const clientId = "judge-tool";
  const deploymentId = "deployment-1";
  const users = new Map<string, LmsUser>();
  const launches = new Map<string, LaunchSpec>();
  const services = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("starting", { status: 503 }) });
  const servicesUrl = `http://127.0.0.1:${services.port}`;
  const http: Server = (await import("node:http")).createServer();
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  const scopes = [SCOPE.score, SCOPE.lineItem, SCOPE.resultRead, SCOPE.memberships];

  // The tool is registered as a "native" client (oidc-provider lets those use an http loopback redirect with
  // the implicit id_token flow); native clients must otherwise confirm consent on every launch, which an LMS does not ask.
  const policy = interactionPolicy.base();
  policy.get("consent")!.checks.remove("native_client_prompt");
  const provider = new Provider(issuer, {
    interactions: { policy },
    clients: [
      {
        client_id: clientId,
        application_type: "native",
        redirect_uris: [tool.launchUrl],
        response_types: ["id_token"],
        grant_types: ["implicit", "client_credentials"],
        token_endpoint_auth_method: "private_key_jwt",
        token_endpoint_auth_signing_alg: "RS256",
        id_token_signed_response_alg: "RS256",
        jwks: toolJwks as never,
        scope: ["openid", ...scopes].join(" "),
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["platform-cookie-key-0123456789"] },
    responseTypes: ["id_token", "code"],
    features: { clientCredentials: { enabled: true } },
    extraParams: ["lti_message_hint"],
    scopes: ["openid", ...scopes],
    claims: { openid: ["sub", "email", "given_name", "family_name", "name", ...LTI_CLAIM_NAMES] },
    async findAccount(ctx, id) {
      const user = users.get(id);
      if (!user) return undefined;
      return {
        accountId: id,
        async claims() {
          const hint = (ctx.oidc.params?.lti_message_hint as string | undefined) ?? "";
          const spec = launches.get(hint);
          if (!spec) return { sub: id, ...user };
          const messageType = spec.messageType ?? "LtiResourceLinkRequest";
          return {
            sub: id,
            ...user,
            [CLAIM.messageType]: messageType,
            [CLAIM.version]: "1.3.0",
            [CLAIM.deploymentId]: spec.deploymentId ?? deploymentId,
            [CLAIM.targetLinkUri]: tool.launchUrl,
            [CLAIM.roles]: spec.roles,
            [CLAIM.context]: { id: spec.contextId, label: spec.contextId.toUpperCase(), title: spec.contextTitle ?? `Course ${spec.contextId}` },
            ...(messageType === "LtiResourceLinkRequest" ? { [CLAIM.resourceLink]: { id: spec.resourceLinkId ?? "link-1", title: "Activity" } } : {}),
            ...(spec.custom ? { [CLAIM.custom]: spec.custom } : {}),
            ...(messageType === "LtiDeepLinkingRequest"
              ? { [CLAIM.deepLinkingSettings]: { deep_link_return_url: `${servicesUrl}/deep-link-return`, accept_types: ["ltiResourceLink"], data: "platform-opaque-data" } }
              : {}),
            [CLAIM.agsEndpoint]: { scope: [SCOPE.score, SCOPE.lineItem], lineitems: `${servicesUrl}/contexts/${spec.contextId}/lineitems`, ...(spec.lineItem ? { lineitem: spec.lineItem } : {}) },
            [CLAIM.nrps]: { context_memberships_url: `${servicesUrl}/contexts/${spec.contextId}/memberships`, service_versions: ["2.0"] },
            ...spec.extra,
          };
        },
      };
    },
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid");
      await grant.save();
      return grant;
    },
  });
  const platform: Platform = {
    issuer,
    clientId,
    deploymentId,
    authUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    services: servicesUrl,
    users,
    launches,
    scores: [],
    members: new Map(),
    pageSize: 2,
    memberPagesServed: 0,
    nextLinkOverride: null,
    deepLinks: [],
    assertionAudiences: [],
    userAgents: [],
    failScores: 0,
    signingKid,
    async sign(claims, opts = {}) {
      const key = opts.foreignKey ? (await generateKeyPair("RS256")).privateKey : privateKey;
      return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: signingKid }).sign(key);
    },
    async signIn(agent, userId) {
      // As a person signed in to the LMS: the provider's own login page, once.
      const start = new URL(`${issuer}/auth`);
      for (const [k, v] of Object.entries({ client_id: clientId, response_type: "id_token", response_mode: "form_post", scope: "openid", redirect_uri: tool.launchUrl, nonce: "lms-session", state: "lms-session" })) start.searchParams.set(k, v);
      const { res, url } = await agent.follow(start);
      const posted = await agent.submitForm(url, await res.text(), { login: userId, password: "lms" });
      // Follow to the form_post page (not posted: this was only the LMS's own sign-in).
      await agent.follow(new URL(posted.headers.get("location")!, url));
    },
    loginUrl(toolLogin, userId, hint, extra = {}) {
      const u = new URL(toolLogin);
      const params = { iss: issuer, login_hint: userId, target_link_uri: tool.launchUrl, lti_message_hint: hint, client_id: clientId, lti_deployment_id: deploymentId, ...extra };
      for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
      return u.toString();
    },
    async stop() {
      services.stop(true);
      await new Promise((r) => http.close(r));
    },
  };
  provider.on("grant.success", (ctx) => {
    const assertion = (ctx.oidc.body as Record<string, string> | undefined)?.client_assertion;
    if (assertion) platform.assertionAudiences.push(decodeJwt(assertion).aud);
  });
  http.on("request", provider.callback());

  const toolKeys = createRemoteJWKSet(new URL(tool.jwksUrl));
  /** The bearer token's scopes, or null when it is not one the provider issued. */
  const scopesOf = async (auth: string | undefined): Promise<string[] | null> => {
    const token = auth?.replace(/^Bearer /, "");
    if (!token) return null;
    const found = await provider.ClientCredentials.find(token);
    return found ? (found.scope ?? "").split(" ") : null;
  };
  const app = new Hono()
    .use("/contexts/*", async (c, next) => {
      platform.userAgents.push(c.req.header("user-agent") ?? "");
      await next();
    })
    .post("/contexts/:ctx/lineitems/:item/scores", async (c) => {
      const granted = await scopesOf(c.req.header("authorization"));
      if (!granted?.includes(SCOPE.score)) return c.json({ error: "unauthorized" }, 401);
      if (c.req.header("content-type") !== "application/vnd.ims.lis.v1.score+json") return c.json({ error: "content type" }, 415);
      if (platform.failScores > 0) {
        platform.failScores--;
        return c.text("platform busy", 500);
      }
      platform.scores.push({ lineItem: `${servicesUrl}/contexts/${c.req.param("ctx")}/lineitems/${c.req.param("item")}`, body: await c.req.json(), scopes: granted });
      return c.body(null, 204);
    })
    .get("/contexts/:ctx/memberships", async (c) => {
      const granted = await scopesOf(c.req.header("authorization"));
      if (!granted?.includes(SCOPE.memberships)) return c.json({ error: "unauthorized" }, 401);
      const all = platform.members.get(c.req.param("ctx")) ?? [];
      const page = Number(c.req.query("page") ?? 0);
      platform.memberPagesServed++;
      const slice = all.slice(page * platform.pageSize, (page + 1) * platform.pageSize);
      if (platform.nextLinkOverride) c.header("Link", `<${platform.nextLinkOverride}>; rel="next"`);
      else if ((page + 1) * platform.pageSize < all.length) {
        c.header("Link", `<${servicesUrl}/contexts/${c.req.param("ctx")}/memberships?page=${page + 1}>; rel="next"`);
      }
      return c.json({ id: c.req.url, context: { id: c.req.param("ctx") }, members: slice }, 200, { "content-type": "application/vnd.ims.lti-nrps.v2.membershipcontainer+json" });
    })
    .post("/deep-link-return", async (c) => {
      const form = await c.req.parseBody();
      const { payload } = await jwtVerify(String(form.JWT), toolKeys, { issuer: clientId, audience: issuer, algorithms: ["RS256"] });
      platform.deepLinks.push(payload);
      return c.html("<p>Activity added</p>");
    });
  services.reload({ fetch: app.fetch });
  return platform;
}
