/**
 * Fixtures for the resource-server tests inside workerd: an authorization server's signing keys
 * (generated here, served to the verifier as a local set or through a counted fake fetch), JWT
 * access tokens signed with jose, and Workers built from the demo server with `auth` options,
 * called through their fetch handler with the real session namespace. No network.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWK, type JWTPayload } from "jose";
import { demoServer } from "../../src/demo/server";
import { createMcpEdge } from "../../src/edge";
import { jwtVerifier } from "../../src/auth/jwt";
import type { AuthOptions } from "../../src/auth/options";
import type { McpServer } from "../../src/mcp/definition/server";
import type { EdgeOptions } from "../../src/kernel/options";
import type { Feature } from "../../src/kernel/feature";
import { auth } from "../../src/features/auth/index";
import { hub } from "../../src/features/hub/index";
import { legacySse, sessions } from "../../src/features/sessions/index";
import { user } from "../../src/features/user/index";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";

export const ORIGIN = "http://127.0.0.1:8787";
export const MCP_URL = `${ORIGIN}/mcp`;
export const RESOURCE = "https://mcp.example.com/mcp";
export const ISSUER = "https://auth.example.com";
export const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid: string, alg: "ES256" | "RS256" = "ES256"): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, privateKey, jwk };
}

export function jwksOf(...keys: SigningKey[]): JSONWebKeySet {
  return { keys: keys.map((k) => k.jwk) };
}

const now = () => Math.floor(Date.now() / 1000);

/** An access token: by default for RESOURCE, from ISSUER, subject alice, scope "mcp", valid 5 minutes. */
export async function accessToken(key: SigningKey, claims: JWTPayload = {}, header: { kid?: string; alg?: string } = {}): Promise<string> {
  const payload: JWTPayload = { iss: ISSUER, aud: RESOURCE, sub: "alice", scope: "mcp", iat: now(), exp: now() + 300, ...claims };
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: header.alg ?? (key.jwk.alg as string), kid: header.kid ?? key.kid, typ: "at+jwt" })
    .sign(key.privateKey);
}

const b64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** An unsecured JWT (`alg: none`, empty signature) with otherwise valid claims. */
export function unsecuredToken(claims: JWTPayload = {}): string {
  const payload = { iss: ISSUER, aud: RESOURCE, sub: "alice", scope: "mcp", iat: now(), exp: now() + 300, ...claims };
  return `${b64url({ alg: "none", typ: "JWT" })}.${b64url(payload)}.`;
}

export type Fetch = (url: string, init?: RequestInit & { headers?: Record<string, string> }) => Promise<Response>;

/**
 * A Worker's options as these tests give them: `auth` is the `auth()` feature's options, `sessions: false`
 * a Worker without the sessions feature (and the 2024-11-05 transport); the other features are the demo's
 * (the 2024-11-05 transport, the hub, the user store).
 */
export type EdgeFixtureOptions = Omit<EdgeOptions, "auth" | "features"> & { auth?: AuthOptions };

function withFeatures(options: EdgeFixtureOptions): EdgeOptions {
  const { auth: authGiven, sessions: sessionMode, ...rest } = options;
  const features: Feature[] = [...(sessionMode === false ? [] : [sessions(), legacySse()]), hub(), user()];
  if (authGiven) features.push(auth(authGiven));
  return { ...rest, features };
}

/** A Worker for `server` (the demo by default) with `options`, called with the test's bindings. */
export function edgeFetch(options: EdgeFixtureOptions, server: McpServer<never> = demoServer as unknown as McpServer<never>): Fetch {
  const worker = createMcpEdge(server, withFeatures(options)).worker;
  return async (url, init = {}) => {
    const request = new Request(url, { ...init, headers: { Host: "127.0.0.1:8787", ...(init.headers ?? {}) } });
    return worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env as never, createExecutionContext());
  };
}

/** Auth options over a local key set; `overrides` replace any field. */
export function authOptions(keys: JSONWebKeySet, overrides: Partial<AuthOptions> = {}): AuthOptions {
  return {
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    verify: jwtVerifier({ issuer: ISSUER, jwks: keys }),
    requiredScopes: ["mcp"],
    ...overrides,
  };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** POSTs a JSON-RPC message with MCP headers (plus `headers`). */
export function postTo(fetch: Fetch, body: unknown, headers: Record<string, string> = {}, url = MCP_URL): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
    body: JSON.stringify(body),
  });
}

export const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

/** initialize + initialized with a token; returns the session id. */
export async function openAuthSession(fetch: Fetch, token: string): Promise<string> {
  const res = await postTo(fetch, { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") }, bearer(token));
  if (res.status !== 200) throw new Error(`initialize failed: ${res.status} ${await res.text()}`);
  const sessionId = res.headers.get("Mcp-Session-Id");
  if (!sessionId) throw new Error("no session id");
  const ack = await postTo(
    fetch,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { ...bearer(token), "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-06-18" },
  );
  if (ack.status !== 202) throw new Error(`initialized got ${ack.status}`);
  return sessionId;
}

/** Parses `WWW-Authenticate: Bearer k="v", …` into its parameters. */
export function challengeOf(res: Response): Record<string, string> {
  const header = res.headers.get("WWW-Authenticate") ?? "";
  if (!header.startsWith("Bearer ")) throw new Error(`not a Bearer challenge: ${header}`);
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/([a-z_]+)="([^"]*)"/g)) params[m[1] as string] = m[2] as string;
  return params;
}
