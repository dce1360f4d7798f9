/**
 * Accept and Content-Type (2025-06-18 Streamable HTTP > Sending Messages to the Server): a POST
 * MUST accept application/json and text/event-stream; a GET MUST accept text/event-stream; a
 * POST body is one JSON-RPC message or batch, so application/json.
 */
import { describe, expect, it } from "vitest";
import { TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { MCP, post, request, STATELESS } from "../helpers/mcp";
import { expectResult, expectRpcError } from "../helpers/rpc-expect";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

describe("406 Not Acceptable", () => {
  it("answers a POST whose Accept lacks text/event-stream with 406, -32000 and id null", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Accept: "application/json" } });
    await expectRpcError(res, 406, TRANSPORT_ERROR, null);
  });

  it("answers a POST whose Accept lacks application/json with 406", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Accept: "text/event-stream" } });
    await expectRpcError(res, 406, TRANSPORT_ERROR, null);
  });

  it("answers a POST with no Accept header with 406", async () => {
    const res = await request(STATELESS, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(PING),
    });
    await expectRpcError(res, 406, TRANSPORT_ERROR, null);
  });

  it("answers a POST on the session endpoint with 406 before checking the session", async () => {
    const res = await post(PING, { headers: { Accept: "application/json" } });
    await expectRpcError(res, 406, TRANSPORT_ERROR, null);
  });

  it("accepts the two types in either order and with parameters", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Accept: "text/event-stream;q=0.9, application/json;q=1" } });
    expect(await expectResult(res)).toEqual({});
  });

  it("answers a GET whose Accept lacks text/event-stream with 406", async () => {
    const res = await request(MCP, { method: "GET", headers: { Accept: "application/json" } });
    await expectRpcError(res, 406, TRANSPORT_ERROR, null);
  });
});

describe("415 Unsupported Media Type", () => {
  it("answers a POST with Content-Type text/plain with 415, -32000 and id null", async () => {
    const res = await post(PING, { url: STATELESS, headers: { "Content-Type": "text/plain" } });
    await expectRpcError(res, 415, TRANSPORT_ERROR, null);
  });

  it("answers a POST without Content-Type with 415", async () => {
    const res = await request(STATELESS, {
      method: "POST",
      headers: { Accept: "application/json, text/event-stream" },
      body: new TextEncoder().encode(JSON.stringify(PING)),
    });
    await expectRpcError(res, 415, TRANSPORT_ERROR, null);
  });

  it("answers a form-encoded POST on the session endpoint with 415", async () => {
    const res = await post(PING, { headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    await expectRpcError(res, 415, TRANSPORT_ERROR, null);
  });

  it("accepts application/json with a charset parameter", async () => {
    const res = await post(PING, { url: STATELESS, headers: { "Content-Type": "application/json; charset=utf-8" } });
    expect(await expectResult(res)).toEqual({});
  });
});
