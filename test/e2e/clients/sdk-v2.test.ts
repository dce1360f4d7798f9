// The official SDK v2 client (@modelcontextprotocol/client) against the demo under wrangler dev,
// in each of its negotiation modes: pinned to 2026-07-28 (stateless requests, MRTR answered by
// the client's own elicitation and sampling handlers, progress on the request's SSE response),
// `auto` (probes server/discover and must pick 2026-07-28), and its default `legacy` mode
// (initialize, a 2025-11-25 session, the same eliciting tool through the session object).
import { Client, StreamableHTTPClientTransport, type Progress } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstText } from "../helpers/results";
import { openListenStream } from "../helpers/listen-stream";
import { startWorker, type WorkerServer } from "../../../scripts/worker-server.mjs";
import { useCompatRecord } from "./helpers/record";
import { packageVersion } from "./helpers/compat.mjs";

const compat = useCompatRecord({
  id: "sdk-v2",
  order: 15,
  client: "Official TypeScript SDK v2 client",
  version: `@modelcontextprotocol/client ${packageVersion("@modelcontextprotocol/client")}`,
  transport: "Streamable HTTP (pinned 2026-07-28, auto, legacy)",
  exercised: [
    "server/discover",
    "tools/list",
    "tools/call (simple, progress)",
    "MRTR elicitation and sampling",
    "auto mode picks 2026-07-28",
    "legacy mode: a 2025-11-25 session",
    "a tool call's resources/updated reaching a subscriptions/listen stream (opened with fetch)",
  ],
  protocol: "2026-07-28 (pinned, auto); 2025-11-25 (legacy)",
});

let server: WorkerServer | undefined;

beforeAll(async () => {
  // A fresh state secret for this run (the Web Crypto global: these tests use web platform APIs only).
  const secret = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
  server = await startWorker({ vars: { MCP_STATE_SECRET: secret } });
}, 150_000);

afterAll(async () => {
  await server?.stop();
}, 30_000);

function clientFor(mode: "auto" | "legacy" | { pin: string }): Client {
  const client = new Client(
    { name: "e2e-sdk-v2", version: "1.0.0" },
    { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode } },
  );
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Alice" } }));
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "e2e-model",
    stopReason: "endTurn",
  }));
  return client;
}

async function connected<T>(
  mode: "auto" | "legacy" | { pin: string },
  use: (client: Client, transport: StreamableHTTPClientTransport) => Promise<T>,
): Promise<T> {
  const client = clientFor(mode);
  const transport = new StreamableHTTPClientTransport(new URL(server!.mcpUrl));
  try {
    await client.connect(transport);
    return await use(client, transport);
  } finally {
    await client.close();
  }
}

describe("pinned to 2026-07-28", () => {
  it("connects without a session, lists and calls tools", async () => {
    await connected({ pin: "2026-07-28" }, async (client, transport) => {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(transport.sessionId).toBeUndefined();
      expect(client.getServerVersion()).toMatchObject({ name: "mcp-edge-demo" });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "test_input_required_result_elicitation"]));
      const echo = await client.callTool({ name: "echo", arguments: { text: "modern ✓" } });
      expect(echo.content).toEqual([{ type: "text", text: "modern ✓" }]);
    });
  });

  it("answers an eliciting tool through MRTR with the client's elicitation handler", async () => {
    await connected({ pin: "2026-07-28" }, async (client) => {
      const result = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      expect(firstText(result)).toBe("Hello, Alice!");
    });
  });

  it("answers a sampling tool through MRTR with the client's sampling handler", async () => {
    await connected({ pin: "2026-07-28" }, async (client) => {
      const result = await client.callTool({ name: "test_input_required_result_sampling", arguments: {} });
      expect(firstText(result)).toBe("Paris");
    });
  });

  it("receives progress on the request's own SSE response", async () => {
    await connected({ pin: "2026-07-28" }, async (client) => {
      const progress: Progress[] = [];
      const result = await client.callTool({ name: "stream_progress", arguments: { count: 3 } }, { onprogress: (p) => progress.push(p) });
      expect(firstText(result)).toBe("done 3");
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    });
  });
});

describe("subscriptions/listen over real HTTP", () => {
  // The SDK v2 client has no listen API yet (its source names listen as a future extension point),
  // so the stream is opened with fetch as a 2026-07-28 client sends it; the SDK client pinned to
  // 2026-07-28 makes the change, and the update crosses the hub to the open stream.
  it("acknowledges a listen stream, then delivers the resources/updated a tool call publishes", async () => {
    const uri = `test://template/e2e-${crypto.randomUUID()}/data`;
    const listen = await openListenStream(server!.mcpUrl, "listen-1", uri, "e2e-listen");
    expect(listen.response.status).toBe(200);
    expect(listen.response.headers.get("Content-Type")).toBe("text/event-stream");
    try {
      expect((await listen.next()).method).toBe("notifications/subscriptions/acknowledged");
      await connected({ pin: "2026-07-28" }, async (client) => {
        const touched = await client.callTool({ name: "touch_resource", arguments: { uri } });
        expect(touched.isError).not.toBe(true);
      });
      expect(await listen.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" }, uri },
      });
    } finally {
      await listen.close();
    }
  });
});

describe("auto mode", () => {
  it("probes server/discover and settles on 2026-07-28", async () => {
    await connected("auto", async (client) => {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      expect(firstText(result)).toBe("Hello, Alice!");
    });
  });
});

describe("legacy mode (the SDK's default)", () => {
  it("initializes a 2025-11-25 session and elicits through the session object", async () => {
    await connected("legacy", async (client, transport) => {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect(transport.sessionId).toMatch(/^[0-9a-f]{64}$/);
      const result = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      expect(firstText(result)).toBe("Hello, Alice!");
      compat.protocol = "2026-07-28 (pinned, auto); 2025-11-25 (legacy)";
    });
  });
});
