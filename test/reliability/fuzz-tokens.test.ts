/**
 * Security, authorization: nobody is let in with a token that is not a valid one for this
 * resource, and a valid token of another subject does not open someone else's session.
 * Property-based over forged and mutated access tokens, inside workerd against the real Worker
 * (resource server with a JWT verifier over a local key set) and the real session objects.
 *
 * Each case sends one forged credential to one of alice's session routes (simple POST,
 * interactive POST, GET, DELETE) or to initialize, and expects exactly the documented answer
 * (docs/auth.md "Authorization"; MCP 2025-06-18 Authorization > Error Handling; RFC 6750 §3.1):
 * - a token that does not verify (a changed character, another key with the same kid, `alg: none`,
 *   HS256 keyed with the public key, a bad audience/issuer/expiry/subject) → 401 invalid_token;
 * - an Authorization header that is not `Bearer <token>` → 400 invalid_request, or 401 for another scheme;
 * - a valid token without the required scope → 403 insufficient_scope;
 * - a valid token of another subject (mallory) → 404 on alice's session, 200 for initialize.
 * Never a 2xx on alice's session, never a 5xx, never the token (or its signature) echoed, nothing
 * logged as an internal failure, and alice's session keeps working with her own token.
 */
import fc from "fast-check";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { ACCEPT_BOTH } from "../helpers/mcp";
import {
  accessToken,
  authOptions,
  bearer,
  challengeOf,
  edgeFetch,
  ISSUER,
  jwksOf,
  MCP_URL,
  openAuthSession,
  RESOURCE,
  signingKey,
  unsecuredToken,
  type Fetch,
  type SigningKey,
} from "../auth/fixtures";
import { leaksIn } from "./support/leaks";
import { fuzzParameters, reportFigures } from "./support/settings";

const VERSION = "2025-06-18";
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const now = () => Math.floor(Date.now() / 1000);

type Target = "ping" | "interactive" | "get" | "delete" | "initialize";
type Claims =
  | "expired"
  | "not-yet-valid"
  | "wrong-audience"
  | "wrong-issuer"
  | "no-subject"
  | "empty-subject"
  | "scope-missing"
  | "mallory";
type Recipe =
  | { kind: "flip"; segment: 0 | 1 | 2; at: number; char: string }
  | { kind: "truncate"; keep: number }
  | { kind: "untrusted-key" }
  | { kind: "alg-none" }
  | { kind: "hs256-with-public-key" }
  | { kind: "claims"; claims: Claims }
  | { kind: "header"; value: string };

const recipe: fc.Arbitrary<Recipe> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("flip" as const),
      segment: fc.constantFrom(0 as const, 1 as const, 2 as const),
      at: fc.nat(),
      char: fc.constantFrom(...B64URL, ".", "=", "+", "/", "~"),
    }),
  },
  fc.record({ kind: fc.constant("truncate" as const), keep: fc.nat() }),
  fc.constant({ kind: "untrusted-key" as const }),
  fc.constant({ kind: "alg-none" as const }),
  fc.constant({ kind: "hs256-with-public-key" as const }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("claims" as const),
      claims: fc.constantFrom<Claims>(
        "expired",
        "not-yet-valid",
        "wrong-audience",
        "wrong-issuer",
        "no-subject",
        "empty-subject",
        "scope-missing",
        "mallory",
      ),
    }),
  },
  // Header values a client can send: printable ASCII (Headers refuses CR, LF and NUL itself).
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("header" as const),
      value: fc.oneof(
        fc.string({ unit: "binary-ascii", maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7E]/g, "")),
        fc.constantFrom("Bearer", "Bearer ", "bearer  a b", "Basic YWxpY2U6c2VjcmV0", "Bearer a, Bearer b", "Token abc", "Bearer\t x"),
      ),
    }),
  },
);
const target: fc.Arbitrary<Target> = fc.constantFrom("ping", "interactive", "get", "delete", "initialize");

function decode(segment: string): string {
  const b64 = segment.replace(/-/g, "+").replace(/_/g, "/");
  try {
    return atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  } catch {
    return "(undecodable)";
  }
}

interface Expected {
  /** Acceptable statuses (more than one only where the oracle cannot know, see `flip`). */
  statuses: number[];
  /** The RFC 6750 error code of a 400/401/403 challenge, if one is expected. */
  error?: "invalid_token" | "invalid_request" | "insufficient_scope";
}

