/**
 * Protocol errors of a well-formed request are JSON-RPC errors with the request's id on a 200
 * (docs/errors.md "HTTP errors": unknown method / bad params), never HTTP errors.
 */
import { describe, expect, it } from "vitest";
import { INVALID_PARAMS, METHOD_NOT_FOUND } from "../../src/jsonrpc/errors";
import { openSession, post } from "../helpers/mcp";
import { expectRpcError, statelessCall } from "../helpers/rpc-expect";

describe("-32601 Method not found", () => {
  it("answers an unknown method in a session with 200, -32601 and the request id", async () => {
    const { sessionId, version } = await openSession();
    const res = await post({ jsonrpc: "2.0", id: "m-1", method: "tools/explode", params: {} }, { sessionId, version });
    await expectRpcError(res, 200, METHOD_NOT_FOUND, "m-1");
  });

  it("answers an unknown method in stateless mode with 200 and -32601", async () => {
    await expectRpcError(await statelessCall("sampling/createMessage", {}, {}, 41), 200, METHOD_NOT_FOUND, 41);
  });

  it("does not treat inherited object properties as methods", async () => {
    await expectRpcError(await statelessCall("constructor", {}, {}, 42), 200, METHOD_NOT_FOUND, 42);
    await expectRpcError(await statelessCall("__proto__", {}, {}, 43), 200, METHOD_NOT_FOUND, 43);
  });
});

describe("-32602 Invalid params", () => {
  it("answers tools/call of an unknown tool with -32602 and the request id", async () => {
    const { sessionId, version } = await openSession();
    const res = await post(
      { jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
      { sessionId, version },
    );
    const body = await expectRpcError(res, 200, INVALID_PARAMS, 11);
    expect(body.error?.message).toContain("no_such_tool");
  });

  it("answers tools/call without a name with -32602", async () => {
    await expectRpcError(await statelessCall("tools/call", { arguments: {} }, {}, 12), 200, INVALID_PARAMS, 12);
  });

  it("answers tools/call whose arguments are not an object with -32602", async () => {
    await expectRpcError(await statelessCall("tools/call", { name: "echo", arguments: ["x"] }, {}, 13), 200, INVALID_PARAMS, 13);
  });

  it("answers prompts/get missing a required argument with -32602 naming it", async () => {
    const { sessionId, version } = await openSession();
    const res = await post(
      { jsonrpc: "2.0", id: 14, method: "prompts/get", params: { name: "test_prompt_with_arguments", arguments: { arg1: "a" } } },
      { sessionId, version },
    );
    const body = await expectRpcError(res, 200, INVALID_PARAMS, 14);
    expect(body.error?.message).toContain("arg2");
  });

  it("answers prompts/get of an unknown prompt with -32602", async () => {
    await expectRpcError(await statelessCall("prompts/get", { name: "nope" }, {}, 15), 200, INVALID_PARAMS, 15);
  });

  it("answers prompts/get with a non-string argument value with -32602", async () => {
    const params = { name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: 2 } };
    await expectRpcError(await statelessCall("prompts/get", params, {}, 16), 200, INVALID_PARAMS, 16);
  });

  it("answers a list call with a cursor this server never issued with -32602", async () => {
    const { sessionId, version } = await openSession();
    const res = await post({ jsonrpc: "2.0", id: 17, method: "tools/list", params: { cursor: "not-a-cursor!" } }, { sessionId, version });
    await expectRpcError(res, 200, INVALID_PARAMS, 17);
  });

  it("answers a list call with a non-string cursor with -32602", async () => {
    await expectRpcError(await statelessCall("resources/list", { cursor: 3 }, {}, 18), 200, INVALID_PARAMS, 18);
  });

  it("answers resources/read without a uri with -32602", async () => {
    await expectRpcError(await statelessCall("resources/read", {}, {}, 19), 200, INVALID_PARAMS, 19);
  });

  it("answers completion/complete with an unknown ref type with -32602", async () => {
    const params = { ref: { type: "ref/tool", name: "echo" }, argument: { name: "text", value: "" } };
    await expectRpcError(await statelessCall("completion/complete", params, {}, 20), 200, INVALID_PARAMS, 20);
  });
});
