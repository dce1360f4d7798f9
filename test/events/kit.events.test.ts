/**
 * mcp-edge/testing's events client (`client.events`) against the test server, as a user's test
 * drives it: list, poll from now and after an emit, a stream resolved once active with the events
 * after it, and a refused subscription thrown as its JSON-RPC error; in both eras.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTestClient, type Fetcher, TestRpcError } from "../../src/testing/index";
import { EVENTS } from "../helpers/events";
import { feature } from "../servers/events/entry";

const worker = (exports as unknown as { default: Fetcher }).default;

describe("the test kit's events client", () => {
  it("on 2026-07-28: lists, polls and streams, declaring the extension per request", async () => {
    const client = createTestClient(worker, { protocolVersion: "2026-07-28", timeoutMs: 5_000 });
    expect((await client.events.list()).map((type) => type.name)).toEqual([
      "note.posted",
      "ticket.opened",
      "audit.logged",
      "deploy.finished",
    ]);
    const topic = `kit-${crypto.randomUUID()}`;
    const start = await client.events.poll("note.posted", { topic });
    expect(start).toMatchObject({ events: [], truncated: false, hasMore: false });
    const stream = await client.events.stream("note.posted", { topic }, { cursor: start.cursor });
    expect(stream.active).toEqual({ cursor: start.cursor, truncated: false });
    await feature.emit(env, "note.posted", { text: "via the kit" }, { arguments: { topic } });
    expect(await stream.nextEvent()).toMatchObject({ name: "note.posted", data: { text: "via the kit" } });
    await stream.close();
    const after = await client.events.poll("note.posted", { topic }, { cursor: start.cursor });
    expect(after.events.map((event) => event.data)).toEqual([{ text: "via the kit" }]);
  });

  it("throws a refused subscription's error", async () => {
    const client = createTestClient(worker, { protocolVersion: "2026-07-28", timeoutMs: 5_000 });
    await expect(client.events.stream("audit.logged")).rejects.toMatchObject({ code: -32026 });
    await expect(client.events.poll("no.such")).rejects.toBeInstanceOf(TestRpcError);
  });

  it("in a 2025-11-25 session that declared the extension in initialize", async () => {
    const client = createTestClient(worker, { capabilities: { extensions: { [EVENTS]: {} } }, timeoutMs: 5_000 });
    const topic = `kit-${crypto.randomUUID()}`;
    const start = await client.events.poll("note.posted", { topic });
    await feature.emit(env, "note.posted", { text: "in a session" }, { arguments: { topic } });
    expect((await client.events.poll("note.posted", { topic }, { cursor: start.cursor })).events.map((event) => event.data)).toEqual([
      { text: "in a session" },
    ]);
    await client.close();
  });
});
