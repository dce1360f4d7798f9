/**
 * ping (2025-06-18 "Ping": the receiver MUST respond promptly with an empty response) and
 * logging/setLevel (2025-06-18 "Logging"); conformance requires both results to be exactly {}.
 */
import { describe, expect, it } from "vitest";
import { INVALID_PARAMS } from "../../src/jsonrpc/errors";
import { openSession, post } from "../helpers/mcp";
import { expectRpcError, statelessCall } from "../helpers/rpc-expect";

describe("ping", () => {
  it("answers ping in a session with exactly {}", async () => {
    const { sessionId, version } = await openSession("2025-11-25");
    const res = await post({ jsonrpc: "2.0", id: "p", method: "ping" }, { sessionId, version });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"jsonrpc":"2.0","id":"p","result":{}}');
  });

  it("answers ping in stateless mode with exactly {}", async () => {
    const res = await statelessCall("ping", {}, {}, 0);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 0, result: {} });
  });

  it("answers ping without params", async () => {
    const { sessionId, version } = await openSession();
    const res = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { sessionId, version });
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });
});

describe("logging/setLevel", () => {
  it("answers setLevel in a session with exactly {}", async () => {
    const { sessionId, version } = await openSession();
    const res = await post({ jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "debug" } }, { sessionId, version });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });

  it("answers setLevel in stateless mode with exactly {}", async () => {
    const res = await statelessCall("logging/setLevel", { level: "warning" }, {}, 4);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
  });

  it("answers an invalid level in a session with -32602", async () => {
    const { sessionId, version } = await openSession();
    const res = await post({ jsonrpc: "2.0", id: 5, method: "logging/setLevel", params: { level: "verbose" } }, { sessionId, version });
    await expectRpcError(res, 200, INVALID_PARAMS, 5);
  });

  it("answers a missing level in stateless mode with -32602", async () => {
    await expectRpcError(await statelessCall("logging/setLevel", {}, {}, 6), 200, INVALID_PARAMS, 6);
  });
});
