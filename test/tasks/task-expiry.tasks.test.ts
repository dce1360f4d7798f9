/**
 * TTL: a task is served until `createdAt + ttlMs`, then answered as expired and its object's
 * storage (records, asks, alarm) is deleted by the alarm.
 */
import { runDurableObjectAlarm, runInDurableObject, abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { create, get, refusal, taskStub, until } from "./helpers";

/** Moves the task's creation time into the past, as if its TTL had run out, then reloads the object. */
async function age(taskId: string, ms: number): Promise<void> {
  await runInDurableObject(taskStub(taskId), (_i, state) => {
    state.storage.sql.exec("UPDATE task_record SET json = json_set(json, '$.createdAt', ?)", new Date(Date.now() - ms).toISOString());
  });
  await abortAllDurableObjects();
}

describe("a task's TTL", () => {
  it("is the tool's own when it sets one, and the alarm is set for its end once finished", async () => {
    const created = await create("short_lived");
    expect(created.ttlMs).toBe(1000);
    const taskId = created.taskId as string;
    await until(taskId, "completed");
    const alarm = await runInDurableObject(taskStub(taskId), (_i, state) => state.storage.getAlarm());
    expect(alarm).toBe(Date.parse(created.createdAt as string) + 1000);
  });

  it("after it ends, tasks/get says expired even before the alarm ran", async () => {
    const taskId = (await create("short_lived")).taskId as string;
    await until(taskId, "completed");
    await age(taskId, 5000);
    const expired = await refusal(get(taskId));
    expect(expired.code).toBe(-32602);
    expect(expired.message).toBe("Failed to retrieve task: Task has expired");
  });

  it("the alarm at its end deletes all of the task's storage, with nobody polling", async () => {
    const taskId = (await create("short_lived")).taskId as string;
    await until(taskId, "completed");
    await age(taskId, 5000);
    expect(await runDurableObjectAlarm(taskStub(taskId))).toBe(true);
    const left = await runInDurableObject(taskStub(taskId), async (_i, state) => ({
      tables: state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
        .toArray(),
      alarm: await state.storage.getAlarm(),
    }));
    expect(left).toEqual({ tables: [], alarm: null });
    expect((await refusal(get(taskId))).message).toBe("Failed to retrieve task: Task has expired");
    await abortAllDurableObjects();
    // Once evicted, nothing is left to tell an expired task from one that never existed.
    expect((await refusal(get(taskId))).message).toBe("Failed to retrieve task: Task not found");
    // Asking about it wrote nothing.
    const after = await runInDurableObject(taskStub(taskId), (_i, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'").toArray(),
    );
    expect(after).toEqual([]);
  });
});
