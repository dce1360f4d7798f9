// mcp-remote, the stdio ↔ HTTP bridge desktop clients (Claude Desktop, Cursor, …) use to reach
// remote servers: the test plays the desktop client and speaks newline-delimited JSON-RPC on
// mcp-remote's stdio while mcp-remote talks Streamable HTTP to the Worker (through a recording
// proxy, so the test also sees the HTTP side). No OAuth happens (the server asks for none), so no
// browser is opened; its config folder and HOME are throwaway folders. Stopped by its PID.
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useWorker } from "../helpers/server";
import { packageVersion } from "./helpers/compat.mjs";
import { startProcess, type ProcessHandle } from "./helpers/processes.mjs";
import { useCompatRecord } from "./helpers/record";
import { currentNode, packageBin, tempDir } from "./helpers/tools.mjs";
import { startWiretap, summarise, type Wiretap } from "./helpers/wiretap.mjs";

const compat = useCompatRecord({
  id: "mcp-remote",
  order: 60,
  client: "mcp-remote (stdio ↔ HTTP bridge)",
  version: `mcp-remote ${packageVersion("mcp-remote")}`,
  transport: "stdio → Streamable HTTP (`--transport http-only`)",
  exercised: [
    "initialize",
    "tools/list",
    "tools/call",
    "progress notifications relayed to stdio",
    "sampling request relayed to the stdio client and answered",
  ],
});

const server = useWorker();
let tap: Wiretap | undefined;
let home: ReturnType<typeof tempDir> | undefined;
let bridge: ProcessHandle | undefined;

beforeAll(async () => {
  tap = await startWiretap(server.url);
  home = tempDir("mcp-edge-mcp-remote-home-");
  bridge = startProcess(currentNode(), [packageBin("mcp-remote"), `${tap.url}/mcp`, "--transport", "http-only"], {
    env: { HOME: home.path, MCP_REMOTE_CONFIG_DIR: `${home.path}/.mcp-auth`, NO_COLOR: "1" },
  });
});

afterAll(async () => {
  await bridge?.stop();
  await tap?.close();
  home?.remove();
});

/** A JSON-RPC message on the bridge's stdio; members are read through the assertions. */
type Message = {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

function send(message: Message): void {
  bridge!.write(`${JSON.stringify(message)}\n`);
}

function parse(line: string): Message | undefined {
  try {
    return JSON.parse(line) as Message;
  } catch {
    return undefined;
  }
}

/** Waits for the stdout message (from line `from` on) that `match` accepts. */
async function receive(match: (m: Message) => boolean, from = 0, timeoutMs = 30_000): Promise<Message> {
  const line = await bridge!.waitForLine(
    (l) => {
      const m = parse(l);
      return m !== undefined && match(m);
    },
    { from, timeoutMs },
  );
  return parse(line)!;
}

/** The initialize mcp-remote forwarded for the test's client, as seen on the HTTP side. */
/**
 * The handshake the bridge made for our client, once the tap has recorded its answer: the
 * answer reaches stdio while the tap may still be finishing the HTTP exchange, so wait (5 s at most).
 */
async function desktopHandshake() {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = summarise(tap!.exchanges).handshakes.find((h) => h.clientName?.startsWith("e2e-desktop-client"));
    if (found?.negotiated !== undefined) return found;
    if (Date.now() > deadline) {
      if (!found) throw new Error("mcp-remote never forwarded the client's initialize");
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends a request and waits for its response. */
async function request(id: number, method: string, params?: Record<string, unknown>): Promise<Message> {
  const from = bridge!.lines.length;
  send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
  return receive((m) => m.id === id && (m.result !== undefined || m.error !== undefined), from);
}

it("initializes through the bridge and negotiates the latest revision with the Worker", async () => {
  const init = await request(1, "initialize", {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: { sampling: {} },
    clientInfo: { name: "e2e-desktop-client", version: "1.0.0" },
  });
  expect(init.error).toBeUndefined();
  expect(init.result).toMatchObject({
    protocolVersion: LATEST_PROTOCOL_VERSION,
    serverInfo: { name: "mcp-edge-demo" },
    capabilities: { tools: {}, resources: {}, prompts: {} },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });

  // The HTTP side: mcp-remote forwarded this initialize to the Worker (its client name tagged
  // "via mcp-remote"), which answered with a session. (mcp-remote first opens a session of its own
  // while it picks a transport; that one is not ours.)
  const ours = await desktopHandshake();
  expect(ours.negotiated).toBe(LATEST_PROTOCOL_VERSION);
  expect(ours.sessionId).toMatch(/^[0-9a-f]{64}$/);
  compat.protocol = ours.negotiated;
});

it("tools/list over stdio", async () => {
  const listed = await request(2, "tools/list");
  const names = (listed.result?.tools as { name: string }[]).map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["echo", "add", "stream_progress", "test_sampling"]));
});

it("tools/call echo over stdio", async () => {
  const called = await request(3, "tools/call", { name: "echo", arguments: { text: "through the bridge ✓" } });
  expect(called.result).toEqual({ content: [{ type: "text", text: "through the bridge ✓" }] });
});

it("relays an interactive tool's progress notifications from the SSE stream to stdio", async () => {
  const from = bridge!.lines.length;
  const called = await request(4, "tools/call", { name: "stream_progress", arguments: { count: 3 }, _meta: { progressToken: "p-4" } });
  expect(called.result?.content).toEqual([{ type: "text", text: "done 3" }]);
  const progress = bridge!.lines
    .slice(from)
    .map(parse)
    .filter((m) => m?.method === "notifications/progress" && m.params?.progressToken === "p-4")
    .map((m) => m!.params?.progress);
  expect(progress).toEqual([1, 2, 3]);
});

it("relays the server's sampling request to the stdio client and its answer back", async () => {
  const from = bridge!.lines.length;
  send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "test_sampling", arguments: { prompt: "Say hello" } } });
  const asked = await receive((m) => m.method === "sampling/createMessage", from);
  expect(asked.params?.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hello" } }]);
  send({
    jsonrpc: "2.0",
    id: asked.id,
    result: { model: "e2e-model", role: "assistant", content: { type: "text", text: "Hello from stdio" } },
  });
  const result = await receive((m) => m.id === 5 && m.result !== undefined, from);
  expect(result.result?.content).toEqual([{ type: "text", text: "LLM response: Hello from stdio" }]);
});

it("keeps the client's requests on its one HTTP session, with the negotiated revision on each", async () => {
  const ours = await desktopHandshake();
  const later = tap!.exchanges.slice(ours.index + 1).filter((x) => x.method === "POST");
  expect(later.length).toBeGreaterThanOrEqual(6); // initialized, 4 calls, the sampling answer
  for (const x of later) {
    expect(x.requestHeaders["mcp-session-id"]).toBe(ours.sessionId);
    expect(x.requestHeaders["mcp-protocol-version"]).toBe(LATEST_PROTOCOL_VERSION);
  }
  const answered = later.filter((x) => x.status !== 0); // the last answer may still be in flight
  expect(answered.every((x) => x.status === 200 || x.status === 202)).toBe(true);
});
