/**
 * A task whose input is gathered first, by MRTR in the Worker (ext-tasks with mrtr.mdx; the
 * conformance scenario tasks-mrtr-composition): round 1 is input_required and names no task,
 * round 2 with the answer is a CreateTaskResult without requestState, and the task's result
 * carries what was gathered.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import type { EdgeEnv } from "../../src/kernel/env";
import { expectComplete, expectInputRequired, post2026 } from "../helpers/era-2026";

const TASKS = "io.modelcontextprotocol/tasks";
const CAPS = { elicitation: {}, extensions: { [TASKS]: {} } };

/** Waits on the task object's own change events (no polling), then reads the task as a client would. */
async function whenDone(taskId: string): Promise<Record<string, unknown>> {
  const ns = (env as unknown as EdgeEnv).MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  await runInDurableObject(ns.get(ns.idFromString(taskId)), (instance) =>
    (instance as unknown as McpTaskObject).awaitStatus(["completed", "failed"]),
  );
  return expectComplete(await post2026("tasks/get", { taskId }, { capabilities: CAPS, id: 3, headers: { "Mcp-Name": taskId } }), 3);
}

describe("task.gather: MRTR rounds before a task exists", () => {
  it("asks first, then creates the task with the answer, which reaches the handler", async () => {
    const params = { name: "test_tool_with_task", arguments: {} };
    const round1 = await expectInputRequired(await post2026("tools/call", params, { capabilities: CAPS }));
    expect(Object.keys(round1.inputRequests)).toEqual(["user_name"]);
    expect(round1).not.toHaveProperty("taskId");

    const answer = { action: "accept", content: { name: "Alice" } };
    const res = await post2026(
      "tools/call",
      { ...params, inputResponses: { user_name: answer }, requestState: round1.requestState },
      { capabilities: CAPS, id: 2 },
    );
    const created = (await res.json()) as { id: number; result: Record<string, unknown> };
    expect(created.id).toBe(2);
    expect(created.result.resultType).toBe("task");
    expect(typeof created.result.taskId).toBe("string");
    expect(created.result).not.toHaveProperty("requestState");
    expect(created.result).not.toHaveProperty("inputRequests");

    const done = await whenDone(created.result.taskId as string);
    expect(done.status).toBe("completed");
    expect(JSON.stringify(done.result)).toContain("Hello, Alice!");
  });

  it("without the Tasks extension declared, a task-only tool is refused with 400 -32021 before anything is asked", async () => {
    const res = await post2026("tools/call", { name: "test_tool_with_task", arguments: {} }, { capabilities: { elicitation: {} } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; data: { requiredCapabilities: { extensions: Record<string, unknown> } } } };
    expect(body.error.code).toBe(-32021);
    expect(body.error.data.requiredCapabilities.extensions).toHaveProperty(TASKS);
  });
});
