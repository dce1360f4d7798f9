/**
 * A principal for local tests and `wrangler dev`, without an identity provider: `testAuth()` is
 * options for the `auth()` feature whose verifier accepts HS256 tokens signed with a local
 * secret, and `mintTestToken()` makes them for a given subject and scopes. Test and development
 * only (docs/auth.md "A principal for local tests"): it verifies nothing without a secret of at
 * least 32 characters, refuses a `resource` on a host other than localhost unless told, and
 * refuses every token on a request addressed to a host that is not a loopback one (a deployed
 * Worker is never reached under one) unless told.
 * HS256 on WebCrypto, so `mcp-edge/testing` needs no optional peer (a scaffolded project has no `jose`).
 */
import type { AuthOptions, TokenVerifier, VerifiedToken } from "../auth/options";
import { TokenError } from "../auth/options";
import { decodeBase64url, encodeBase64url } from "../auth/base64url";
import { isLocalRequest } from "../wire/loopback";

/** The `iss` of every test token: a production verifier trusts no such issuer. */
const TEST_TOKEN_ISSUER = "mcp-edge-testing";
/** The binding `testAuth()` reads its secret from by default (`.dev.vars`, the test config's bindings). */
export const TEST_AUTH_SECRET_BINDING = "MCP_TEST_AUTH_SECRET";
const MIN_SECRET_LENGTH = 32;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/**
 * The test verifier's `resource_name`: a fixed text a bundle can be searched for before it is
 * deployed (docs/auth.md "Test sign-in never in production").
 */
export const TEST_AUTH_MARKER = "mcp-edge test verifier (not for production)";

export interface TestAuthOptions {
  /**
   * The signing secret (at least 32 characters). Default: the Worker's `MCP_TEST_AUTH_SECRET`
   * binding, read on each verification (put it in `.dev.vars`, or in the test config's bindings).
   */
  secret?: string;
  /** The binding to read the secret from when `secret` is not given (default `MCP_TEST_AUTH_SECRET`). */
  secretBinding?: string;
  /** This server's canonical URI (default "http://localhost/mcp"; under wrangler dev e.g. "http://localhost:8787/mcp"). */
  resource?: string;
  /**
   * A `resource` on a host other than localhost, 127.0.0.1 or [::1] is refused, so the test
   * verifier does not reach a deployment by accident. `true` allows it (a private preview):
   * anyone holding the secret can then sign in as anyone.
   */
  allowNonLocalResource?: boolean;
  /**
   * Tokens on a request addressed to a host that is not a loopback one (`localhost`, `*.localhost`,
   * `127.x.x.x`, `[::1]`; a deployed Worker is never reached under one) are refused with 401
   * `invalid_token`, except on the host of a `resource` allowed by `allowNonLocalResource`.
   * `true` accepts them on any host: anyone holding the secret can then sign in as anyone there.
   */
  allowNonLoopbackHosts?: boolean;
  /** Passed through to `auth()`: scopes every request needs, per tool, per resource. */
  requiredScopes?: string[];
  toolScopes?: Record<string, string[]>;
  resourceScopes?: Record<string, string[]>;
}

export interface MintTestTokenOptions {
  /** The principal's subject (`ctx.principal.subject`, the key of `ctx.user`). */
  subject: string;
  /** Granted scopes (default none). */
  scopes?: readonly string[];
  /** The secret the server's `testAuth()` verifies with (at least 32 characters). */
  secret: string;
  /** Lifetime in seconds (default 3600); 0 or less mints an expired token. */
  expiresInSeconds?: number;
  /** `aud` (default: none; the verifier then takes the token as meant for its resource). */
  audience?: string;
  /** The OAuth client the token was issued to (`ctx.principal.clientId`). */
  clientId?: string;
  /** More claims, seen by handlers in `ctx.principal.claims`. */
  claims?: Record<string, unknown>;
}

function checkSecret(secret: unknown, where: string): Uint8Array<ArrayBuffer> {
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    const got = typeof secret === "string" ? `${secret.length} characters` : "none";
    throw new TokenError(
      `the test verifier has no usable secret (${where}: ${got}; needs at least ${MIN_SECRET_LENGTH} characters): ` +
        `set ${TEST_AUTH_SECRET_BINDING} in .dev.vars (openssl rand -hex 32) or in the test config's bindings`,
    );
  }
  return encode(secret);
}

