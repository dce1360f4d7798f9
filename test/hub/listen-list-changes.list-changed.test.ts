/**
 * 2026-07-28 listen streams on a server that announces list changes: the schema's example
 * exchange reproduced, and one notifyListChanged reaching both a listen stream that opted in
 * and every 2025-era session with a GET stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { closeListenStreams, publish } from "../../src/features/hub/publish";
import { call } from "../helpers/mcp";
import { getStream, sseOf, startSession } from "../helpers/session";
import { edgeEnv, openListen, SUBSCRIPTION_ID } from "../helpers/listen";
import { flags, server } from "../servers/list-changed/entry";

const CONFIG = "file:///project/config.json";

describe("subscriptions/listen on a server with listChanged", () => {
  afterEach(() => {
    flags.beta = false;
  });

  it("acknowledges the example request exactly as schema/examples shows", async () => {
    // schema/examples/SubscriptionsListenRequest/listen-for-list-changes.json
    const { stream, ack } = await openListen({
      server,
      id: "listen-1",
      notifications: { toolsListChanged: true, resourceSubscriptions: [CONFIG] },
    });
    // schema/examples/SubscriptionsAcknowledgedNotification/listen-acknowledged.json
    expect(ack).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [SUBSCRIPTION_ID]: "listen-1" }, notifications: { toolsListChanged: true, resourceSubscriptions: [CONFIG] } },
    });
    await stream.cancel();
  });

  it("honours every list the server has, and leaves out false flags", async () => {
    const { stream, ack } = await openListen({
      server,
      notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: false },
    });
    expect((ack.params as { notifications: unknown }).notifications).toEqual({ toolsListChanged: true, promptsListChanged: true });
    await stream.cancel();
  });

  it("one tool's notifyListChanged reaches a listen stream that opted in and a 2025 session's GET stream", async () => {
    const s = await startSession("2025-06-18");
    const standalone = sseOf(await getStream(s));
    const tools = await openListen({ server, id: "tools", notifications: { toolsListChanged: true } });
    const prompts = await openListen({ server, id: "prompts", notifications: { promptsListChanged: true } });

    await call(s.sessionId, s.version, "tools/call", { name: "set_beta", arguments: { on: true } });
    expect((await tools.stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { [SUBSCRIPTION_ID]: "tools" } },
    });
    expect((await standalone.next())?.json).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });

    // The prompts stream opted in to prompts only: its next event is the prompts change.
    await publish(edgeEnv, { type: "listChanged", list: "prompts" });
    expect((await prompts.stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/prompts/list_changed",
      params: { _meta: { [SUBSCRIPTION_ID]: "prompts" } },
    });
    await Promise.all([tools.stream.cancel(), prompts.stream.cancel(), standalone.cancel()]);
  });

  it("ends with the example's complete result on server shutdown", async () => {
    const { stream } = await openListen({
      server,
      id: "listen-1",
      notifications: { toolsListChanged: true },
      features: { shard: "shutdown" },
    });
    await closeListenStreams(edgeEnv, { shard: "shutdown" });
    // schema/examples/SubscriptionsListenResultResponse/listen-closed-response.json, plus serverInfo.
    expect((await stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      id: "listen-1",
      result: {
        resultType: "complete",
        _meta: { [SUBSCRIPTION_ID]: "listen-1", "io.modelcontextprotocol/serverInfo": { name: "list-changed-test", version: "1.0.0" } },
      },
    });
    expect(await stream.next()).toBeUndefined();
  });
});
