/**
 * The demo's task tool in the demo Worker (MCP_TASK bound in wrangler.toml): created as a task,
 * it asks for a title, then reports progress as its status message and completes.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { McpTaskObject } from "../../../durable-objects/task/mcp-task";
import { demoServer } from "../../../src/demo/server";
import type { EdgeEnv } from "../../../src/env";
import { createTask, serveTaskMethod } from "../../../src/tasks/lane";
import type { TaskStatus } from "../../../src/tasks/model";

const edgeEnv = env as unknown as EdgeEnv;
const CAPS = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };

function until(taskId: string, ...statuses: TaskStatus[]): Promise<TaskStatus | undefined> {
  const ns = edgeEnv.MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  return runInDurableObject(ns.get(ns.idFromString(taskId)), (instance) => (instance as unknown as McpTaskObject).awaitStatus(statuses));
}

describe("build_report as a task", () => {
  it("asks for a title, then completes with the report", async () => {
    const created = await createTask(demoServer, edgeEnv, { tool: "build_report", args: { steps: 1 }, clientCapabilities: CAPS });
    expect(created.resultType).toBe("task");
    const taskId = created.taskId as string;
    await until(taskId, "input_required");
    const asking = await serveTaskMethod(demoServer, edgeEnv, "tasks/get", { taskId }, undefined, CAPS);
    const [key] = Object.keys(asking.inputRequests as object);
    await serveTaskMethod(demoServer, edgeEnv, "tasks/update", { taskId, inputResponses: { [key as string]: { action: "accept", content: { title: "Q3" } } } }, undefined, CAPS);
    expect(await until(taskId, "completed", "failed", "cancelled")).toBe("completed");
    const done = await serveTaskMethod(demoServer, edgeEnv, "tasks/get", { taskId }, undefined, CAPS);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ text: 'Report "Q3": 1 steps done' }] } });
  });
});
