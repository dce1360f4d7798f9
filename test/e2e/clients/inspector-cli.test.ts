// The MCP Inspector in CLI mode (`inspector --cli <url> --transport http --method …`, JSON output)
// against the Worker under wrangler dev (in-process), on the project's own Node (>= 22.12, which the
// Inspector needs). Its traffic goes through a recording proxy so the test
// can also see the handshake: the revision the server answered with, the session it used.
import type {
  CallToolResult,
  GetPromptResult,
  ListResourcesResult,
  ListToolsResult,
  ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useWorker } from "../helpers/server";
import { packageVersion } from "./helpers/compat.mjs";
import { runProcess } from "./helpers/processes.mjs";
import { useCompatRecord } from "./helpers/record";
import { currentNode, packageBin, tempDir } from "./helpers/tools.mjs";
import { jsonRpcMessages, startWiretap, summarise, type Wiretap } from "./helpers/wiretap.mjs";

const INSPECTOR = "@modelcontextprotocol/inspector";

const compat = useCompatRecord({
  id: "inspector-cli",
  order: 50,
  client: "MCP Inspector (CLI mode)",
  version: `${INSPECTOR} ${packageVersion(INSPECTOR)}`,
  transport: "Streamable HTTP (`--transport http`)",
  exercised: ["tools/list", "tools/call with arguments", "resources/list", "resources/read", "prompts/get with arguments"],
});

const server = useWorker();
let tap: Wiretap | undefined;
let home: ReturnType<typeof tempDir> | undefined;
let node = "";

beforeAll(async () => {
  node = currentNode();
  tap = await startWiretap(server.url);
  home = tempDir("mcp-edge-inspector-home-"); // the Inspector keeps its catalog and storage under $HOME
}, 300_000);

afterAll(async () => {
  await tap?.close();
  home?.remove();
});

/**
 * Runs `inspector --cli <url> --transport http <args> --format json` and parses its one JSON
 * object; `T` is the MCP result type the invocation's method returns (not checked at run time:
 * the assertions do that).
 */
async function inspector<T>(...args: string[]): Promise<{ result: T }> {
  const from = tap!.exchanges.length;
  const run = await runProcess(
    node,
    [packageBin(INSPECTOR, "inspector"), "--cli", `${tap!.url}/mcp`, "--transport", "http", ...args, "--format", "json"],
    {
      env: { HOME: home!.path, NO_COLOR: "1", FORCE_COLOR: "0" },
      timeoutMs: 45_000,
    },
  );
  const context = `inspector ${args.join(" ")}: exit ${run.code}${run.timedOut ? " (timed out)" : ""}\nstdout: ${run.stdout.slice(0, 2_000)}\nstderr: ${run.stderr.slice(-2_000)}`;
  expect(run.code, context).toBe(0);
  let parsed: { result: T };
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    throw new Error(`not one JSON object: ${context}`);
  }
  // Every invocation is a full client: it initialized its own session over this endpoint.
  const traffic = summarise(tap!.exchanges.slice(from));
  expect(traffic.methods.slice(0, 2), context).toEqual(["initialize", "notifications/initialized"]);
  expect(traffic.sessionId).toMatch(/^[0-9a-f]{64}$/);
  compat.protocol = traffic.negotiated;
  return parsed;
}

it("tools/list: lists the demo's tools with their input schemas", async () => {
  const { result } = await inspector<ListToolsResult>("--method", "tools/list");
  const names = result.tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["echo", "add", "stream_progress", "test_simple_text"]));
  expect(result.tools.find((t) => t.name === "echo")?.inputSchema).toMatchObject({
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  });
  // The revision the server answered initialize with, seen on the wire.
  expect(compat.protocol).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

it("tools/call with --tool-arg: echo text=hi", async () => {
  const { result } = await inspector<CallToolResult>("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hi");
  expect(result).toEqual({ content: [{ type: "text", text: "hi" }] });
});

it("tools/call with numeric arguments: add a=2 b=40 returns structured content", async () => {
  const { result } = await inspector<CallToolResult>("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=40");
  expect(result.structuredContent).toEqual({ sum: 42 });
  expect(result.content).toEqual([{ type: "text", text: "2 + 40 = 42" }]);
});

it("resources/list and resources/read", async () => {
  const listed = await inspector<ListResourcesResult>("--method", "resources/list");
  expect(listed.result.resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining(["test://static-text", "test://static-binary", "test://watched-resource"]),
  );
  const read = await inspector<ReadResourceResult>("--method", "resources/read", "--uri", "test://static-text");
  expect(read.result.contents).toEqual([
    { uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." },
  ]);
});

it("prompts/get with --prompt-args: test_prompt_with_arguments arg1=a arg2=b", async () => {
  const { result } = await inspector<GetPromptResult>(
    "--method",
    "prompts/get",
    "--prompt-name",
    "test_prompt_with_arguments",
    "--prompt-args",
    "arg1=a",
    "arg2=b",
  );
  expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" } }]);
});

it("the server's answers on the wire were what the Inspector printed (JSON, one session per run)", () => {
  const initAnswers = tap!.exchanges
    .filter((x) => x.method === "POST" && jsonRpcMessages(x.requestBody).some((m) => m?.method === "initialize"))
    .map((x) => x.status);
  expect(initAnswers.length).toBe(6); // one per invocation above
  expect(initAnswers.every((status) => status === 200)).toBe(true);
  expect(tap!.exchanges.every((x) => x.status > 0 && x.status < 500)).toBe(true);
});
