/**
 * The body limit (default 4 MiB, docs/configuration.md "Limits"): a larger POST gets 413 with
 * the limit code, whether it declares its size (Content-Length) or streams it chunked; a body
 * just under the limit is served, in the Worker and when forwarded to the session object.
 */
import { describe, expect, it } from "vitest";
import { LIMIT_EXCEEDED, LIMIT_EXCEEDED_2026 } from "../../src/jsonrpc/errors";
import { DEFAULT_MAX_BODY_BYTES } from "../../src/kernel/options";
import { ACCEPT_BOTH, MCP, openSession, post, request, STATELESS } from "../helpers/mcp";
import { expectAccepted, expectResult, expectRpcError } from "../helpers/rpc-expect";

const CHUNK = 64 * 1024;

/** A chunked body (no Content-Length) of `total` bytes, produced on demand. */
function chunkedBody(total: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(CHUNK, total - sent);
      controller.enqueue(chunk.slice(0, size));
      sent += size;
    },
    cancel() {
      sent = total;
    },
  });
}

/** A tools/call of `echo` whose body is exactly `size` bytes. */
function echoBodyOfSize(size: number): string {
  const empty = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "" } } });
  return empty.replace('"text":""', `"text":"${"a".repeat(size - empty.length)}"`);
}

describe("413 Payload Too Large", () => {
  it("answers a body over the limit with Content-Length with 413, -32003 and id null", async () => {
    const body = echoBodyOfSize(DEFAULT_MAX_BODY_BYTES + 1);
    const res = await post(body, { url: STATELESS });
    await expectRpcError(res, 413, LIMIT_EXCEEDED, null);
  });

  it("answers a chunked body over the limit (no Content-Length) with 413", async () => {
    const res = await request(STATELESS, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH },
      body: chunkedBody(DEFAULT_MAX_BODY_BYTES + CHUNK),
    });
    await expectRpcError(res, 413, LIMIT_EXCEEDED, null);
  });

  it("answers a body over the limit on the session endpoint with 413 before checking the session", async () => {
    const res = await post(echoBodyOfSize(DEFAULT_MAX_BODY_BYTES + 1), { sessionId: "ab".repeat(32) });
    await expectRpcError(res, 413, LIMIT_EXCEEDED, null);
  });

  it("answers a chunked body over the limit on the session endpoint with 413", async () => {
    const res = await request(MCP, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH },
      body: chunkedBody(DEFAULT_MAX_BODY_BYTES * 2),
    });
    await expectRpcError(res, 413, LIMIT_EXCEEDED, null);
  });
});

describe("bodies at the limit", () => {
  it("serves a body of exactly the limit in the Worker", async () => {
    const body = echoBodyOfSize(DEFAULT_MAX_BODY_BYTES);
    const sent = (JSON.parse(body) as { params: { arguments: { text: string } } }).params.arguments.text;
    const result = await expectResult(await post(body, { url: STATELESS }));
    expect(result.content).toEqual([{ type: "text", text: sent }]);
  });

  it("forwards a nearly 4 MiB notification to the session object as a body", async () => {
    const { sessionId, version } = await openSession();
    const empty = JSON.stringify({ jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { pad: "" } });
    const body = empty.replace('"pad":""', `"pad":"${"b".repeat(DEFAULT_MAX_BODY_BYTES - 1024 - empty.length)}"`);
    await expectAccepted(await post(body, { sessionId, version }));
  });

  it("answers a 2026-07-28 request over the limit with 413 and that era's limit code, -31003 (no id: the body was not read)", async () => {
    const res = await post(echoBodyOfSize(DEFAULT_MAX_BODY_BYTES + 1), {
      headers: { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo" },
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: LIMIT_EXCEEDED_2026 } });
    expect(body).not.toHaveProperty("id");
  });
});
