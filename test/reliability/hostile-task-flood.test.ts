/**
 * One client flooding the Tasks extension (issue: 150 anonymous tasks in a second, each kept for
 * the 1 h TTL). docs/configuration.md "Limits": a client (CF-Connecting-IP without auth) has at most
 * `tasks.maxInFlightPerClient` (32) tasks in flight; one more is HTTP 429 with Retry-After and a
 * -31003 error carrying the request id, and no task; a task that reaches a terminal state frees
 * its slot; other clients are not affected. Property: for any interleaving of creations and
 * cancellations by a few clients, a creation succeeds exactly when its client has fewer than 32
 * tasks in flight.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import type { EdgeEnv } from "../../src/kernel/env";
import { DEFAULT_MAX_TASKS_IN_FLIGHT } from "../../src/features/tasks/options";
import { envelope, MODERN, headers2026 } from "../helpers/era-2026";
import { post } from "./support/direct";
import { fuzzParameters, reportFigures } from "./support/settings";

const TASKS = "io.modelcontextprotocol/tasks";
const CAPS = { extensions: { [TASKS]: {} } };
const LIMIT = DEFAULT_MAX_TASKS_IN_FLIGHT;

let ipCounter = 0;
/** A client address no other case uses (the ledger of an address outlives a case). */
function freshIp(): string {
  ipCounter++;
  return `198.51.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

function modern(ip: string, id: number, method: string, params: Record<string, unknown>): Promise<Response> {
  const full = { ...params, _meta: envelope(CAPS) };
  const headers: Record<string, string> = { ...headers2026(method, full), "MCP-Protocol-Version": MODERN, "CF-Connecting-IP": ip };
  if (typeof params.taskId === "string") headers["Mcp-Name"] = params.taskId;
  return post({ jsonrpc: "2.0", id, method, params: full }, undefined, headers);
}

interface Reply {
  id?: unknown;
  result?: { taskId?: string; status?: string };
  error?: { code: number; message: string; data?: { limit?: number; retryAfterSeconds?: number } };
}

/** Creates a long task (it works until cancelled); the reply with its status and Retry-After. */
async function create(ip: string, id: number): Promise<{ status: number; retryAfter: string | null; reply: Reply }> {
  const res = await modern(ip, id, "tools/call", { name: "slow_compute", arguments: { seconds: 300 } });
  return { status: res.status, retryAfter: res.headers.get("Retry-After"), reply: (await res.json()) as Reply };
}

/** Cancels a task and waits until its object stored the terminal state. */
async function cancelAndSettle(ip: string, taskId: string): Promise<void> {
  const res = await modern(ip, 1, "tasks/cancel", { taskId });
  expect(res.status).toBe(200);
  const ns = (env as unknown as EdgeEnv).MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  await runInDurableObject(ns.get(ns.idFromString(taskId)), (o) => (o as unknown as McpTaskObject).awaitStatus(["cancelled"]));
}

/** Retries a creation the way a client honouring Retry-After would, but fast: the slot is freed after the terminal state. */
async function createOnceFreed(ip: string): Promise<Reply> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { status, reply } = await create(ip, 1000 + attempt);
    if (status === 200) return reply;
    await scheduler.wait(20);
  }
  throw new Error("the slot was never freed");
}

const figures = { cases: 0, creations: 0, refused429: 0, cancellations: 0 };
const live: [string, string][] = [];

afterAll(async () => {
  for (const [ip, taskId] of live) await modern(ip, 1, "tasks/cancel", { taskId });
  reportFigures("hostile-task-flood", figures);
});

describe("tasks in flight per client", () => {
  it(`serves ${LIMIT} tasks of one client, refuses the next with 429, Retry-After and -31003 with its id, and serves another client`, async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMIT; i++) {
      const { status, reply } = await create(ip, i);
      expect(status, JSON.stringify(reply)).toBe(200);
      live.push([ip, reply.result?.taskId as string]);
    }
    const refused = await create(ip, 777);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(refused.reply).toMatchObject({ id: 777, error: { code: -31003, data: { limit: LIMIT } } });
    expect(refused.reply.error?.message).toContain(`limit ${LIMIT}`);

    const other = await create(freshIp(), 1);
    expect(other.status).toBe(200);
    live.push(["", other.reply.result?.taskId as string]);

    // A task that reaches a terminal state frees its slot.
    const [, first] = live[0] as [string, string];
    await cancelAndSettle(ip, first);
    const again = await createOnceFreed(ip);
    expect(again.result?.status).toBe("working");
    live.push([ip, again.result?.taskId as string]);
  });

  it("for any interleaving of creations and cancellations by three clients, a creation succeeds exactly when its client has fewer in flight", async () => {
    // Client 0 is the flooder (most operations), so cases reach its cap; 1 and 2 stay below theirs.
    const client = fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 2);
    const op = fc.oneof(
      { weight: 8, arbitrary: fc.record({ kind: fc.constant("create" as const), client }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), client, pick: fc.nat() }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: LIMIT + 8, maxLength: LIMIT + 40 }), async (ops) => {
        figures.cases++;
        const ips = [freshIp(), freshIp(), freshIp()];
        const inFlight: string[][] = [[], [], []];
        try {
          for (const [n, o] of ops.entries()) {
            const mine = inFlight[o.client] as string[];
            const ip = ips[o.client] as string;
            if (o.kind === "cancel") {
              if (mine.length === 0) continue;
              const [taskId] = mine.splice(o.pick % mine.length, 1) as [string];
              await cancelAndSettle(ip, taskId);
              figures.cancellations++;
              continue;
            }
            const { status, reply } = await create(ip, n);
            if (status === 429) {
              figures.refused429++;
              // Refused only at the cap, or while a cancelled task's slot is still being freed.
              const settled = mine.length >= LIMIT ? reply : await createOnceFreedIfBelow(ip, mine);
              if (mine.length >= LIMIT) expect(settled.error?.code).toBe(-31003);
              continue;
            }
            expect({ status, id: reply.id }, JSON.stringify(reply)).toEqual({ status: 200, id: n });
            expect(mine.length, "served beyond the cap").toBeLessThan(LIMIT);
            mine.push(reply.result?.taskId as string);
            figures.creations++;
          }
        } finally {
          for (const [c, ids] of inFlight.entries())
            for (const taskId of ids) await modern(ips[c] as string, 1, "tasks/cancel", { taskId });
        }
      }),
      fuzzParameters(4, 71),
    );
    expect(figures.refused429, "some cases reach the cap").toBeGreaterThan(0);
  }, 120_000);
});

/** Below the cap a 429 may only be a slot not freed yet: retrying soon succeeds (and the new task is counted). */
async function createOnceFreedIfBelow(ip: string, mine: string[]): Promise<Reply> {
  const reply = await createOnceFreed(ip);
  mine.push(reply.result?.taskId as string);
  return reply;
}
