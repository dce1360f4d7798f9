/**
 * The project `npm create mcp-edge` writes (create-mcp-edge/template: its server and its
 * wrangler.toml, which binds no MCP_HUB): a 2026-07-28 `subscriptions/listen` on a Worker
 * without the hub, naming no task ids, is acknowledged with the empty set and completed
 * (docs/hub.md "A server with nothing to deliver"). It used to answer 500 with id null.
 */
import { describe, expect, it } from "vitest";
import templateToml from "../../create-mcp-edge/template/wrangler.toml?raw";
import { envelope, headers2026 } from "../helpers/era-2026";
import { post } from "../helpers/mcp";
import { SseReader } from "../helpers/sse";

function listen(id: unknown, notifications: unknown): Promise<Response> {
  const params = { _meta: envelope(), notifications };
  return post({ jsonrpc: "2.0", id, method: "subscriptions/listen", params }, { headers: headers2026("subscriptions/listen", params) });
}

describe("subscriptions/listen on the scaffold's server", () => {
  it("has no MCP_HUB binding to lean on", () => {
    expect(templateToml).not.toContain("MCP_HUB");
  });

  it("acknowledges the empty set, then completes the listen request, and the stream ends", async () => {
    const res = await listen(7, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    const reader = new SseReader(res);
    const ack = await reader.next();
    expect(ack?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 7 }, notifications: {} },
    });
    const complete = await reader.next();
    expect(complete?.json).toMatchObject({
      jsonrpc: "2.0",
      id: 7,
      result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 7 } },
    });
    expect(await reader.next()).toBeUndefined();
  });

  it("still refuses a malformed filter with -32602 and the request's id", async () => {
    const res = await listen("l-2", { toolsListChanged: "yes" });
    const body = (await res.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBe("l-2");
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain("toolsListChanged");
  });

  it("refuses a list that is not made of strings, naming the entry", async () => {
    const res = await listen(3, { resourceSubscriptions: ["file:///a", 42] });
    const body = (await res.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ id: 3, error: { code: -32602 } });
    expect(body.error.message).toContain("notifications.resourceSubscriptions[1] must be a string");
  });

  it("holds nothing, so bounds nothing: a filter the hub would find too long is acknowledged as the empty set", async () => {
    // With the hub, a filter over 65,536 characters (or a URI over 8,192, or "not a uri") is -32602: its memory holds them.
    const uris = Array.from({ length: 40 }, (_, i) => `file:///${"x".repeat(2_100)}/${i}`);
    const res = await listen(4, { resourceSubscriptions: [...uris, "not a uri"] });
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    const ack = await new SseReader(res).next();
    expect(ack?.json).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: {} } });
  });
});
