/**
 * The demo's task tools in the demo Worker (MCP_TASK bound in wrangler.toml), driven the way the
 * conformance suite's `tasks-*` scenarios drive them: build_report, and the fixtures greet,
 * slow_compute, failing_job, protocol_error_job, confirm_delete and multi_input.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import { demoServer } from "../../src/demo/server";
import type { EdgeEnv } from "../../src/kernel/env";
import { RpcError } from "../../src/jsonrpc/errors";
import { createTask, serveTaskMethod, type TaskMethod } from "../../src/tasks/lane";
import { decideTaskExecution } from "../../src/tasks/seam";
import type { TaskStatus } from "../../durable-objects/tasks/model";
import { expectResult, statelessCall } from "../helpers/rpc-expect";

const edgeEnv = env as unknown as EdgeEnv;
const CAPS = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };
type Json = Record<string, unknown>;

function until(taskId: string, ...statuses: TaskStatus[]): Promise<TaskStatus | undefined> {
  const ns = edgeEnv.MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  return runInDurableObject(ns.get(ns.idFromString(taskId)), (instance) => (instance as unknown as McpTaskObject).awaitStatus(statuses));
}
const start = async (tool: string, args: Json = {}) =>
  (await createTask(demoServer, edgeEnv, { tool, args, clientCapabilities: CAPS })).taskId as string;
const call = (method: TaskMethod, params: Json) =>
  serveTaskMethod({ server: demoServer, env: edgeEnv }, method, params, { subject: undefined, clientCapabilities: CAPS });
const get = (taskId: string) => call("tasks/get", { taskId });

describe("build_report as a task", () => {
  it("asks for a title, then completes with the report", async () => {
    const taskId = await start("build_report", { steps: 1 });
    await until(taskId, "input_required");
    const [key] = Object.keys((await get(taskId)).inputRequests as object);
    await call("tasks/update", { taskId, inputResponses: { [key as string]: { action: "accept", content: { title: "Q3" } } } });
    expect(await until(taskId, "completed", "failed", "cancelled")).toBe("completed");
    expect(await get(taskId)).toMatchObject({ status: "completed", result: { content: [{ text: 'Report "Q3": 1 steps done' }] } });
  });

  // Its form is plain JSON Schema ({ title: string }, required): the run never sees an answer that does not fit it.
  it.each([
    ["accept without content", { action: "accept" }],
    ["a missing required field", { action: "accept", content: { subtitle: "Q3" } }],
    ["a field of the wrong type", { action: "accept", content: { title: 3 } }],
  ])("refuses %s, naming the field, and never reports a title it was not given", async (_name, answer) => {
    const taskId = await start("build_report", { steps: 1 });
    await until(taskId, "input_required");
    const [key] = Object.keys((await get(taskId)).inputRequests as object);
    await call("tasks/update", { taskId, inputResponses: { [key as string]: answer } }).catch((error: unknown) => error);
    await until(taskId, "completed", "failed", "cancelled");
    const task = JSON.stringify(await get(taskId));
    expect(task).toContain("does not match the requested schema");
    expect(task).toContain("title");
    expect(task).not.toContain("Report");
  });
});

describe("build_report's form in a task run, as its JSON Schema says", () => {
  it("passes an extra field through (the form does not forbid one) and completes with the title", async () => {
    const taskId = await start("build_report", { steps: 1 });
    await until(taskId, "input_required");
    const [key] = Object.keys((await get(taskId)).inputRequests as object);
    await call("tasks/update", { taskId, inputResponses: { [key as string]: { action: "accept", content: { title: "Q4", note: "x" } } } });
    expect(await until(taskId, "completed", "failed", "cancelled")).toBe("completed");
    expect(await get(taskId)).toMatchObject({ result: { content: [{ text: 'Report "Q4": 1 steps done' }] } });
  });
});

describe("the conformance task fixtures", () => {
  it("greet is sync-only", async () => {
    expect(decideTaskExecution(demoServer.tools.get("greet")!, CAPS)).toBe("sync");
    const result = await expectResult(
      await statelessCall("tools/call", { name: "greet", arguments: { name: "World" } }, { version: "2025-11-25" }),
    );
    expect(result.content).toEqual([{ type: "text", text: "Hello, World!" }]);
  });

  it("slow_compute with 0 seconds completes with its result; with 60 it ends cancelled on tasks/cancel", async () => {
    const quick = await start("slow_compute", { seconds: 0, label: "instant" });
    await until(quick, "completed");
    expect(await get(quick)).toMatchObject({ status: "completed", result: { content: [{ text: "Computed instant after 0 s" }] } });
    const slow = await start("slow_compute", { seconds: 60, label: "cancel" });
    expect(await call("tasks/cancel", { taskId: slow })).toEqual({ resultType: "complete" });
    expect(await until(slow, "cancelled", "completed", "failed")).toBe("cancelled");
  });

  it("failing_job completes with isError, and without the extension is refused with -32021", async () => {
    const taskId = await start("failing_job");
    expect(await until(taskId, "completed", "failed")).toBe("completed");
    expect(await get(taskId)).toMatchObject({ result: { isError: true } });
    const refused = decideTaskExecution(demoServer.tools.get("failing_job")!, {});
    expect(refused instanceof RpcError && refused.code).toBe(-32021);
  });

  it("protocol_error_job fails with an inlined error and no result", async () => {
    const taskId = await start("protocol_error_job");
    expect(await until(taskId, "completed", "failed")).toBe("failed");
    const task = await get(taskId);
    expect(task.error).toEqual({ code: -32603, message: "The job could not reach its backend" });
    expect(task.result).toBeUndefined();
  });

  it("confirm_delete parks on one elicitation and completes when it is answered", async () => {
    const taskId = await start("confirm_delete", { filename: "a.txt" });
    await until(taskId, "input_required");
    const requests = (await get(taskId)).inputRequests as Record<string, { method: string }>;
    const keys = Object.keys(requests);
    expect(keys).toHaveLength(1);
    expect(requests[keys[0] as string]?.method).toBe("elicitation/create");
    await call("tasks/update", { taskId, inputResponses: { [keys[0] as string]: { action: "accept", content: { confirm: true } } } });
    await until(taskId, "completed");
    expect(await get(taskId)).toMatchObject({ result: { content: [{ text: "Deleted a.txt" }] } });
  });

  it("multi_input keeps the task input_required until both keys are answered", async () => {
    const taskId = await start("multi_input");
    await until(taskId, "input_required");
    const [a, b] = Object.keys((await get(taskId)).inputRequests as object) as [string, string];
    await call("tasks/update", { taskId, inputResponses: { [a]: { action: "accept", content: { name: "Ann" } } } });
    const partial = await get(taskId);
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests as object)).toEqual([b]);
    await call("tasks/update", { taskId, inputResponses: { [b]: { action: "accept", content: { colour: "red" } } } });
    await until(taskId, "completed");
    expect(await get(taskId)).toMatchObject({ result: { content: [{ text: "Ann likes red" }] } });
  });

  it("multi_input completes when both keys get the same answer, as conformance tasks-mrtr-input sends it", async () => {
    const taskId = await start("multi_input");
    await until(taskId, "input_required");
    const keys = Object.keys((await get(taskId)).inputRequests as object);
    for (const [i, key] of keys.entries()) {
      await call("tasks/update", {
        taskId,
        inputResponses: { [key]: { action: "accept", content: { name: `partial-${i + 1}`, confirm: true } } },
      });
    }
    await until(taskId, "completed");
    expect(await get(taskId)).toMatchObject({ status: "completed" });
  });
});
