/**
 * `subscriptions/listen` as the hub feature's stream lane (src/features/hub/listen.ts): an edge whose
 * features name `hub()` holds the stream at the hub; one whose features do not answers the
 * acknowledged empty set and ends the stream, even where MCP_HUB is bound; a 2025-era request for
 * the method is -32601 as for any method that revision does not have.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";
import { sessions } from "../../src/features/sessions/index";
import { hub } from "../../src/features/hub/index";
import type { Feature } from "../../src/kernel/feature";
import { closeListenStreams } from "../../src/features/hub/publish";
import type { EdgeEnv } from "../../src/kernel/env";
import { ACCEPT_BOTH } from "../helpers/mcp";
import { envelope, headers2026 } from "../helpers/era-2026";

function serverOf() {
  return defineServer({ name: "listen-lane", version: "1.0.0", listChanged: true }).tool("echo", { description: "Echo" }, () => ({
    content: [{ type: "text", text: "hi" }],
  }));
}

function listen2026(features: Feature[], params: Record<string, unknown>): Promise<Response> {
  const edge = createMcpEdge(serverOf(), { features });
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026("subscriptions/listen", params) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 11, method: "subscriptions/listen", params: { ...params, _meta: envelope({}) } }),
  });
  return edge.worker.fetch(request, env, createExecutionContext());
}

/** The data of each SSE event of a finished stream, parsed. */
function eventsOf(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)) as Record<string, unknown>);
}

// The stream the hub test cancels stays open at its shard until the Worker's next keep-alive: closed here.
afterAll(async () => {
  await closeListenStreams(env as EdgeEnv);
});

describe("subscriptions/listen, the hub feature's lane", () => {
  it("answers an edge without hub() with the acknowledged empty set and the listen's complete result, though MCP_HUB is bound", async () => {
    const response = await listen2026([sessions()], { notifications: { toolsListChanged: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const [acknowledged, complete] = eventsOf(await response.text());
    expect(acknowledged).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: {} } });
    expect(complete).toMatchObject({ jsonrpc: "2.0", id: 11, result: {} });
  });

  it("checks the request the same way without hub(): -32602 naming the missing notifications", async () => {
    const response = await listen2026([sessions()], {});
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/params\.notifications is required/);
  });

  it("holds the stream at the hub with hub(): the acknowledgement honours the list change, and the stream stays open", async () => {
    const response = await listen2026([sessions(), hub()], { notifications: { toolsListChanged: true } });
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("\n\n")) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += new TextDecoder().decode(value);
    }
    const [acknowledged] = eventsOf(text);
    expect(acknowledged).toMatchObject({ params: { notifications: { toolsListChanged: true } } });
    await reader.cancel();
  });

  it("answers a 2025-era request for it -32601, as any method that revision does not have", async () => {
    const edge = createMcpEdge(serverOf(), { features: [hub()] });
    const request = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true } },
      }),
    });
    const response = await edge.worker.fetch(request, env, createExecutionContext());
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32601, message: "Method not found: subscriptions/listen" },
    });
  });
});