describe("forged and mutated access tokens (property-based)", () => {
  let fetch: Fetch;
  let trusted: SigningKey;
  let impostor: SigningKey;
  let aliceToken: string;
  let aliceSession: string;
  let consoleError: MockInstance;
  const figures = {
    cases: 0,
    refused401: 0,
    refused400: 0,
    refused403: 0,
    refused404: 0,
    mallorySessions: 0,
    acceptedNonCanonicalSignature: 0,
    livenessChecks: 0,
  };

  beforeAll(async () => {
    trusted = await signingKey("k1");
    impostor = await signingKey("k1"); // same kid, another key: it must not matter what the token claims its key is
    fetch = edgeFetch({ path: "/mcp", auth: authOptions(jwksOf(trusted)) });
    aliceToken = await accessToken(trusted);
    aliceSession = await openAuthSession(fetch, aliceToken);
    consoleError = vi.spyOn(console, "error");
  });

  afterAll(() => {
    consoleError.mockRestore();
    reportFigures("fuzz-tokens", figures);
  });

  /** The Authorization header a recipe produces, and what docs/auth.md says the answer is. */
  async function forge(r: Recipe, t: Target): Promise<{ authorization: string; secret: string; expected: Expected }> {
    const onSession = t !== "initialize";
    const invalid = (token: string) => ({
      authorization: `Bearer ${token}`,
      secret: token,
      expected: { statuses: [401], error: "invalid_token" as const },
    });
    switch (r.kind) {
      case "flip": {
        const parts = aliceToken.split(".");
        const segment = parts[r.segment] as string;
        const at = r.at % segment.length;
        if (segment[at] === r.char) return forge({ ...r, char: r.char === "A" ? "B" : "A" }, t);
        parts[r.segment] = segment.slice(0, at) + r.char + segment.slice(at + 1);
        const token = parts.join(".");
        // The last base64url character of the signature carries padding bits: a change there may
        // decode to the same signature, which then verifies. Header and payload are signed as text.
        const same = r.segment === 2 && decode(parts[2] as string) === decode(aliceToken.split(".")[2] as string);
        // A "+" or "/" there is not base64url: refused as malformed (invalid_token) even when it would decode the same.
        if (same)
          return { authorization: `Bearer ${token}`, secret: token, expected: { statuses: [200, 202, 204, 401], error: "invalid_token" } };
        return invalid(token);
      }
      case "truncate":
        return invalid(aliceToken.slice(0, 1 + (r.keep % (aliceToken.length - 1))));
      case "untrusted-key":
        return invalid(await accessToken(impostor));
      case "alg-none":
        return invalid(unsecuredToken());
      case "hs256-with-public-key": {
        const secret = new TextEncoder().encode(JSON.stringify(trusted.jwk));
        const token = await new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "alice", scope: "mcp", iat: now(), exp: now() + 300 })
          .setProtectedHeader({ alg: "HS256", kid: trusted.kid })
          .sign(secret);
        return invalid(token);
      }
      case "claims": {
        const claims = {
          expired: { iat: now() - 600, exp: now() - 300 },
          "not-yet-valid": { nbf: now() + 600 },
          "wrong-audience": { aud: "https://other.example.com/mcp" },
          "wrong-issuer": { iss: "https://evil.example.com" },
          "no-subject": { sub: undefined },
          "empty-subject": { sub: "" },
          "scope-missing": { scope: "profile" },
          mallory: { sub: "mallory" },
        }[r.claims];
        const token = await accessToken(trusted, claims);
        if (r.claims === "scope-missing")
          return { authorization: `Bearer ${token}`, secret: token, expected: { statuses: [403], error: "insufficient_scope" } };
        if (r.claims === "mallory")
          return { authorization: `Bearer ${token}`, secret: token, expected: { statuses: [onSession ? 404 : 200] } };
        return invalid(token);
      }
      case "header": {
        const value = r.value.trim();
        const isBearer = /^Bearer(?: |$)/i.test(value);
        // One visible-ASCII token after "Bearer " is a token (which never verifies here); other
        // Bearer shapes are malformed (400); any other scheme is no credentials at all (401).
        if (/^Bearer +[\x21-\x7E]+ *$/i.test(value)) return invalid(value.replace(/^Bearer +/i, "").trim());
        if (isBearer) return { authorization: value, secret: "", expected: { statuses: [400], error: "invalid_request" } };
        return { authorization: value, secret: "", expected: { statuses: [401] } };
      }
    }
  }

  function send(t: Target, authorization: string, n: number): Promise<Response> {
    const session = { "Mcp-Session-Id": aliceSession, "MCP-Protocol-Version": VERSION };
    const post = (body: unknown, headers: Record<string, string>) =>
      fetch(MCP_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Authorization: authorization, ...headers },
        body: JSON.stringify(body),
      });
    switch (t) {
      case "ping":
        return post({ jsonrpc: "2.0", id: n, method: "ping" }, session);
      case "interactive":
        return post({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "stream_progress", arguments: { count: 1 } } }, session);
      case "initialize":
        return post(
          {
            jsonrpc: "2.0",
            id: n,
            method: "initialize",
            params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
          },
          {},
        );
      case "get":
        return fetch(MCP_URL, { method: "GET", headers: { Accept: "text/event-stream", Authorization: authorization, ...session } });
      case "delete":
        return fetch(MCP_URL, { method: "DELETE", headers: { Authorization: authorization, ...session } });
    }
  }

  async function expectAliceStillServed(n: number, interactive: boolean): Promise<void> {
    figures.livenessChecks++;
    const headers = {
      "Content-Type": "application/json",
      Accept: ACCEPT_BOTH,
      ...bearer(aliceToken),
      "Mcp-Session-Id": aliceSession,
      "MCP-Protocol-Version": VERSION,
    };
    const ping = await fetch(MCP_URL, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: `alive-${n}`, method: "ping" }),
    });
    expect(ping.status, "alice's session stopped answering her").toBe(200);
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: `alive-${n}`, result: {} });
    if (!interactive) return;
    const call = await fetch(MCP_URL, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: `alive-call-${n}`,
        method: "tools/call",
        params: { name: "stream_progress", arguments: { count: 1 } },
      }),
    });
    expect(call.status).toBe(200);
    expect(await call.text()).toContain("done 1");
  }

  it("lets nobody in: every forged credential gets its documented refusal, and alice's session is untouched", {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(recipe, target, async (r, picked) => {
        const n = ++figures.cases;
        consoleError.mockClear();
        // A signature that may still verify (see forge) is alice's own credential: it may not DELETE her session.
        const t = picked === "delete" && r.kind === "flip" && r.segment === 2 ? "ping" : picked;
        const { authorization, secret, expected } = await forge(r, t);
        const res = await send(t, authorization, n);
        // Streams (a GET, or an interactive call with a token that verified) are read only as far as needed.
        const isStream = res.headers.get("Content-Type") === "text/event-stream";
        const body = isStream ? "" : await res.text();
        if (isStream) await res.body?.cancel();
        const context = `${JSON.stringify(r)} on ${t}: ${res.status} ${body.slice(0, 300)}`;

        expect(expected.statuses, context).toContain(res.status);
        if (res.status >= 400 && res.status < 500 && res.status !== 404) {
          const challenge = challengeOf(res);
          if (expected.error) expect(challenge.error, context).toBe(expected.error);
          else expect(challenge.error, context).toBeUndefined(); // RFC 6750 §3.1: no credentials, no error code
          expect(challenge.resource_metadata, context).toMatch(/^https:\/\/mcp\.example\.com\/\.well-known\/oauth-protected-resource/);
        }
        // What the client sent is never echoed: not the token, not its signature.
        const shown = `${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${body}`;
        if (secret.length >= 8) {
          expect(shown.includes(secret), `the token was echoed: ${context}`).toBe(false);
          const signature = secret.split(".")[2];
          if (signature && signature.length >= 8) expect(shown.includes(signature), `the signature was echoed: ${context}`).toBe(false);
        }
        expect(leaksIn(shown, [authorization]), context).toEqual([]);
        expect(
          consoleError.mock.calls.map((c) => String(c[0])),
          `logged an internal failure: ${context}`,
        ).toEqual([]);

        if (res.status === 401) figures.refused401++;
        if (res.status === 400) figures.refused400++;
        if (res.status === 403) figures.refused403++;
        if (res.status === 404) figures.refused404++;
        if (res.status === 200 && t === "initialize" && r.kind === "claims") figures.mallorySessions++;
        if (r.kind === "flip" && res.status < 300) figures.acceptedNonCanonicalSignature++;

        // A refused DELETE must not have ended the session; every tenth case also checks the object lane.
        if (t === "delete" || n % 10 === 0) await expectAliceStillServed(n, n % 10 === 0);
      }),
      fuzzParameters(3_000, 7),
    );
    await expectAliceStillServed(0, true);
  });
});
