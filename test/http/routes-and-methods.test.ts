/**
 * The route table: the MCP endpoints answer their methods, other methods get 405 with Allow
 * (2025-06-18 Streamable HTTP: a server that offers no GET stream answers 405), and every
 * other path is 404.
 */
import { describe, expect, it } from "vitest";
import { TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { BASE, MCP, request, STATELESS } from "../helpers/mcp";
import { expectRpcError } from "../helpers/rpc-expect";

function allowed(res: Response): string[] {
  return (res.headers.get("Allow") ?? "")
    .split(",")
    .map((m) => m.trim())
    .sort();
}

describe("405 Method Not Allowed", () => {
  it("answers PUT on /mcp with 405, -32000 and an Allow header listing the endpoint's methods", async () => {
    const res = await request(MCP, { method: "PUT", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(allowed(res)).toEqual(["DELETE", "GET", "OPTIONS", "POST"]);
    await expectRpcError(res, 405, TRANSPORT_ERROR, null);
  });

  it("answers PATCH on /mcp with 405 and Allow", async () => {
    const res = await request(MCP, { method: "PATCH", headers: {}, body: "{}" });
    expect(allowed(res)).toEqual(["DELETE", "GET", "OPTIONS", "POST"]);
    await expectRpcError(res, 405, TRANSPORT_ERROR, null);
  });

  it("answers GET on the stateless endpoint with 405 and Allow: POST, OPTIONS (no standalone stream)", async () => {
    const res = await request(STATELESS, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(allowed(res)).toEqual(["OPTIONS", "POST"]);
    await expectRpcError(res, 405, TRANSPORT_ERROR, null);
  });

  it("answers DELETE on the stateless endpoint with 405 and Allow: POST, OPTIONS (no session to end)", async () => {
    const res = await request(STATELESS, { method: "DELETE", headers: { "Mcp-Session-Id": "ab".repeat(32) } });
    expect(allowed(res)).toEqual(["OPTIONS", "POST"]);
    await expectRpcError(res, 405, TRANSPORT_ERROR, null);
  });
});

describe("the MCP endpoints", () => {
  it("serves the endpoint when the URL carries a query string", async () => {
    const res = await request(`${STATELESS}?client=test`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});

describe("404 Not Found", () => {
  it("answers an unknown path with 404 and -32000", async () => {
    await expectRpcError(await request(`${BASE}/nope`, { method: "GET", headers: {} }), 404, TRANSPORT_ERROR, null);
  });

  it("answers a POST to a path below the endpoint with 404", async () => {
    const res = await request(`${MCP}/extra`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    await expectRpcError(res, 404, TRANSPORT_ERROR, null);
  });

  it("answers the root path with 404", async () => {
    await expectRpcError(await request(`${BASE}/`, { method: "GET", headers: {} }), 404, TRANSPORT_ERROR, null);
  });
});
