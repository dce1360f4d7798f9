/**
 * Session ids and protocol versions at the Worker (2025-06-18 Streamable HTTP > Session
 * Management and > Protocol Version Header): 400 for a missing Mcp-Session-Id after
 * initialize, 404 for an unknown one, 400 for an unsupported MCP-Protocol-Version. A malformed
 * or forged id is refused without waking any Durable Object.
 */
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SESSION_NOT_FOUND, TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { MCP, openSession, post, request, STATELESS } from "../helpers/mcp";
import { expectRpcError, sessionNamespace } from "../helpers/rpc-expect";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };
/** Well-formed (64 lower-case hex) but not minted by the namespace. */
const FORGED_ID = "ab".repeat(32);

async function objectIds(): Promise<string[]> {
  return (await listDurableObjectIds(sessionNamespace())).map((id) => id.toString()).sort();
}

describe("400 missing Mcp-Session-Id (session mode)", () => {
  it("answers a request without Mcp-Session-Id after initialize with 400 and -32000", async () => {
    await openSession();
    const res = await post(PING, { version: "2025-06-18" });
    await expectRpcError(res, 400, TRANSPORT_ERROR, null);
  });

  it("answers a notification without Mcp-Session-Id with 400", async () => {
    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { version: "2025-06-18" });
    await expectRpcError(res, 400, TRANSPORT_ERROR, null);
  });

  it("answers a GET without Mcp-Session-Id with 400", async () => {
    const res = await request(MCP, { method: "GET", headers: { Accept: "text/event-stream" } });
    await expectRpcError(res, 400, TRANSPORT_ERROR, null);
  });

  it("answers a DELETE without Mcp-Session-Id with 400", async () => {
    const res = await request(MCP, { method: "DELETE", headers: {} });
    await expectRpcError(res, 400, TRANSPORT_ERROR, null);
  });
});

describe("404 unknown session", () => {
  it("answers a minted id that names no session with 404 and -32001", async () => {
    const unknown = sessionNamespace().newUniqueId().toString();
    const res = await post(PING, { sessionId: unknown, version: "2025-06-18" });
    await expectRpcError(res, 404, SESSION_NOT_FOUND, null);
  });

  it("answers a forged well-formed id with 404 and -32001", async () => {
    const res = await post(PING, { sessionId: FORGED_ID, version: "2025-06-18" });
    await expectRpcError(res, 404, SESSION_NOT_FOUND, null);
  });

  it("answers a malformed id with 404 and -32001", async () => {
    const res = await post(PING, { sessionId: "not-a-session", version: "2025-06-18" });
    await expectRpcError(res, 404, SESSION_NOT_FOUND, null);
  });

  it("creates no Durable Object for a forged or malformed id on any method", async () => {
    await openSession();
    const before = await objectIds();
    for (const sessionId of [FORGED_ID, "not-a-session", FORGED_ID.toUpperCase(), `${FORGED_ID}0`]) {
      await expectRpcError(await post(PING, { sessionId }), 404, SESSION_NOT_FOUND, null);
      await expectRpcError(
        await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId }),
        404,
        SESSION_NOT_FOUND,
        null,
      );
      await expectRpcError(
        await request(MCP, { method: "GET", headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId } }),
        404,
        SESSION_NOT_FOUND,
        null,
      );
      await expectRpcError(
        await request(MCP, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } }),
        404,
        SESSION_NOT_FOUND,
        null,
      );
    }
    expect(await objectIds()).toEqual(before);
  });

  it("answers GET and DELETE for a minted id that names no session with 404", async () => {
    const unknown = sessionNamespace().newUniqueId().toString();
    await expectRpcError(
      await request(MCP, { method: "GET", headers: { Accept: "text/event-stream", "Mcp-Session-Id": unknown } }),
      404,
      SESSION_NOT_FOUND,
      null,
    );
    await expectRpcError(await request(MCP, { method: "DELETE", headers: { "Mcp-Session-Id": unknown } }), 404, SESSION_NOT_FOUND, null);
  });

  it("answers a notification for an unknown session with 404", async () => {
    const unknown = sessionNamespace().newUniqueId().toString();
    const res = await post({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, { sessionId: unknown });
    await expectRpcError(res, 404, SESSION_NOT_FOUND, null);
  });

  it("answers notifications/initialized for a session id never issued with 404, as every other message (the object is asked)", async () => {
    const unknown = sessionNamespace().newUniqueId().toString();
    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId: unknown });
    await expectRpcError(res, 404, SESSION_NOT_FOUND, null);
  });
});

describe("400 unsupported MCP-Protocol-Version", () => {
  it("answers an unsupported version header in a session with 400 and -32000", async () => {
    const { sessionId } = await openSession();
    const res = await post(PING, { sessionId, version: "1999-01-01" });
    await expectRpcError(res, 400, TRANSPORT_ERROR, null);
  });

  it("answers an unsupported version header in stateless mode with 400", async () => {
    const res = await post(PING, { url: STATELESS, version: "2030-01-01" });
    await expectRpcError(res, 400, TRANSPORT_ERROR, null);
  });

  it("answers an unsupported version header on GET with 400", async () => {
    const { sessionId } = await openSession();
    const res = await request(MCP, {
      method: "GET",
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "garbage" },
    });
    await expectRpcError(res, 400, TRANSPORT_ERROR, null);
  });

  it("answers a request with no version header in a session (2025-06-18: missing means 2025-03-26)", async () => {
    const { sessionId } = await openSession();
    const res = await post(PING, { sessionId });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});
