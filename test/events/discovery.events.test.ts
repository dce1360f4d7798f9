/**
 * The Events extension's discovery (the draft conformance scenario `events-discovery`, check ids
 * `sep-9999-*`) on the test server (test/servers/events): the capability in the extensions map,
 * events/list paged with every descriptor field, an unknown name's NotFound, and the gate on the
 * client's declaration in both eras.
 */
import { describe, expect, it } from "vitest";
import { post2026 } from "../helpers/era-2026";
import { DECLARED, EVENTS, events2026, eventsInSession, replyOf, resultOf } from "../helpers/events";
import { initializeParams, post } from "../helpers/mcp";
import { startSession } from "../helpers/session";

describe("events discovery", () => {
  it("declares the extension as an object in server/discover (sep-9999-capability-events-object, -empty-settings, -list-changed-flag)", async () => {
    const result = await resultOf(await post2026("server/discover", {}));
    const extensions = (result.capabilities as { extensions?: Record<string, unknown> }).extensions;
    expect(extensions?.[EVENTS]).toEqual({});
  });

  it("declares it in a 2025-11-25 initialize to a client that declared it, and not to one that did not", async () => {
    const declared = await replyOf(
      await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2025-11-25", DECLARED) }),
    );
    expect((declared.result?.capabilities as { extensions?: Record<string, unknown> }).extensions).toEqual({ [EVENTS]: {} });
    const plain = await replyOf(await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2025-11-25") }));
    expect((plain.result?.capabilities as { extensions?: Record<string, unknown> }).extensions?.[EVENTS]).toBeUndefined();
  });

  it("lists every event type, paged with nextCursor (sep-9999-list-implemented, sep-9999-list-pagination)", async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await resultOf(await events2026("events/list", cursor === undefined ? {} : { cursor }));
      names.push(...(page.events as { name: string }[]).map((event) => event.name));
      cursor = page.nextCursor as string | undefined;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(2);
    expect(names).toEqual(["note.posted", "ticket.opened", "audit.logged", "deploy.finished"]);
  });

  it("describes each type with name, description, delivery, inputSchema, payloadSchema and _meta (sep-9999-descriptor-*)", async () => {
    const page = await resultOf(await events2026("events/list"));
    const [note, ticket] = page.events as Record<string, unknown>[];
    expect(note).toMatchObject({
      name: "note.posted",
      description: "A note was posted, optionally under a topic",
      delivery: ["poll", "push", "webhook"],
      inputSchema: { type: "object", properties: { topic: { type: "string", minLength: 1 } } },
      payloadSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      _meta: { "com.example/category": "notes" },
    });
    // sep-9999-descriptor-delivery-subset: a non-empty subset of the three modes.
    expect(ticket?.delivery).toEqual(["poll", "push"]);
    expect(ticket).not.toHaveProperty("_meta");
  });

  it("answers an unknown event name with NotFound, data.kind event, in the server range (sep-9999-error-not-found, -server-range)", async () => {
    const reply = await replyOf(await events2026("events/poll", { name: "no.such.event", arguments: {}, cursor: null }));
    // SEP-3415 numbers NotFound -32023 (the conformance draft: -32011); both sit in -32000..-32099.
    expect(reply.error).toMatchObject({ code: -32023, data: { kind: "event" } });
    expect(reply.error?.message).toContain("no.such.event");
    expect(reply.error!.code).toBeGreaterThanOrEqual(-32099);
    expect(reply.error!.code).toBeLessThanOrEqual(-32000);
  });

  it("refuses a 2026-07-28 client that did not declare the extension with -32021 naming it", async () => {
    const res = await events2026("events/list", {}, {});
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; data: unknown } };
    expect(body.error.code).toBe(-32021);
    expect(body.error.data).toEqual({ requiredCapabilities: { extensions: { [EVENTS]: {} } } });
  });

  it("serves a 2025-11-25 session that negotiated the extension, and answers -32601 to one that did not (sep-9999-fallback-method-not-found)", async () => {
    const negotiated = await startSession("2025-11-25", DECLARED);
    const list = await resultOf(await eventsInSession(negotiated, "events/list"));
    expect((list.events as unknown[]).length).toBe(2);
    const plain = await startSession("2025-11-25");
    const refused = await replyOf(await eventsInSession(plain, "events/list"));
    expect(refused.error?.code).toBe(-32601);
    expect(refused.error?.message).toContain(EVENTS);
  });
});
