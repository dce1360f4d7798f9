/**
 * Extension negotiation: what a server declares, what a request's client declared, and the
 * gates built on both — the decision between a task and a synchronous result, -32021 for a
 * task-only tool, -32601/-32021 for extension methods — plus the 2025-era lane's view.
 */
import { describe, expect, it } from "vitest";
import { RpcError } from "../../src/jsonrpc/errors";
import type { EdgeEnv } from "../../src/kernel/env";
import { checkExtensionMethod, clientDeclares, clientExtension, extensionsCapability } from "../../src/mcp/definition/extensions";
import { defineServer } from "../../src/mcp/definition/server";
import { createMcpEdge } from "../../src/edge";
import { runAsTaskIfChosen, serveTaskMethod } from "../../src/features/tasks/lane";
import { tasks } from "../../src/features/tasks/index";
import { taskObject } from "../../src/features/tasks/task-object";
import { decideTaskExecution } from "../../src/kernel/task-seam";
import { openSession, post } from "../helpers/mcp";
import { post2026 } from "../helpers/era-2026";
import { CAPS, edgeEnv, refusal, TASKS } from "./helpers";
import { tasksServer } from "../servers/tasks/entry";

const UI = "io.modelcontextprotocol/ui";
const tool = (name: string) => tasksServer.tools.get(name) as NonNullable<ReturnType<typeof tasksServer.tools.get>>;
const tasksPlace = { server: tasksServer, env: edgeEnv };

describe("reading a client's declaration", () => {
  it("finds an extension in capabilities.extensions, {} included, and nothing elsewhere", () => {
    expect(clientDeclares({ extensions: { [TASKS]: {} } }, TASKS)).toBe(true);
    expect(clientExtension({ extensions: { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } } }, UI)).toEqual({
      mimeTypes: ["text/html;profile=mcp-app"],
    });
    for (const caps of [undefined, null, "x", {}, { extensions: [] }, { extensions: { [TASKS]: true } }, { [TASKS]: {} }]) {
      expect(clientDeclares(caps, TASKS), JSON.stringify(caps)).toBe(false);
    }
  });
});

describe("deciding whether a call becomes a task", () => {
  it("is a task when the tool allows it and this request's client declared the extension", () => {
    expect(decideTaskExecution(tool("wait"), CAPS)).toBe("task");
    expect(decideTaskExecution(tool("only_task"), CAPS)).toBe("task");
  });

  it("is synchronous for a client that did not declare it, and for tools that are not task tools", () => {
    expect(decideTaskExecution(tool("wait"), { elicitation: {} })).toBe("sync");
    expect(decideTaskExecution(tool("plain"), CAPS)).toBe("sync");
  });

  it("refuses a task-only tool to a client that did not declare the extension with -32021 naming it", () => {
    const decision = decideTaskExecution(tool("only_task"), {});
    expect(decision).toBeInstanceOf(RpcError);
    expect((decision as RpcError).toJSON()).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });
});

describe("the one call a tools/call lane makes", () => {
  it("creates the task for a declaring client, runs synchronously otherwise, refuses a task-only tool", async () => {
    const created = await runAsTaskIfChosen(tasksPlace, tool("tool_error"), {}, { clientCapabilities: CAPS });
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    expect(await runAsTaskIfChosen(tasksPlace, tool("tool_error"), {}, { clientCapabilities: {} })).toBeUndefined();
    expect(await runAsTaskIfChosen(tasksPlace, tool("plain"), {}, { clientCapabilities: CAPS })).toBeUndefined();
    expect((await refusal(runAsTaskIfChosen(tasksPlace, tool("only_task"), {}, { clientCapabilities: {} }))).code).toBe(-32021);
  });
});

describe("extension methods", () => {
  it("tasks/* answer -32021 when this request's client did not declare the extension", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"] as const) {
      const error = await refusal(
        serveTaskMethod(
          tasksPlace,
          method,
          { taskId: "a".repeat(64), inputResponses: {} },
          { subject: undefined, clientCapabilities: { elicitation: {} } },
        ),
      );
      expect(error.code, method).toBe(-32021);
    }
  });

  it("do not exist on a server without task tools: -32601", async () => {
    const plain = defineServer<EdgeEnv>({ name: "p", version: "1" });
    const error = await refusal(
      serveTaskMethod(
        { server: plain, env: edgeEnv },
        "tasks/get",
        { taskId: "a".repeat(64) },
        { subject: undefined, clientCapabilities: CAPS },
      ),
    );
    expect(error.code).toBe(-32601);
    expect(checkExtensionMethod(plain.extensions, "tools/list", {})).toBeUndefined();
  });

  it("need a string taskId", async () => {
    expect((await refusal(serveTaskMethod(tasksPlace, "tasks/get", {}, { subject: undefined, clientCapabilities: CAPS }))).code).toBe(
      -32602,
    );
  });
});

