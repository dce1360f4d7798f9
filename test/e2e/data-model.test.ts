// The 2026 data model through real clients over HTTP: structured output of any JSON type
// (SEP-2106) read by the SDK v1 client on a 2025-11-25 session (which validates structuredContent
// against the listed outputSchema, so the { result } wrap must hold) and by the SDK v2 client
// pinned to 2026-07-28 (the array as it is); sampling with tools (SEP-1577) answered by the SDK v2
// client's own sampling handler; the Server Card fetched as a browser would.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { useWorker } from "./helpers/server";

// MCP_STATE_SECRET: 2026-07-28 asks (MRTR) sign their requestState with it; a fresh one per run.
const server = useWorker({
  vars: { MCP_STATE_SECRET: [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("") },
});
const WORDS = { text: "to be or not" };

describe("structured output of any JSON type", () => {
  it("reaches the SDK v1 client (2025-11-25) wrapped as { result }, valid against the wrapped outputSchema", async () => {
    const client = new Client({ name: "e2e-data-model", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === "split_words")?.outputSchema).toMatchObject({ type: "object", required: ["result"] });
      // The SDK v1 client checks structuredContent against the listed outputSchema and throws on a mismatch.
      const result = await client.callTool({ name: "split_words", arguments: WORDS });
      expect(result.structuredContent).toEqual({ result: ["to", "be", "or", "not"] });
      expect(result.content).toEqual([{ type: "text", text: '["to","be","or","not"]' }]);
      expect((await client.callTool({ name: "count_words", arguments: WORDS })).structuredContent).toEqual({ result: 4 });
    } finally {
      await client.close();
    }
  });

  it("reaches the SDK v2 client pinned to 2026-07-28 as the array itself", async () => {
    const client = new ClientV2({ name: "e2e-data-model", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new TransportV2(new URL("/mcp", server.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === "split_words")?.outputSchema).toEqual({ type: "array", items: { type: "string" } });
      const result = await client.callTool({ name: "split_words", arguments: WORDS });
      expect(result.structuredContent).toEqual(["to", "be", "or", "not"]);
    } finally {
      await client.close();
    }
  });
});

describe("sampling with tools", () => {
  it("runs the model's tool_use from the SDK v2 client (2026-07-28, sampling.tools declared) through MRTR rounds", async () => {
    const asked: { tools?: unknown; messages: unknown[] }[] = [];
    const client = new ClientV2(
      { name: "e2e-data-model", version: "1.0.0" },
      { capabilities: { sampling: { tools: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    client.setRequestHandler("sampling/createMessage", async (request) => {
      asked.push(request.params as { tools?: unknown; messages: unknown[] });
      if (asked.length === 1)
        return {
          role: "assistant",
          model: "e2e-model",
          stopReason: "toolUse",
          content: [{ type: "tool_use", id: "use-1", name: "capital_of", input: { country: "Kenya" } }],
        };
      return { role: "assistant", model: "e2e-model", stopReason: "endTurn", content: [{ type: "text", text: "Nairobi." }] };
    });
    await client.connect(new TransportV2(new URL("/mcp", server.url)));
    try {
      const result = await client.callTool({ name: "ask_with_tools", arguments: { question: "Capital of Kenya?" } });
      expect(result.content).toEqual([{ type: "text", text: "Nairobi." }]);
      expect(asked[0]?.tools).toEqual([expect.objectContaining({ name: "capital_of" })]);
      expect(asked.at(-1)?.messages).toHaveLength(3);
    } finally {
      await client.close();
    }
  });
});

describe("the Server Card over HTTP", () => {
  it("is served to a foreign page with CORS, and revalidates with its ETag to 304", async () => {
    const first = await fetch(new URL("/mcp/server-card", server.url), {
      headers: { Accept: "application/mcp-server-card+json", Origin: "https://somewhere.example" },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    const card = (await first.json()) as { remotes: { url: string }[] };
    expect(card.remotes[0]?.url).toBe(new URL("/mcp", server.url).href);
    const again = await fetch(new URL("/mcp/server-card", server.url), { headers: { "If-None-Match": first.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
  });
});
