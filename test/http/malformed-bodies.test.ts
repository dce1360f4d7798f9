/**
 * Bodies that are not JSON (-32700) or not a valid JSON-RPC message (-32600) get 400 before
 * any session or handler is involved. The id is echoed when it can be read (JSON-RPC 2.0 §5:
 * null when it cannot be determined); MCP forbids a null request id (2025-06-18 "Requests").
 */
import { describe, it } from "vitest";
import { INVALID_REQUEST, PARSE_ERROR } from "../../src/jsonrpc/errors";
import { openSession, post, STATELESS } from "../helpers/mcp";
import { expectRpcError } from "../helpers/rpc-expect";

describe("400 Parse error", () => {
  it("answers a body that is not JSON with 400, -32700 and id null", async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": "ping"', { url: STATELESS });
    await expectRpcError(res, 400, PARSE_ERROR, null);
  });

  it("answers an empty body with 400 and -32700", async () => {
    await expectRpcError(await post("", { url: STATELESS }), 400, PARSE_ERROR, null);
  });

  it("answers a non-JSON body on the session endpoint with -32700 even without a session id", async () => {
    await expectRpcError(await post("hello", {}), 400, PARSE_ERROR, null);
  });
});

describe("400 Invalid Request", () => {
  it("answers a request with id null with 400, -32600 and id null", async () => {
    const res = await post({ jsonrpc: "2.0", id: null, method: "ping" }, { url: STATELESS });
    await expectRpcError(res, 400, INVALID_REQUEST, null);
  });

  it('echoes the id of a request whose jsonrpc is not "2.0"', async () => {
    const res = await post({ jsonrpc: "1.0", id: 5, method: "ping" }, { url: STATELESS });
    await expectRpcError(res, 400, INVALID_REQUEST, 5);
  });

  it("echoes the id of a request without jsonrpc", async () => {
    const res = await post({ id: "abc", method: "ping" }, { url: STATELESS });
    await expectRpcError(res, 400, INVALID_REQUEST, "abc");
  });

  it("echoes the id of a request whose params are an array", async () => {
    const res = await post({ jsonrpc: "2.0", id: 7, method: "tools/list", params: [1, 2] }, { url: STATELESS });
    await expectRpcError(res, 400, INVALID_REQUEST, 7);
  });

  it("echoes the id of a request whose method is not a string", async () => {
    const res = await post({ jsonrpc: "2.0", id: 8, method: 42 }, { url: STATELESS });
    await expectRpcError(res, 400, INVALID_REQUEST, 8);
  });

  it("answers a request whose id is neither string nor number with id null", async () => {
    const res = await post({ jsonrpc: "2.0", id: { nested: 1 }, method: "ping" }, { url: STATELESS });
    await expectRpcError(res, 400, INVALID_REQUEST, null);
  });

  it("answers a JSON value that is not an object with -32600", async () => {
    await expectRpcError(await post("42", { url: STATELESS }), 400, INVALID_REQUEST, null);
  });

  it("answers an object that is neither request, notification nor response with -32600 and its readable id", async () => {
    const res = await post({ jsonrpc: "2.0", id: 3 }, { url: STATELESS });
    await expectRpcError(res, 400, INVALID_REQUEST, 3);
    await expectRpcError(await post({ jsonrpc: "2.0", id: { x: 1 } }, { url: STATELESS }), 400, INVALID_REQUEST, null);
  });

  it("answers an empty batch with 400 and -32600", async () => {
    await expectRpcError(await post([], { url: STATELESS }), 400, INVALID_REQUEST, null);
  });

  it("answers an invalid message inside a live session with 400 and -32600", async () => {
    const { sessionId, version } = await openSession();
    const res = await post({ jsonrpc: "2.0", id: 9, method: "ping", params: "x" }, { sessionId, version });
    await expectRpcError(res, 400, INVALID_REQUEST, 9);
  });
});
