/**
 * JSON-RPC batches: 2025-03-26 "Batching" (servers MUST support receiving batches) and their
 * removal in 2025-06-18. A batch of requests gets an array of responses; notifications get no
 * entry; an invalid element gets its own -32600 entry (JSON-RPC 2.0 §6). 2025-03-26
 * "Lifecycle": initialize MUST NOT be part of a batch.
 */
import { describe, expect, it } from "vitest";
import { INVALID_REQUEST } from "../../src/jsonrpc/errors";
import { initializeParams, openSession, post } from "../helpers/mcp";
import { expectAccepted, expectRpcError, postStateless, type RpcReply } from "../helpers/rpc-expect";

const ping = (id: number | string) => ({ jsonrpc: "2.0", id, method: "ping" });
const toolsList = (id: number | string) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const note = { jsonrpc: "2.0", method: "notifications/roots/list_changed" };

async function batchReply(res: Response): Promise<RpcReply[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("application/json");
  const body = (await res.json()) as unknown;
  expect(Array.isArray(body)).toBe(true);
  return body as RpcReply[];
}

describe("batches in a 2025-03-26 session", () => {
  it("answers a batch of requests with an array of responses in request order", async () => {
    const { sessionId, version } = await openSession("2025-03-26");
    const replies = await batchReply(await post([ping(1), toolsList(2), ping("three")], { sessionId, version }));
    expect(replies.map((r) => r.id)).toEqual([1, 2, "three"]);
    expect(replies[0]).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(Array.isArray(replies[1]?.result?.tools)).toBe(true);
  });

  it("gives a notification in the batch no entry", async () => {
    const { sessionId, version } = await openSession("2025-03-26");
    const replies = await batchReply(await post([ping(1), note, ping(2)], { sessionId, version }));
    expect(replies.map((r) => r.id)).toEqual([1, 2]);
  });

  it("gives an invalid element its own -32600 entry next to the valid responses", async () => {
    const { sessionId, version } = await openSession("2025-03-26");
    const replies = await batchReply(await post([ping(1), { jsonrpc: "2.0", id: 2, method: 5 }, ping(3)], { sessionId, version }));
    expect(replies).toHaveLength(3);
    expect(replies.filter((r) => r.result).map((r) => r.id)).toEqual([1, 3]);
    expect(replies.find((r) => r.error)).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: INVALID_REQUEST } });
  });

  it("answers each request of a batch on its own, errors included", async () => {
    const { sessionId, version } = await openSession("2025-03-26");
    const replies = await batchReply(await post([ping(1), { jsonrpc: "2.0", id: 2, method: "nope" }], { sessionId, version }));
    expect(replies[0]).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(replies[1]).toMatchObject({ id: 2, error: { code: -32601 } });
  });

  it("answers a batch of only notifications and responses with 202", async () => {
    const { sessionId, version } = await openSession("2025-03-26");
    await expectAccepted(await post([note, { jsonrpc: "2.0", id: "x", result: {} }], { sessionId, version }));
  });

  it("accepts a batch with no version header (missing means 2025-03-26)", async () => {
    const { sessionId } = await openSession("2025-03-26");
    const replies = await batchReply(await post([ping(1), ping(2)], { sessionId }));
    expect(replies.map((r) => r.id)).toEqual([1, 2]);
  });
});

describe("batches in stateless mode", () => {
  it("answers a batch without a version header with an array of responses in order", async () => {
    const replies = await batchReply(await postStateless([toolsList("a"), ping("b")]));
    expect(replies.map((r) => r.id)).toEqual(["a", "b"]);
  });

  it("gives notifications no entry and invalid elements a -32600 entry with id null", async () => {
    const replies = await batchReply(await postStateless([ping(1), note, "junk", ping(2)]));
    expect(replies).toHaveLength(3);
    expect(replies.filter((r) => r.result).map((r) => r.id)).toEqual([1, 2]);
    expect(replies.find((r) => r.error)).toMatchObject({ id: null, error: { code: INVALID_REQUEST } });
  });

  it("answers a batch of only invalid elements with an array of -32600 entries", async () => {
    const replies = await batchReply(await postStateless([1, 2]));
    expect(replies).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: INVALID_REQUEST }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: INVALID_REQUEST }) }),
    ]);
  });

  it("rejects a batch sent with MCP-Protocol-Version 2025-06-18 with 400", async () => {
    await expectRpcError(await postStateless([ping(1), ping(2)], { version: "2025-06-18" }), 400, INVALID_REQUEST, null);
  });
});

describe("batches after 2025-03-26", () => {
  it("rejects a batch of requests in a 2025-06-18 session with 400 and -32600", async () => {
    const { sessionId, version } = await openSession("2025-06-18");
    await expectRpcError(await post([ping(1), ping(2)], { sessionId, version }), 400, INVALID_REQUEST, null);
  });

  it("rejects a batch of notifications in a 2025-06-18 session with 400", async () => {
    const { sessionId, version } = await openSession("2025-06-18");
    await expectRpcError(await post([note, note], { sessionId, version }), 400, INVALID_REQUEST, null);
  });

  it("rejects a batch in a 2025-06-18 session even when the header claims 2025-03-26", async () => {
    const { sessionId } = await openSession("2025-06-18");
    await expectRpcError(await post([ping(1), ping(2)], { sessionId, version: "2025-03-26" }), 400, INVALID_REQUEST, null);
  });
});

describe("initialize in a batch", () => {
  it("rejects initialize inside a batch with 400 and the initialize id, creating no session", async () => {
    const init = { jsonrpc: "2.0", id: "init", method: "initialize", params: initializeParams("2025-03-26") };
    const res = await post([init, ping(2)]);
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
    await expectRpcError(res, 400, INVALID_REQUEST, "init");
  });

  it("rejects initialize inside a batch in stateless mode with 400", async () => {
    const init = { jsonrpc: "2.0", id: 5, method: "initialize", params: initializeParams("2025-03-26") };
    await expectRpcError(await postStateless([init]), 400, INVALID_REQUEST, 5);
  });
});
