import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MCP, request } from "../helpers/mcp";
import {
  answer,
  callOnStream,
  isRequest,
  isToolError,
  postToolCall,
  send,
  sessionState,
  sessionStub,
  startSession,
  toolText,
} from "../helpers/session";

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** 4,000,000 characters with a pattern, so a dropped or shifted chunk would show. */
const FOUR_MB = Array.from({ length: 400_000 }, (_, i) =>
  String(i % 10_000_000)
    .padStart(10, "0")
    .slice(-10),
).join("");

describe("large request bodies", () => {
  it("reach the session object intact (a 2025-03-26 batch the object answers, echoing 4,000,000 characters)", async () => {
    const s = await startSession("2025-03-26");
    // logging/setLevel makes the whole batch go to the session object; its effect there proves the route.
    const res = await send(s, [
      { jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "warning" } },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: FOUR_MB } } },
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; result: { content?: { text: string }[] } }[];
    expect(body.map((r) => r.id)).toEqual([1, 2]);
    const echoed = body[1]?.result.content?.[0]?.text ?? "";
    expect(echoed.length).toBe(4_000_000);
    expect(echoed === FOUR_MB).toBe(true);
    expect((await sessionState(s.sessionId))?.logLevel).toBe("warning");
  });

  it("reach the session object for an interactive call (4,000,000 characters of arguments)", async () => {
    const s = await startSession("2025-06-18");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: 1, padding: FOUR_MB }, "tok")).all();
    expect(events.map((e) => e.json?.method ?? e.json?.id)).toEqual(["notifications/progress", 1]);
    expect(toolText(events.at(-1))).toBe("done 1");
  });

  it("are refused with 413 above 4 MiB (declared length), before reaching the session object", async () => {
    const s = await startSession("2025-06-18");
    const res = await postToolCall(s, 1, "stream_progress", { count: 1, padding: "x".repeat(MAX_BODY_BYTES) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32003 } });
  });

  it("are refused with 413 above 4 MiB when streamed without a declared length", async () => {
    const s = await startSession("2025-06-18");
    const text = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "stream_progress", arguments: { count: 1, padding: "x".repeat(MAX_BODY_BYTES) } },
    });
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.slice(i, i + 65_536));
        controller.close();
      },
    });
    const res = await request(MCP, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Session-Id": s.sessionId,
        "MCP-Protocol-Version": s.version,
      },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: -32003 } });
  });
});

describe("messages too large for one stored event", () => {
  it("answer a call whose response is too large with a -32003 error instead of leaving it unanswered", async () => {
    const s = await startSession("2025-06-18", { elicitation: {} });
    const stream = await callOnStream(s, 1, "test_elicitation", { message: "Who are you?" });
    const asked = (await stream.until(isRequest("elicitation/create"))).at(-1);
    // Accepted content is echoed into the tool's result: 3,000,000 characters do not fit in one stored event.
    await answer(s, asked?.json?.id, { action: "accept", content: { username: "u".repeat(3_000_000), email: "e" } });

    const rest = await stream.all();
    expect(rest).toHaveLength(1);
    expect(rest[0]?.json).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32003 } });
  });

  it("fail a server request too large to send with a clear tool error, and leave nothing pending", async () => {
    const s = await startSession("2025-06-18", { elicitation: {} });
    const events = await (await callOnStream(s, 1, "test_elicitation", { message: "m".repeat(3_000_000) })).all();

    expect(events).toHaveLength(1);
    expect(events[0]?.json?.id).toBe(1);
    expect(isToolError(events[0])).toBe(true);
    expect(toolText(events[0])).toMatch(/^elicitation\/create was not sent: the message is larger than 2000000 bytes/);
    const pending = await runInDurableObject(
      sessionStub(s.sessionId),
      (instance) => (instance as unknown as { inflight: { pending: { size: number } } }).inflight.pending.size,
    );
    expect(pending).toBe(0);
  });
});