/** A token for `testAuth()`: an HS256 JWT with `sub`, `scope`, `exp` and the test issuer. Test and development only. */
export async function mintTestToken(options: MintTestTokenOptions): Promise<string> {
  if (typeof options?.subject !== "string" || options.subject.length === 0)
    throw new TypeError("mintTestToken: subject must be a non-empty string");
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = checkSecret(options.secret, "mintTestToken's secret");
  } catch (error) {
    throw new TypeError(`mintTestToken: ${(error as TokenError).description}`);
  }
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { ...options.claims, scope: (options.scopes ?? []).join(" ") };
  if (options.clientId !== undefined) claims.client_id = options.clientId;
  Object.assign(claims, { iss: TEST_TOKEN_ISSUER, sub: options.subject, iat: now, exp: now + (options.expiresInSeconds ?? 3600) });
  if (options.audience !== undefined) claims.aud = options.audience;
  const signingInput = `${encodeBase64url(encode(JSON.stringify({ alg: "HS256", typ: "JWT" })))}.${encodeBase64url(encode(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(key), encode(signingInput));
  return `${signingInput}.${encodeBase64url(new Uint8Array(signature))}`;
}

/** UTF-8 bytes in an ArrayBuffer of their own: what WebCrypto takes under Node's types and workerd's alike. */
const encode = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(new TextEncoder().encode(text));

function hmacKey(secret: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** A segment's JSON object, or undefined. */
function jsonSegment(text: string): Record<string, unknown> | undefined {
  const bytes = decodeBase64url(text);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The claims of an HS256 token signed with `secret` by the test issuer, with `sub` and an unexpired `exp`.
 * Whatever is wrong with the token is a TokenError (401 invalid_token): an exception of any other kind
 * would be taken for an outage of the verifier (503).
 */
async function verifyTestToken(token: string, secret: Uint8Array<ArrayBuffer>): Promise<Record<string, unknown>> {
  const malformed = () => new TokenError("not a test token signed with this server's test secret (malformed)");
  const parts = token.split(".");
  if (parts.length !== 3) throw malformed();
  const [head, body, signed] = parts as [string, string, string];
  const header = jsonSegment(head);
  const payload = jsonSegment(body);
  const signature = decodeBase64url(signed);
  if (header?.alg !== "HS256" || !payload || !signature) throw malformed();
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), signature, encode(`${head}.${body}`));
  if (!valid) throw new TokenError("not a test token signed with this server's test secret (bad signature)");
  if (payload.iss !== TEST_TOKEN_ISSUER) throw new TokenError("not a test token signed with this server's test secret (issuer)");
  if (typeof payload.sub !== "string" || typeof payload.exp !== "number") throw malformed();
  if (payload.exp <= Math.floor(Date.now() / 1000)) throw new TokenError("the test token expired");
  return payload;
}

/** Whether a request may carry a test token: addressed to a loopback host, the allowed resource's host, or any when told. */
function isTestHost(request: Request, options: TestAuthOptions, resourceHost: string): boolean {
  if (options.allowNonLoopbackHosts === true) return true;
  const url = new URL(request.url);
  if (isLocalRequest(request, url)) return true;
  return options.allowNonLocalResource === true && url.hostname === resourceHost;
}

/** The refusal of a test token on a host that is not a loopback one, logged once per verifier (the operator's hint). */
function refusedHost(request: Request, logged: { done: boolean }): TokenError {
  const host = new URL(request.url).hostname;
  const description =
    `test sign-in (testAuth from mcp-edge/testing) is refused on ${host}: it is for tests and wrangler dev on loopback hosts; ` +
    "deploy with a production verifier (allowNonLoopbackHosts: true accepts it there)";
  if (!logged.done) {
    logged.done = true;
    console.warn(`mcp-edge: ${description}`);
  }
  return new TokenError(description);
}

/** The verifier: the secret is read per call (the Worker's env exists only then). */
function testVerifier(options: TestAuthOptions, resourceHost: string): TokenVerifier<Record<string, unknown> | undefined> {
  const binding = options.secretBinding ?? TEST_AUTH_SECRET_BINDING;
  const logged = { done: false };
  return async (token, context) => {
    if (context.request && !isTestHost(context.request, options, resourceHost)) throw refusedHost(context.request, logged);
    const secret = options.secret ?? context.env?.[binding];
    const key = checkSecret(secret, options.secret === undefined ? `binding ${binding}` : "testAuth's secret");
    const payload = await verifyTestToken(token, key);
    const scope = payload.scope;
    const verified: VerifiedToken = {
      subject: payload.sub as string,
      scopes: typeof scope === "string" ? scope.split(" ").filter((s) => s.length > 0) : [],
      audience: (payload.aud as string | string[] | undefined) ?? context.resource,
      claims: payload,
    };
    if (typeof payload.client_id === "string") verified.clientId = payload.client_id;
    return verified;
  };
}

/**
 * Options for the `auth()` feature (mcp-edge/auth) that accept `mintTestToken()`'s tokens: `ctx.principal`,
 * `ctx.user`, scopes and per-principal limits without an identity provider. Test and
 * development only: never deploy it (a holder of the secret is whoever they claim to be).
 */
export function testAuth(options: TestAuthOptions = {}): AuthOptions {
  const resource = options.resource ?? "http://localhost/mcp";
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new TypeError(`testAuth: resource "${resource}" is not an absolute URL`);
  }
  if (!LOCAL_HOSTS.has(url.hostname) && options.allowNonLocalResource !== true) {
    throw new TypeError(
      `testAuth: resource "${resource}" is not on localhost; the test verifier is for tests and wrangler dev only ` +
        "(allowNonLocalResource: true allows it, for a private preview)",
    );
  }
  if (options.secret !== undefined) checkSecretOption(options.secret);
  return {
    resource,
    authorizationServers: [`${url.origin}/`],
    verify: testVerifier(options, url.hostname) as AuthOptions["verify"],
    resourceName: TEST_AUTH_MARKER,
    ...(options.requiredScopes ? { requiredScopes: options.requiredScopes } : {}),
    ...(options.toolScopes ? { toolScopes: options.toolScopes } : {}),
    ...(options.resourceScopes ? { resourceScopes: options.resourceScopes } : {}),
  };
}

function checkSecretOption(secret: string): void {
  try {
    checkSecret(secret, "testAuth's secret");
  } catch (error) {
    throw new TypeError(`testAuth: ${(error as TokenError).description}`);
  }
}
