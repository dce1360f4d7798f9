/**
 * 2025-06-18 Streamable HTTP > Sending Messages to the Server: a POST of only notifications or
 * responses is answered 202 Accepted with no body.
 */
import { describe, it } from "vitest";
import { openSession, post } from "../helpers/mcp";
import { expectAccepted, postStateless } from "../helpers/rpc-expect";

describe("202 Accepted", () => {
  it("answers a notification-only POST in a session with 202 and an empty body", async () => {
    const { sessionId, version } = await openSession();
    await expectAccepted(await post({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, { sessionId, version }));
  });

  it("answers a response-only POST in a session with 202 (an answer to no pending request is ignored)", async () => {
    const { sessionId, version } = await openSession();
    await expectAccepted(await post({ jsonrpc: "2.0", id: "srv-unknown", result: {} }, { sessionId, version }));
  });

  it("answers an error-response POST in a session with 202", async () => {
    const { sessionId, version } = await openSession();
    await expectAccepted(await post({ jsonrpc: "2.0", id: 77, error: { code: -1, message: "no" } }, { sessionId, version }));
  });

  it("answers notifications/cancelled for nothing in flight with 202", async () => {
    const { sessionId, version } = await openSession();
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 999, reason: "test" } };
    await expectAccepted(await post(cancel, { sessionId, version }));
  });

  it("answers a notification-only POST in stateless mode with 202", async () => {
    await expectAccepted(await postStateless({ jsonrpc: "2.0", method: "notifications/initialized" }));
  });

  it("answers a response-only POST in stateless mode with 202", async () => {
    await expectAccepted(await postStateless({ jsonrpc: "2.0", id: 1, result: {} }));
  });
});
