// Dual-era clients against a server with 2026-07-28 switched off (`eras: ["2025"]`): their
// server/discover probe must be answered so that each falls back to `initialize` (a 5xx makes
// the SDK v2 client refuse to connect; a -32022 naming only 2025 versions makes the AI SDK
// refuse). Both must end up in a working 2025-11-25 session.
import { createMCPClient } from "@ai-sdk/mcp";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorker, type WorkerServer } from "../../../scripts/worker-server.mjs";

let server: WorkerServer | undefined;

beforeAll(async () => {
  server = await startWorker({ configPath: "test/servers/legacy-only/wrangler.toml" });
}, 150_000);

afterAll(async () => {
  await server?.stop();
}, 30_000);

it("the SDK v2 client in auto mode falls back to initialize and works", async () => {
  const client = new Client({ name: "e2e-auto-fallback", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const transport = new StreamableHTTPClientTransport(new URL(server!.mcpUrl));
  try {
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}$/);
    const echo = await client.callTool({ name: "echo", arguments: { text: "legacy" } });
    expect(echo.content).toEqual([{ type: "text", text: "legacy" }]);
  } finally {
    await client.close();
  }
});

it("the AI SDK client in its default mode falls back to initialize and works", async () => {
  const client = await createMCPClient({ transport: { type: "http", url: server!.mcpUrl } });
  try {
    expect(client.initializeResult.protocolVersion).toBe("2025-11-25");
    const result = await client.callTool({ name: "echo", arguments: { text: "legacy" } });
    expect(result.content).toEqual([{ type: "text", text: "legacy" }]);
  } finally {
    await client.close();
  }
});
