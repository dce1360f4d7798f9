/**
 * The Tasks extension's lifecycle through the Worker-side calls a lane makes: creation is
 * durable before return, tasks/get answers every status with its payload, tasks/update answers
 * outstanding asks only, tasks/cancel is cooperative, terminal states never change, and a task
 * belongs to the principal that created it.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RpcError } from "../../src/jsonrpc/errors";
import { visibleTaskIds } from "../../src/features/tasks/lane";
import { cancel, create, edgeEnv, get, inputKeys, principal, refusal, storedRecord, taskStub, until, update, type Json } from "./helpers";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("creating a task", () => {
  it("returns a CreateTaskResult whose task a tasks/get resolves at once", async () => {
    const created = await create("wait", { ms: 600_000 });
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 2000 });
    expect(created.taskId).toMatch(/^[0-9a-f]{64}$/);
    expect(created.createdAt).toMatch(ISO);
    const stored = await storedRecord(created.taskId as string);
    expect(stored?.status).toBe("working");
    const got = await get(created.taskId as string);
    expect(got).toMatchObject({ resultType: "complete", taskId: created.taskId, status: "working", createdAt: created.createdAt });
    await cancel(created.taskId as string);
  });

  it("gives every task a different unguessable id", async () => {
    const ids = await Promise.all([1, 2, 3].map(() => create("tool_error").then((t) => t.taskId)));
    expect(new Set(ids).size).toBe(3);
  });

  it("refuses invalid arguments with -32602 and creates nothing", async () => {
    const error = await refusal(create("wait", { ms: "soon" }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('Invalid arguments for tool "wait"');
  });

  it("refuses a tool that cannot run as a task", async () => {
    expect((await refusal(create("plain"))).code).toBe(-32602);
  });

  it("refuses a client that did not declare the extension with -32021", async () => {
    const error = await refusal(create("wait", { ms: 1 }, { caps: { elicitation: {} } }));
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });
  });
});

describe("terminal states", () => {
  it("completed: the result is inlined, as the call would have returned it", async () => {
    const { taskId } = (await create("wait", { ms: 0 })) as { taskId: string };
    expect(await until(taskId, "completed", "failed")).toBe("completed");
    const task = await get(taskId);
    expect(task).toMatchObject({
      resultType: "complete",
      status: "completed",
      result: { content: [{ type: "text", text: "waited 0 ms" }] },
    });
    expect(task.lastUpdatedAt).toMatch(ISO);
  });

  it("a tool that throws completes with isError: failed is only for JSON-RPC errors, and the exception's text stays in the log", async () => {
    const { taskId } = (await create("throws")) as { taskId: string };
    await until(taskId, "completed", "failed");
    const task = await get(taskId);
    expect(task).toMatchObject({ status: "completed", result: { isError: true } });
    expect(JSON.stringify(task.result)).toMatch(/Tool \\"throws\\" failed unexpectedly \(reference [0-9a-f]{8}\)/);
    expect(JSON.stringify(task)).not.toContain("boom");
  });

  it("an RpcError thrown by the handler fails the task with that JSON-RPC error", async () => {
    const { taskId } = (await create("protocol_error")) as { taskId: string };
    await until(taskId, "completed", "failed");
    const task = await get(taskId);
    expect(task).toMatchObject({
      status: "failed",
      statusMessage: "Tool execution failed: upstream refused",
      error: { code: -32603, message: "upstream refused", data: { retryAfterMs: 1000 } },
    });
    expect(task.result).toBeUndefined();
  });

  it("a tool error result completes with that result", async () => {
    const { taskId } = (await create("tool_error")) as { taskId: string };
    await until(taskId, "completed", "failed");
    expect(await get(taskId)).toMatchObject({ status: "completed", result: { isError: true, content: [{ text: "nope" }] } });
  });

  it("a result that is not a CallToolResult fails the task with -32603 and a status message", async () => {
    const { taskId } = (await create("bad_result")) as { taskId: string };
    await until(taskId, "completed", "failed");
    const task = await get(taskId);
    expect(task).toMatchObject({ status: "failed", error: { code: -32603, message: "Internal error" } });
    expect(typeof task.statusMessage).toBe("string");
  });

  it("a terminal task never changes: cancel and update after completion leave it as it was", async () => {
    const { taskId } = (await create("tool_error")) as { taskId: string };
    await until(taskId, "completed");
    const before = await get(taskId);
    expect(await cancel(taskId)).toEqual({ resultType: "complete" });
    expect(await update(taskId, { "1-0": { action: "accept", content: {} } })).toEqual({ resultType: "complete" });
    expect(await get(taskId)).toEqual(before);
  });
});

describe("progress", () => {
  it("shows a task's progress as its statusMessage, and refuses progress that does not increase", async () => {
    const { taskId } = (await create("progress_steps", { ms: 200 })) as { taskId: string };
    let working = await get(taskId);
    for (let i = 0; i < 50 && working.statusMessage !== "1/2" && working.status === "working"; i++) {
      await scheduler.wait(20);
      working = await get(taskId);
    }
    expect(working).toMatchObject({ status: "working", statusMessage: "1/2" });
    expect(await until(taskId, "completed", "failed")).toBe("completed");
    expect(await get(taskId)).toMatchObject({ result: { content: [{ type: "text", text: "-32602 progress must increase: 1 after 1" }] } });
  });
});

describe("input_required", () => {
  it("lists every outstanding ask, the same keys on every poll", async () => {
    const { taskId } = (await create("ask_two")) as { taskId: string };
    await until(taskId, "input_required");
    const first = await get(taskId);
    expect(first.status).toBe("input_required");
    const requests = first.inputRequests as Record<string, { method: string; params: Json }>;
    expect(Object.values(requests).map((r) => [r.method, r.params.message])).toEqual([
      ["elicitation/create", "First?"],
      ["elicitation/create", "Second?"],
    ]);
    expect(inputKeys(await get(taskId))).toEqual(inputKeys(first));
    await cancel(taskId);
  });

  it("tasks/update answers outstanding keys, ignores others, and the task stays input_required until all are answered", async () => {
    const { taskId } = (await create("ask_two")) as { taskId: string };
    await until(taskId, "input_required");
    const [k1, k2] = inputKeys(await get(taskId)) as [string, string];
    const ack = await update(taskId, { [k1]: { action: "accept", content: { name: "Ann" } }, "never-issued": { action: "decline" } });
    expect(ack).toEqual({ resultType: "complete" });
    const partial = await get(taskId);
    expect(partial.status).toBe("input_required");
    expect(inputKeys(partial)).toEqual([k2]);
    // An answered key is not outstanding any more: a second answer for it is ignored.
    await update(taskId, { [k1]: { action: "accept", content: { name: "Bob" } }, [k2]: { action: "accept", content: { color: "red" } } });
    await until(taskId, "completed", "failed");
    expect(await get(taskId)).toMatchObject({ status: "completed", result: { content: [{ text: "Ann likes red" }] } });
  });

  it("a sampling ask is an inputRequest too, answered with the model's result", async () => {
    const { taskId } = (await create("summarize")) as { taskId: string };
    await until(taskId, "input_required");
    const task = await get(taskId);
    const [key, request] = Object.entries(task.inputRequests as Record<string, { method: string; params: Json }>)[0] as [
      string,
      { method: string; params: Json },
    ];
    expect(request.method).toBe("sampling/createMessage");
    expect(request.params.maxTokens).toBe(10);
    await update(taskId, { [key]: { role: "assistant", content: { type: "text", text: "short" }, model: "m" } });
    await until(taskId, "completed");
    expect(await get(taskId)).toMatchObject({ result: { content: [{ text: "model said: short" }] } });
  });

  it("refuses an update whose answers are not objects, naming the key", async () => {
    const { taskId } = (await create("ask_two")) as { taskId: string };
    const error = await refusal(update(taskId, { x: "yes" }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('inputResponses["x"]');
    await cancel(taskId);
  });
});

describe("cancellation", () => {
  it("reaches the handler's signal: a working task ends cancelled", async () => {
    const { taskId } = (await create("wait", { ms: 600_000 })) as { taskId: string };
    expect(await cancel(taskId)).toEqual({ resultType: "complete" });
    expect(await until(taskId, "cancelled", "completed", "failed")).toBe("cancelled");
    expect(await get(taskId)).toMatchObject({ status: "cancelled" });
  });

  it("a task waiting for input ends cancelled and lists no inputRequests", async () => {
    const { taskId } = (await create("ask_two")) as { taskId: string };
    await until(taskId, "input_required");
    await cancel(taskId);
    await until(taskId, "cancelled");
    const task = await get(taskId);
    expect(task.status).toBe("cancelled");
    expect(task.inputRequests).toBeUndefined();
  });
});

describe("limits", () => {
  it("refuses arguments over 256 KiB with -31003 before creating a task", async () => {
    const error = await refusal(create("wait", { ms: 1, pad: "x".repeat(300_000) }));
    expect(error.code).toBe(-31003);
  });

  it("a result too large to keep fails the task with -31003 instead of leaving it working", async () => {
    const { taskId } = (await create("huge_result")) as { taskId: string };
    expect(await until(taskId, "completed", "failed")).toBe("failed");
    expect(await get(taskId)).toMatchObject({ status: "failed", error: { code: -31003 } });
  });

  it("a 33rd outstanding ask is refused with -31003 while 32 wait", async () => {
    const { taskId } = (await create("ask_many")) as { taskId: string };
    await until(taskId, "input_required");
    expect(inputKeys(await get(taskId))).toHaveLength(32);
    await cancel(taskId);
  });

  it("keeps at most 4,000,000 bytes per task: the answer that would pass the ceiling is refused with -31003 and not stored", async () => {
    const { taskId } = (await create("ask_loop")) as { taskId: string };
    const answer = { action: "accept", content: { text: "z".repeat(900_000) } };
    let refused: RpcError | undefined;
    for (let round = 0; round < 10 && !refused; round++) {
      await until(taskId, "input_required");
      const [key] = inputKeys(await get(taskId));
      try {
        await update(taskId, { [key as string]: answer });
      } catch (error) {
        refused = error as RpcError;
      }
    }
    expect(refused?.code).toBe(-31003);
    expect(refused?.message).toContain("4000000 bytes");
    // What the object keeps stays under the ceiling, and the task still waits for that answer.
    const kept = await runInDurableObject(taskStub(taskId), (_o, state) => state.storage.sql.databaseSize);
    expect(kept).toBeLessThan(4_000_000 + 512 * 1024);
    expect((await get(taskId)).status).toBe("input_required");
    await cancel(taskId);
  });

  it("refuses an answer over 1 MB with -31003", async () => {
    const { taskId } = (await create("ask_two")) as { taskId: string };
    await until(taskId, "input_required");
    const [key] = inputKeys(await get(taskId));
    const error = await refusal(update(taskId, { [key as string]: { action: "accept", content: { name: "y".repeat(1_100_000) } } }));
    expect(error.code).toBe(-31003);
    await cancel(taskId);
  });
});

describe("who may see a task", () => {
  it("answers only the principal that created it; anyone else gets not found", async () => {
    const { taskId } = (await create("wait", { ms: 600_000 }, { principal: principal("alice") })) as { taskId: string };
    expect((await get(taskId, "alice")).status).toBe("working");
    for (const other of ["bob", undefined]) {
      const error = await refusal(get(taskId, other));
      expect(error.code).toBe(-32602);
      expect(error.message).toBe("Failed to retrieve task: Task not found");
    }
    expect((await refusal(cancel(taskId, "bob"))).code).toBe(-32602);
    expect((await get(taskId, "alice")).status).toBe("working");
    await cancel(taskId, "alice");
  });

  it("a listener may follow only its own tasks: others' and unknown ids are dropped", async () => {
    const mine = (await create("tool_error", {}, { principal: principal("alice") })).taskId as string;
    const theirs = (await create("tool_error", {}, { principal: principal("bob") })).taskId as string;
    expect(await visibleTaskIds(edgeEnv, [mine, theirs, "nope", "f".repeat(64), 7], "alice")).toEqual([mine]);
  });

  it("refuses malformed and forged task ids with -32602", async () => {
    for (const taskId of ["", "abc", "0".repeat(64), "f".repeat(64)]) {
      const error = await refusal(get(taskId));
      expect(error.code, taskId).toBe(-32602);
    }
    expect((await refusal(get(42 as unknown as string))).code).toBe(-32602);
  });
});