describe("what a server declares", () => {
  it("a task tool declares the Tasks extension; discover lists it, a 2025 initialize never does", () => {
    expect(extensionsCapability(tasksServer.extensions, "2026")).toEqual({ [TASKS]: {} });
    expect(tasksServer.capabilities(true, { extensions: { [TASKS]: {} } }).extensions).toBeUndefined();
  });

  it("declared extensions carry their settings; initialize lists those the client declared too", () => {
    const server = defineServer({ name: "s", version: "1", extensions: { "com.example/alpha": { level: 2 } } }).extension(
      "com.example/beta",
    );
    expect(extensionsCapability(server.extensions, "2026")).toEqual({ "com.example/alpha": { level: 2 }, "com.example/beta": {} });
    expect(server.capabilities(true, { extensions: { "com.example/beta": {} } }).extensions).toEqual({ "com.example/beta": {} });
    expect(server.capabilities(true, {})).toEqual({ logging: {} });
  });

  it("refuses identifiers without a vendor prefix and settings that are not objects", () => {
    const server = defineServer({ name: "s", version: "1" });
    for (const id of ["tasks", "/x", "com.example/", "com example/x", "com.example/x/y"])
      expect(() => server.extension(id), id).toThrow(TypeError);
    expect(() => server.extension("com.example/x", [] as never)).toThrow(TypeError);
  });

  it("a tool's task option is checked at definition", () => {
    const server = defineServer({ name: "s", version: "1" });
    const h = () => ({ content: [] });
    expect(() => server.tool("a", { description: "a", task: "sometimes" as never }, h)).toThrow(TypeError);
    expect(() => server.tool("b", { description: "b", task: { support: "optional", ttlMs: 0 } }, h)).toThrow(TypeError);
  });
});

describe("task options", () => {
  it("refuses a TTL, polling interval or watchdog that is not a positive integer where the tasks feature makes its class", () => {
    for (const options of [{ ttlMs: 0 }, { pollIntervalMs: 1.5 }, { watchdogMs: -1 }]) {
      const [name] = Object.keys(options);
      const refused = `mcp-edge option tasks.${name} must be a positive integer`;
      expect(() => createMcpEdge(tasksServer, { features: [tasks(options)] })).toThrow(refused);
      // Before features: given at the top level, checked where the deprecated taskObject(edge) makes the class.
      expect(() => taskObject(createMcpEdge(tasksServer, { tasks: options }))).toThrow(refused);
    }
  });
});

describe("the 2025-era lane", () => {
  it("runs a task-capable tool synchronously", async () => {
    const { sessionId, version } = await openSession("2025-11-25");
    const res = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "tool_error", arguments: {} } },
      { sessionId, version },
    );
    expect(await res.json()).toMatchObject({ id: 1, result: { isError: true, content: [{ text: "nope" }] } });
  });

  // 2025-11-25 "Tasks": a tool whose taskSupport is "required", called without a task, gets -32601;
  // never the 2026-only -32021 or advice to declare an extension a 2025 client cannot declare.
  it("answers a task-only tool with -32601 and no advice about extensions", async () => {
    const { sessionId, version } = await openSession("2025-11-25");
    const res = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "only_task", arguments: {} } },
      { sessionId, version },
    );
    const body = (await res.json()) as { error: { code: number; message: string; data?: unknown } };
    expect(body.error.code).toBe(-32601);
    expect(body.error.data).toBeUndefined();
    expect(body.error.message).not.toMatch(/extension|_meta|clientCapabilities/);
  });

  it("leaves task-only tools out of tools/list, keeping the tools that can also run synchronously", async () => {
    const { sessionId, version } = await openSession("2025-11-25");
    const res = await post({ jsonrpc: "2.0", id: 4, method: "tools/list" }, { sessionId, version });
    const names = ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["wait", "tool_error", "plain"]));
    expect(names).not.toContain("only_task");
    expect(names).not.toContain("approve");
  });

  it("still lists task-only tools on 2026-07-28, where a client can declare the extension", async () => {
    const res = await post2026("tools/list", {}, { capabilities: {} });
    const names = ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["only_task", "approve", "plain"]));
  });

  it("has no tasks/* methods, and initialize does not advertise Tasks even to a client that declares it", async () => {
    const init = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { extensions: { [TASKS]: {} } }, clientInfo: { name: "t", version: "1" } },
    });
    expect(((await init.json()) as { result: { capabilities: Record<string, unknown> } }).result.capabilities.extensions).toBeUndefined();
    const { sessionId, version } = await openSession("2025-11-25");
    const res = await post({ jsonrpc: "2.0", id: 3, method: "tasks/get", params: { taskId: "x" } }, { sessionId, version });
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });
});
