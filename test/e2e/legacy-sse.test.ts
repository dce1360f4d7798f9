// A 2024-11-05 client over the legacy HTTP+SSE transport (GET /sse sends an `endpoint` event;
// the client POSTs to that endpoint; responses come on the SSE stream), per DESIGN.md
// "Protocol eras on one endpoint". The SDK client always asks for its latest revision in initialize, so a
// thin wrapper around SSEClientTransport asks for 2024-11-05 instead, as an older client would.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema, isJSONRPCRequest, type CallToolResult, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import { SDK_ROWS, useCompatRecord } from "./clients/helpers/record";
import { firstText } from "./helpers/results";
import { useWorker } from "./helpers/server";

const LEGACY_VERSION = "2024-11-05";

const server = useWorker();
useCompatRecord(SDK_ROWS.legacySse);

const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

/** SSEClientTransport that requests protocol version 2024-11-05 in initialize. */
class LegacyClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The version the server answered initialize with (the SDK reports it here). */
  negotiatedVersion: string | undefined;
  /** Every message received, in arrival order, recorded before the SDK handles it. */
  readonly received: JSONRPCMessage[] = [];

  constructor(private readonly inner: SSEClientTransport) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message) => {
      this.received.push(message);
      this.onmessage?.(message);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCRequest(message) && message.method === "initialize") {
      message = { ...message, params: { ...message.params, protocolVersion: LEGACY_VERSION } };
    }
    // The legacy transport has no resumption: send options do not apply.
    void options;
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.negotiatedVersion = version;
    this.inner.setProtocolVersion?.(version);
  }
}

async function connectLegacy(
  capabilities: Record<string, unknown> = {},
  setup?: (client: Client) => void,
): Promise<{ client: Client; transport: LegacyClientTransport }> {
  const client = new Client({ name: "e2e-legacy-sse", version: "1.0.0" }, { capabilities });
  setup?.(client);
  const transport = new LegacyClientTransport(new SSEClientTransport(new URL("/sse", server.url)));
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

/** Reads SSE events from a response until `wanted` arrives (or the stream ends). */
async function readEvent(response: Response, wanted: string): Promise<{ event: string; data: string } | undefined> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) return undefined;
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value.replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (event === wanted) return { event, data: data.join("\n") };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

it("opens GET /sse and announces the POST endpoint in an endpoint event", async () => {
  const response = await fetch(new URL("/sse", server.url), {
    headers: { Accept: "text/event-stream" },
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const endpoint = await readEvent(response, "endpoint");
  expect(endpoint).toBeDefined();
  const url = new URL(endpoint?.data ?? "", server.url);
  expect(url.origin).toBe(server.url);
});

it("initializes a 2024-11-05 client over the legacy transport", async () => {
  const { client, transport } = await connectLegacy();
  expect(transport.negotiatedVersion).toBe(LEGACY_VERSION);
  expect(client.getServerVersion()?.name).toBe("mcp-edge-demo");
});

it("lists the tools and calls echo over the legacy transport", async () => {
  const { client } = await connectLegacy();
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("echo");
  const result = await client.callTool({ name: "echo", arguments: { text: "over legacy SSE" } });
  expect(result.content).toEqual([{ type: "text", text: "over legacy SSE" }]);
});

it("delivers an interactive tool's progress on the legacy SSE stream", async () => {
  const { client, transport } = await connectLegacy();
  const result = await client.callTool({ name: "stream_progress", arguments: { count: 5 } }, undefined, {
    onprogress: () => undefined,
  });
  expect(firstText(result)).toBe("done 5");
  // Asserted on what arrived on the stream: SDK 1.32.2 runs progress callbacks a microtask
  // after it handles a response, so when progress and response arrive in one chunk (as on this
  // single stream) it drops callbacks whose request already finished.
  const progress = transport.received
    .filter((m) => "method" in m && m.method === "notifications/progress")
    .map((m) => ("params" in m ? (m.params as { progress: number }).progress : undefined));
  expect(progress).toEqual([1, 2, 3, 4, 5]);
  const responseIndex = transport.received.findIndex((m) => "result" in m && (m.result as CallToolResult).content !== undefined);
  const lastProgressIndex = transport.received.findLastIndex((m) => "method" in m && m.method === "notifications/progress");
  expect(lastProgressIndex).toBeLessThan(responseIndex);
});

it("relays sampling to a legacy client and returns its reply", async () => {
  const { client } = await connectLegacy({ sampling: {} }, (c) =>
    c.setRequestHandler(CreateMessageRequestSchema, () => ({
      model: "e2e-model",
      role: "assistant",
      content: { type: "text", text: "legacy reply" },
    })),
  );
  const result = await client.callTool({ name: "test_sampling", arguments: { prompt: "hello" } });
  expect(firstText(result)).toBe("LLM response: legacy reply");
});
