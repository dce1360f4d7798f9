/**
 * Durability: the task's object is evicted (abortAllDurableObjects drops every instance and
 * keeps storage) after creation, while working, while waiting for input and after completion.
 * tasks/get always answers; nothing completes twice; a lost run never leaves a task working:
 * a non-resumable task fails with a stored -32603, a resumable one runs again from the top with
 * the answers already given (same asks, same keys), and its watchdog alarm notices without a poll.
 */
import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cancel, create, get, inputKeys, storedRecord, taskStub, until, update } from "./helpers";

const evict = () => abortAllDurableObjects();

async function started(tool: string, args: Record<string, unknown> = {}): Promise<string> {
  return (await create(tool, args)).taskId as string;
}

describe("evicted right after creation", () => {
  it("a non-resumable task fails with a stored error instead of staying working", async () => {
    const taskId = await started("wait", { ms: 600_000 });
    await evict();
    const task = await get(taskId);
    expect(task).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect(String((task.error as { message: string }).message)).toContain("not resumable");
    // Stored: the same answer after another eviction, unchanged.
    await evict();
    expect(await get(taskId)).toEqual(task);
  });

  it("a resumable task runs again and is working, not failed", async () => {
    const taskId = await started("wait_resumable", { ms: 600_000 });
    await evict();
    expect(await get(taskId)).toMatchObject({ status: "working", statusMessage: "Resumed after a restart" });
    expect((await storedRecord(taskId))?.attempt).toBe(2);
    await cancel(taskId);
    expect(await until(taskId, "cancelled", "failed", "completed")).toBe("cancelled");
  });
});

describe("evicted again and again", () => {
  it("a resumable task is resumed at most three times, then fails with a stored error", async () => {
    const taskId = await started("wait_resumable", { ms: 600_000 });
    for (let attempt = 2; attempt <= 4; attempt++) {
      await evict();
      expect((await get(taskId)).status).toBe("working");
      expect((await storedRecord(taskId))?.attempt).toBe(attempt);
    }
    await evict();
    expect(await get(taskId)).toMatchObject({ status: "failed", error: { code: -32603 } });
  });
});

describe("evicted while working", () => {
  it("the watchdog alarm fails a lost run with nobody polling", async () => {
    const taskId = await started("wait", { ms: 600_000 });
    await until(taskId, "working");
    // An unfinished task keeps an alarm within the watchdog interval (60 s here), well before its TTL.
    const alarm = await runInDurableObject(taskStub(taskId), (_i, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm as number).toBeLessThanOrEqual(Date.now() + 60_000);
    await evict();
    // No tasks/get: only the alarm wakes the object.
    expect(await runDurableObjectAlarm(taskStub(taskId))).toBe(true);
    expect((await storedRecord(taskId))?.status).toBe("failed");
  });

  it("a task cancelled before the restart ends cancelled, not failed", async () => {
    const taskId = await started("ask_two");
    await until(taskId, "input_required");
    await cancel(taskId);
    await until(taskId, "cancelled");
    await evict();
    expect((await get(taskId)).status).toBe("cancelled");
  });
});

describe("evicted while waiting for input", () => {
  it("a non-resumable task fails and lists no inputRequests", async () => {
    const taskId = await started("ask_two");
    await until(taskId, "input_required");
    const keys = inputKeys(await get(taskId));
    await evict();
    const task = await get(taskId);
    expect(task.status).toBe("failed");
    expect(task.inputRequests).toBeUndefined();
    // Its asks are no longer outstanding: late answers change nothing.
    await update(taskId, { [keys[0] as string]: { action: "accept", content: { name: "x" } } });
    expect(await get(taskId)).toEqual(task);
  });

  it("a resumable task asks again under the same key, keeps answers across restarts, and completes once", async () => {
    const taskId = await started("approve");
    await until(taskId, "input_required");
    const [first] = inputKeys(await get(taskId));
    await evict();
    await until(taskId, "input_required");
    const again = await get(taskId);
    expect(inputKeys(again)).toEqual([first]);

    await update(taskId, { [first as string]: { action: "accept", content: { ok: true } } });
    await until(taskId, "input_required");
    const [second] = inputKeys(await get(taskId));
    expect(second).not.toBe(first);
    await evict();
    // The first answer is replayed from storage; only the second ask is outstanding.
    await until(taskId, "input_required");
    expect(inputKeys(await get(taskId))).toEqual([second]);

    await update(taskId, { [second as string]: { action: "accept", content: { ok: true } } });
    expect(await until(taskId, "completed", "failed")).toBe("completed");
    const done = await get(taskId);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ text: "approved" }] } });
    const attempts = (await storedRecord(taskId))?.attempt;
    await evict();
    expect(await get(taskId)).toEqual(done);
    expect((await storedRecord(taskId))?.attempt).toBe(attempts);
  });
});

describe("evicted after completion", () => {
  it("the result is served unchanged and the task never runs again", async () => {
    const taskId = await started("wait_resumable", { ms: 0 });
    await until(taskId, "completed");
    const done = await get(taskId);
    for (let i = 0; i < 2; i++) {
      await evict();
      expect(await get(taskId)).toEqual(done);
    }
    expect((await storedRecord(taskId))?.attempt).toBe(1);
  });
});
