/**
 * dispatchRequest with small purpose-built servers: what reaches the client when a handler
 * fails (docs/errors.md "HTTP errors" and docs/operating.md "Errors: `server.onError`": anything but RpcError is -32603 with only a
 * correlation reference; a failing tool is an isError result that shows the model a ToolError's
 * message and nothing of any other exception), outputSchema enforcement (2025-06-18 "Tools" > Structured Content), and
 * capabilities derived from what is registered.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { INTERNAL_ERROR, INVALID_PARAMS, RESOURCE_NOT_FOUND, RpcError } from "../../src/jsonrpc/errors";
import type { ResponseMessage } from "../../src/jsonrpc/messages";
import { text, toolError, ToolError } from "../../src/mcp/definition/content";
import { dispatchContext, dispatchRequest, isKnownMethod, type DispatchContext } from "../../src/mcp/dispatch/dispatch";
import { defineServer, type McpServer } from "../../src/mcp/definition/server";
import type { CallToolResult } from "../../src/mcp/definition/types";

const SECRET = "postgres://admin:hunter2@db";

function context(server: McpServer): DispatchContext<unknown> {
  return dispatchContext(server, {}, { era: "2025", sessions: false, session: undefined, protocolVersion: "2025-06-18" });
}

function dispatch(server: McpServer, method: string, params: Record<string, unknown>): Promise<ResponseMessage> {
  return dispatchRequest({ kind: "request", id: "r", method, params }, context(server), new AbortController());
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("handler failures", () => {
  const failing = defineServer({ name: "failing", version: "1" })
    .tool("throws", { description: "throws" }, () => {
      throw new Error("upstream said no");
    })
    .tool("refuses", { description: "throws a ToolError" }, () => {
      throw new ToolError("the quota for today is used up");
    })
    .tool("returns-error", { description: "returns toolError" }, () => toolError("try again tomorrow"))
    .tool("garbage", { description: "returns no content" }, () => ({ nope: true }) as unknown as CallToolResult)
    .resource("x://broken", { name: "broken" }, () => {
      throw new Error(SECRET);
    })
    .resource("x://missing", { name: "missing" }, () => {
      throw new RpcError(RESOURCE_NOT_FOUND, "gone for now");
    })
    .prompt("broken", { description: "d" }, () => {
      throw new TypeError(SECRET);
    });

  it("answers a read handler that throws with a bare -32603 and the request id, logging the cause", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await dispatch(failing, "resources/read", { uri: "x://broken" });
    expect(response).toEqual({
      kind: "error",
      id: "r",
      error: { code: INTERNAL_ERROR, message: "Internal error", data: { reference: expect.stringMatching(/^[0-9a-f]{8}$/) } },
    });
    expect(JSON.stringify(response)).not.toContain("hunter2");
    const reference = (response as { error: { data: { reference: string } } }).error.data.reference;
    expect(logged).toHaveBeenCalledWith(expect.stringContaining(`reference ${reference}`), expect.objectContaining({ message: SECRET }));
  });

  it("passes an RpcError a handler throws through unchanged", async () => {
    const response = await dispatch(failing, "resources/read", { uri: "x://missing" });
    expect(response).toEqual({ kind: "error", id: "r", error: { code: RESOURCE_NOT_FOUND, message: "gone for now" } });
  });

  it("answers a prompt handler that throws with a bare -32603", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await dispatch(failing, "prompts/get", { name: "broken" });
    expect(response).toEqual({
      kind: "error",
      id: "r",
      error: { code: INTERNAL_ERROR, message: "Internal error", data: { reference: expect.stringMatching(/^[0-9a-f]{8}$/) } },
    });
  });

  it("reports a tool that throws an unexpected error as a generic isError result whose reference is in the log with the message", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await dispatch(failing, "tools/call", { name: "throws" });
    const shown = (response as unknown as { result: CallToolResult }).result;
    expect(shown.isError).toBe(true);
    const said = (shown.content[0] as { text: string }).text;
    expect(said).toMatch(/^Tool "throws" failed unexpectedly \(reference [0-9a-f]{8}\); the server's log has the details\.$/);
    expect(said).not.toContain("upstream said no");
    const reference = /reference ([0-9a-f]{8})/.exec(said)?.[1];
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining(`reference ${reference}`),
      expect.objectContaining({ message: "upstream said no" }),
    );
  });

  it("shows the model the message of a ToolError a tool throws, and logs nothing", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await dispatch(failing, "tools/call", { name: "refuses" })).toEqual({
      kind: "result",
      id: "r",
      result: { content: [{ type: "text", text: "the quota for today is used up" }], isError: true },
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it("passes a toolError(...) result a tool returns through unchanged", async () => {
    expect(await dispatch(failing, "tools/call", { name: "returns-error" })).toEqual({
      kind: "result",
      id: "r",
      result: { content: [{ type: "text", text: "try again tomorrow" }], isError: true },
    });
  });

  it("answers a tool that returns something other than a CallToolResult with -32603", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await dispatch(failing, "tools/call", { name: "garbage" })).toEqual({
      kind: "error",
      id: "r",
      error: { code: INTERNAL_ERROR, message: "Internal error", data: { reference: expect.stringMatching(/^[0-9a-f]{8}$/) } },
    });
  });
});

describe("outputSchema", () => {
  const output = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
  const server = defineServer({ name: "out", version: "1" })
    .tool("good", { description: "d", output }, () => ({ content: [text("1")], structuredContent: { n: 1 } }))
    .tool("unstructured", { description: "d", output }, () => ({ content: [text("1")] }))
    .tool("wrong", { description: "d", output }, () => ({ content: [text("1")], structuredContent: { n: "one" } }))
    .tool("failed", { description: "d", output }, () => ({ content: [text("no")], isError: true }));

  it("passes structuredContent that matches the outputSchema", async () => {
    expect(await dispatch(server, "tools/call", { name: "good" })).toEqual({
      kind: "result",
      id: "r",
      result: { content: [{ type: "text", text: "1" }], structuredContent: { n: 1 } },
    });
  });

  it("turns a missing structuredContent into a tool error", async () => {
    const response = await dispatch(server, "tools/call", { name: "unstructured" });
    expect(response.kind === "result" && response.result.isError).toBe(true);
  });

  it("turns structuredContent that does not match into a tool error", async () => {
    const response = await dispatch(server, "tools/call", { name: "wrong" });
    expect(response.kind === "result" && response.result.isError).toBe(true);
  });

  it("does not check the output of a result that is already an error", async () => {
    expect(await dispatch(server, "tools/call", { name: "failed" })).toEqual({
      kind: "result",
      id: "r",
      result: { content: [{ type: "text", text: "no" }], isError: true },
    });
  });
});

describe("argument validation with a raw JSON Schema", () => {
  const server = defineServer({ name: "args", version: "1" }).tool(
    "strict",
    { description: "d", input: { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] } },
    (args) => ({ content: [text(JSON.stringify(args))] }),
  );

  it("names the offending location in the -32602 message", async () => {
    const response = await dispatch(server, "tools/call", { name: "strict", arguments: { n: 0 } });
    expect(response.kind).toBe("error");
    if (response.kind === "error") {
      expect(response.error.code).toBe(INVALID_PARAMS);
      expect(response.error.message).toContain("/n");
    }
  });

  it("passes valid arguments to the handler unchanged", async () => {
    expect(await dispatch(server, "tools/call", { name: "strict", arguments: { n: 3 } })).toEqual({
      kind: "result",
      id: "r",
      result: { content: [{ type: "text", text: '{"n":3}' }] },
    });
  });
});

describe("capabilities", () => {
  it("declares only logging for an empty server", () => {
    expect(defineServer({ name: "e", version: "1" }).capabilities(true)).toEqual({ logging: {} });
  });

  it("declares tools for a tools-only server, and nothing for resources, prompts or completions", () => {
    const server = defineServer({ name: "t", version: "1" }).tool("x", { description: "d" }, () => ({ content: [] }));
    expect(server.capabilities(true)).toEqual({ logging: {}, tools: { listChanged: false } });
  });

  it("declares resources for a template-only server and completions when a variable completes", () => {
    const server = defineServer({ name: "r", version: "1" }).resourceTemplate(
      "x://{id}",
      { name: "x", complete: { id: () => ["1"] } },
      (uri) => ({ uri, text: "" }),
    );
    expect(server.capabilities(false)).toEqual({ logging: {}, resources: { subscribe: false, listChanged: false }, completions: {} });
  });

  it("declares prompts without completions when no argument completes", () => {
    const server = defineServer({ name: "p", version: "1" }).prompt("p", { description: "d", arguments: [{ name: "a" }] }, () => ({
      messages: [],
    }));
    expect(server.capabilities(true)).toEqual({ logging: {}, prompts: { listChanged: false } });
  });
});

describe("isKnownMethod", () => {
  it("knows initialize and every dispatched method, but not inherited object keys", () => {
    expect(["initialize", "ping", "tools/call", "completion/complete", "logging/setLevel"].every(isKnownMethod)).toBe(true);
    expect(["toString", "hasOwnProperty", "tools/explode"].some(isKnownMethod)).toBe(false);
  });
});
