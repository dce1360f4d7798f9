// The Tasks extension with its official requester (@modelcontextprotocol/ext-tasks) over real
// HTTP: a task-enabled session on an SDK v2 client pinned to 2026-07-28 calls task tools of the
// in-process demo and settles them through tasks/get. The package needs a raw dispatch for
// 2026-07-28 framing; this one POSTs the JSON-RPC request as any 2026 client does.
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { describe, expect, it } from "vitest";
import { extensionCapabilities, withSdkV2Client } from "../helpers/sdk-v2-client";
import { useWorker } from "../helpers/server";
import { useCompatRecord } from "./helpers/record";
import { packageVersion } from "./helpers/compat.mjs";

useCompatRecord({
  id: "ext-tasks",
  order: 16,
  client: "Tasks extension requester",
  version: `@modelcontextprotocol/ext-tasks ${packageVersion("@modelcontextprotocol/ext-tasks")} on @modelcontextprotocol/client ${packageVersion("@modelcontextprotocol/client")}`,
  transport: "Streamable HTTP (`/mcp`), pinned 2026-07-28",
  exercised: [
    "tools/call answered with a task",
    "tasks/get until settled",
    "a task that completes",
    "a task that fails with a JSON-RPC error",
  ],
  protocol: "2026-07-28",
});

const TASKS = "io.modelcontextprotocol/tasks";
const clientInfo = { name: "e2e-ext-tasks", version: "1.0.0" };
const clientCapabilities = extensionCapabilities([TASKS]);
const server = useWorker();

type Json = Record<string, unknown>;

let nextId = 1;

/**
 * One 2026-07-28 request over HTTP: the requester hands over method and params (already framed
 * with the `_meta` envelope); this adds the JSON-RPC envelope and the standard headers (Mcp-Name
 * from the tool name or task id) and returns the response message.
 */
async function rawDispatch(request: unknown): Promise<never> {
  const message = { jsonrpc: "2.0", id: nextId++, ...(request as { method: string; params?: Json }) };
  const name = message.params?.name ?? message.params?.taskId;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": message.method,
  };
  if (typeof name === "string") headers["Mcp-Name"] = name;
  const res = await fetch(server.mcpUrl, { method: "POST", headers, body: JSON.stringify(message) });
  const text = await res.text();
  if (!(res.headers.get("Content-Type") ?? "").includes("text/event-stream")) return JSON.parse(text) as never;
  // An SSE answer: the last data line that is a response.
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)) as Json);
  return data.filter((m) => "result" in m || "error" in m).at(-1) as never;
}

function withTaskSession<T>(use: (session: ReturnType<typeof createTaskSessionFromClient>) => Promise<T>): Promise<T> {
  return withSdkV2Client(server.mcpUrl, { name: clientInfo.name, mode: { pin: "2026-07-28" }, extensions: [TASKS] }, async (client) => {
    const session = createTaskSessionFromClient(client, {
      endpointId: "mcp-edge-demo",
      rawDispatch: rawDispatch as never,
      v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities },
    });
    try {
      return await use(session);
    } finally {
      await session.close();
    }
  });
}

describe("the Tasks requester against the demo", () => {
  it("runs a task-capable tool as a task and settles it with its result", async () => {
    await withTaskSession(async (session) => {
      const execution = await session.callTool("slow_compute", { seconds: 0, label: "e2e" });
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { content: { type: string; text: string }[] };
      expect(result.content[0]?.text).toBe("Computed e2e after 0 s");
    });
  });

  it("reports a task that failed with a JSON-RPC error as a failure", async () => {
    await withTaskSession(async (session) => {
      const execution = await session.callTool("protocol_error_job", {});
      const { outcome } = await execution.settle();
      expect(() => resultFromTaskOutcome(outcome)).toThrow();
    });
  });
});
