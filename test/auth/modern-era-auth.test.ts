/**
 * Authorization on 2026-07-28 (basic/authorization/index.mdx): every request is authenticated
 * on its own (there is no session to lean on), a missing tool scope gets one 403 challenge
 * naming every scope the operation needs, the principal binds MRTR's requestState, and
 * `offline_access` is never named in challenges or in the protected resource metadata.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { envelope, headers2026 } from "../helpers/era-2026";
import {
  accessToken,
  authOptions,
  bearer,
  challengeOf,
  edgeFetch,
  jwksOf,
  METADATA_URL,
  postTo,
  signingKey,
  type Fetch,
  type SigningKey,
} from "./fixtures";

let key: SigningKey;
let fetch: Fetch;

function modern(method: string, params: Record<string, unknown>, headers: Record<string, string>, id = 1) {
  return postTo(
    fetch,
    { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope({ elicitation: {} }) } },
    { ...headers2026(method, params), ...headers },
  );
}

beforeAll(async () => {
  key = await signingKey("k1");
  fetch = edgeFetch({
    sessions: false,
    auth: authOptions(jwksOf(key), { toolScopes: { echo: ["notes:write"] }, scopesSupported: ["mcp", "notes:write", "offline_access"] }),
  });
});

describe("2026-07-28 requests and the resource server", () => {
  it("answers a claimed request without a token with 401 and the challenge", async () => {
    const res = await modern("tools/list", {}, {});
    expect(res.status).toBe(401);
    expect(challengeOf(res).resource_metadata).toBe(METADATA_URL);
  });

  it("serves a claimed request with a valid token", async () => {
    const res = await modern("tools/list", {}, bearer(await accessToken(key)));
    expect(res.status).toBe(200);
  });

  it("refuses a tool whose scope the token lacks with one 403 naming every scope the call needs", async () => {
    const res = await modern("tools/call", { name: "echo", arguments: { text: "x" } }, bearer(await accessToken(key)));
    expect(res.status).toBe(403);
    expect(challengeOf(res)).toMatchObject({ error: "insufficient_scope", scope: "mcp notes:write" });
  });

  it("never publishes offline_access in scopes_supported", async () => {
    // The metadata's path on this Worker's own (loopback) host: a foreign URL host is refused as DNS rebinding.
    const res = await fetch(`http://127.0.0.1:8787${new URL(METADATA_URL).pathname}`, { method: "GET" });
    expect(((await res.json()) as { scopes_supported: string[] }).scopes_supported).toEqual(["mcp", "notes:write"]);
  });

  it("binds a requestState to its principal: another subject's retry is refused with -32602", async () => {
    const params = { name: "test_input_required_result_elicitation", arguments: {} };
    const first = (await (await modern("tools/call", params, bearer(await accessToken(key)))).json()) as {
      result: { requestState?: string; resultType: string };
    };
    expect(first.result.resultType).toBe("input_required");
    const retry = await modern(
      "tools/call",
      { ...params, inputResponses: { user_name: { action: "accept", content: { name: "M" } } }, requestState: first.result.requestState },
      bearer(await accessToken(key, { sub: "mallory" })),
      2,
    );
    expect(((await retry.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });
});
