/**
 * What a 2026-07-28 result looks like: server/discover (server/discover.mdx), resultType on
 * every result (basic/index.mdx "ResultType"), serverInfo in `_meta` ("Per-response protocol
 * fields"), caching hints (server/utilities/caching.mdx), resource-not-found as -32602
 * (server/resources.mdx, SEP-2164), per-request logging and progress on the request's own
 * stream (server/utilities/logging.mdx, basic/patterns/progress.mdx). Shapes are checked
 * against the spec's example messages (schema/examples), used as test vectors.
 */
import { DEMO_ICONS } from "../../src/demo/assets";
import { demoServer } from "../../src/demo/server";
import { describe, expect, it } from "vitest";
import discoverExample from "../fixtures/spec-examples/DiscoverResult/server-capabilities-discovery.json";
import { SseReader } from "../helpers/sse";
import { expectComplete, expect2026Error, post2026 } from "../helpers/era-2026";

const SERVER_INFO = { name: "mcp-edge-demo", version: "0.1.0" };

function keysOf(value: object): string[] {
  return Object.keys(value).sort();
}

describe("server/discover", () => {
  it("answers with the keys of the spec's DiscoverResult example: versions, capabilities, serverInfo in _meta, instructions, caching", async () => {
    const result = await expectComplete(await post2026("server/discover"));
    expect(keysOf(result)).toEqual(keysOf(discoverExample));
    expect(result.supportedVersions).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    // The full info (SEP-973 icons, the description) on discover; other results carry SERVER_INFO only.
    expect(result._meta).toEqual({
      "io.modelcontextprotocol/serverInfo": { ...SERVER_INFO, description: demoServer.info.description, icons: DEMO_ICONS },
    });
    expect({ ttlMs: result.ttlMs, cacheScope: result.cacheScope }).toEqual({ ttlMs: 0, cacheScope: "private" });
  });

  it("declares tools, resources (subscribable through subscriptions/listen), prompts, completions and logging", async () => {
    const { capabilities } = await expectComplete(await post2026("server/discover"));
    // The demo does not declare listChanged; resource updates reach listen streams through the hub (MCP_HUB).
    expect(capabilities).toEqual({
      logging: {},
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      // The demo serves the Tasks extension, MCP Apps, Skills and Events (extensions/overview.mdx: declared in capabilities.extensions).
      extensions: {
        "io.modelcontextprotocol/tasks": {},
        "io.modelcontextprotocol/ui": {},
        "io.modelcontextprotocol/skills": { directoryRead: true },
        "io.modelcontextprotocol/events": {},
      },
    });
  });

  it("serves a request whose _meta omits clientInfo (a SHOULD, never required)", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    await expectComplete(await post2026("server/discover", {}, { meta }));
  });
});

describe("results on 2026-07-28", () => {
  it("marks every result complete and names the server in _meta, keeping a tool's own _meta", async () => {
    const result = await expectComplete(await post2026("tools/call", { name: "echo", arguments: { text: "hi" } }));
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect((result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"]).toEqual(SERVER_INFO);
  });

  it("puts ttlMs and cacheScope on every list and on resources/read (safe default: 0, private)", async () => {
    for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
      const result = await expectComplete(await post2026(method));
      expect({ method, ttlMs: result.ttlMs, cacheScope: result.cacheScope }).toEqual({ method, ttlMs: 0, cacheScope: "private" });
    }
    const read = await expectComplete(await post2026("resources/read", { uri: "test://static-text" }));
    expect({ ttlMs: read.ttlMs, cacheScope: read.cacheScope }).toEqual({ ttlMs: 0, cacheScope: "private" });
  });

  it("does not put caching hints on results that have none (tools/call, prompts/get, completion)", async () => {
    const call = await expectComplete(await post2026("tools/call", { name: "test_simple_text" }));
    expect(call).not.toHaveProperty("ttlMs");
  });

  it("answers an unknown resource with -32602 and the uri in data, never -32002 (SEP-2164)", async () => {
    const body = await expect2026Error(await post2026("resources/read", { uri: "test://nonexistent" }), 200, -32602);
    expect(body.error?.data).toEqual({ uri: "test://nonexistent" });
  });

  it("answers prompts/get and completion/complete with complete results", async () => {
    const prompt = await expectComplete(await post2026("prompts/get", { name: "test_simple_prompt" }));
    expect(Array.isArray(prompt.messages)).toBe(true);
    const completion = await expectComplete(
      await post2026("completion/complete", {
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "" },
      }),
    );
    expect(completion.completion).toBeDefined();
  });
});

describe("logging and progress on the request's own stream", () => {
  it("sends no notifications/message when the request sets no log level, and answers JSON", async () => {
    const res = await post2026("tools/call", { name: "test_logging_tool", arguments: {} });
    expect(res.headers.get("Content-Type")).toBe("application/json");
    await expectComplete(res);
  });

  it("streams the log messages at or above the request's level, then the result, as SSE", async () => {
    const res = await post2026("tools/call", { name: "test_logging_tool", arguments: {} }, { logLevel: "info" });
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    const reader = new SseReader(res);
    const messages = [];
    for (let i = 0; i < 4; i++) messages.push(JSON.parse((await reader.next())?.data ?? "null"));
    expect(messages.slice(0, 3).map((m) => m.method)).toEqual(["notifications/message", "notifications/message", "notifications/message"]);
    expect(messages[3]).toMatchObject({ id: 1, result: { resultType: "complete" } });
  });

  it("drops log messages below the request's level", async () => {
    const res = await post2026("tools/call", { name: "test_logging_tool", arguments: {} }, { logLevel: "error" });
    expect(res.headers.get("Content-Type")).toBe("application/json");
  });

  it("streams progress for a request with a progressToken, on its own SSE response (basic/patterns/progress.mdx)", async () => {
    const res = await post2026(
      "tools/call",
      { name: "test_tool_with_progress", arguments: {}, _meta: undefined },
      {
        meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          progressToken: "p1",
        },
      },
    );
    const reader = new SseReader(res);
    const first = JSON.parse((await reader.next())?.data ?? "null");
    expect(first).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p1", progress: 0, total: 100 } });
    let last = first;
    while (last.method) last = JSON.parse((await reader.next())?.data ?? "null");
    expect(last).toMatchObject({ id: 1, result: { resultType: "complete" } });
  });
});
