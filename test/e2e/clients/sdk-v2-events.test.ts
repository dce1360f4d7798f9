// The Events extension with the official SDK v2 client over real HTTP, against the demo Worker
// (src/demo/events.ts): events/list and events/poll through client.request with result schemas, an
// emit through the demo's inbound route (POST /events/notes, as a Stripe or GitHub webhook would
// arrive), and an events/stream held open as a long-lived request whose notifications reach the
// client's handlers. Pinned to 2026-07-28, and in a 2025-11-25 session that declared the extension.
import type { Client } from "@modelcontextprotocol/client";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { withSdkV2Client } from "../helpers/sdk-v2-client";
import { useWorker } from "../helpers/server";

const EVENTS = "io.modelcontextprotocol/events";
const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";
const server = useWorker();

const ListResult = z.looseObject({ events: z.array(z.looseObject({ name: z.string(), delivery: z.array(z.string()) })) });
const Occurrence = z.looseObject({ eventId: z.string(), name: z.string(), timestamp: z.string(), data: z.unknown() });
const PollResult = z.looseObject({
  events: z.array(Occurrence),
  cursor: z.string().nullable(),
  truncated: z.boolean(),
  hasMore: z.boolean(),
  nextPollMs: z.number(),
});

function connected<T>(mode: "legacy" | { pin: string }, use: (client: Client) => Promise<T>): Promise<T> {
  return withSdkV2Client(server.mcpUrl, { name: "e2e-sdk-v2-events", mode, extensions: [EVENTS] }, use);
}

async function postNote(text: string, topic: string): Promise<void> {
  const res = await fetch(`${server.url}/events/notes`, { method: "POST", body: JSON.stringify({ text, topic }) });
  expect(res.status).toBe(202);
}

async function pollNotes(client: Client, topic: string, cursor: string | null) {
  return client.request({ method: "events/poll", params: { name: "demo.note.posted", arguments: { topic }, cursor } } as never, PollResult);
}

describe("events with the SDK v2 client", () => {
  it("pinned to 2026-07-28: discovers the extension, lists the demo's types, polls an emitted note", async () => {
    await connected({ pin: "2026-07-28" }, async (client) => {
      expect(client.getServerCapabilities()?.extensions?.[EVENTS]).toEqual({});
      const { events } = await client.request({ method: "events/list", params: {} } as never, ListResult);
      expect(events.map((event) => event.name)).toEqual(expect.arrayContaining(["demo.note.posted", "demo.clock.tick"]));
      const topic = `e2e-${crypto.randomUUID()}`;
      const start = await pollNotes(client, topic, null);
      await postNote("hello from e2e", topic);
      const next = await pollNotes(client, topic, start.cursor);
      expect(next.events.map((event) => event.data)).toEqual([{ text: "hello from e2e", topic }]);
      const tick = await client.request(
        { method: "events/poll", params: { name: "demo.clock.tick", arguments: { everySeconds: 5 }, cursor: null } } as never,
        PollResult,
      );
      expect(tick).toMatchObject({ events: [], truncated: false, hasMore: false, nextPollMs: 5000 });
    });
  });

  it("pinned to 2026-07-28: holds an events/stream whose notifications reach the client's handlers, until it aborts", async () => {
    await connected({ pin: "2026-07-28" }, async (client) => {
      const topic = `e2e-${crypto.randomUUID()}`;
      const seen: { method: string; params: Record<string, unknown> }[] = [];
      let onActive: () => void = () => undefined;
      let onEvent: () => void = () => undefined;
      const active = new Promise<void>((resolve) => (onActive = resolve));
      const event = new Promise<void>((resolve) => (onEvent = resolve));
      client.fallbackNotificationHandler = async (notification) => {
        seen.push({ method: notification.method, params: (notification.params ?? {}) as Record<string, unknown> });
        if (notification.method === "notifications/events/active") onActive();
        if (notification.method === "notifications/events/event") onEvent();
      };
      const abort = new AbortController();
      const streaming = client
        .request(
          { method: "events/stream", params: { name: "demo.note.posted", arguments: { topic }, cursor: null } } as never,
          z.looseObject({}),
          {
            signal: abort.signal,
            timeout: 120_000,
          },
        )
        .catch((error: unknown) => error);
      await active;
      await postNote("streamed", topic);
      await event;
      abort.abort();
      await streaming;
      const delivered = seen.find((n) => n.method === "notifications/events/event")!;
      expect(delivered.params).toMatchObject({ name: "demo.note.posted", data: { text: "streamed", topic } });
      expect(Object.keys((delivered.params._meta ?? {}) as object)).toContain(SUBSCRIPTION);
      expect(seen.every((n) => n.method.startsWith("notifications/events/"))).toBe(true);
    });
  });

  it("in a 2025-11-25 session that declared the extension: the same poll", async () => {
    await connected("legacy", async (client) => {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect(client.getServerCapabilities()?.extensions?.[EVENTS]).toEqual({});
      const topic = `e2e-${crypto.randomUUID()}`;
      const start = await pollNotes(client, topic, null);
      await postNote("in a session", topic);
      expect((await pollNotes(client, topic, start.cursor)).events.map((event) => event.data)).toEqual([{ text: "in a session", topic }]);
    });
  });
});
