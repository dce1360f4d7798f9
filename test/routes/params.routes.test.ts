/**
 * `ctx.request.params`: the values `/mcp/:tenant` took from the URL, the same wherever a call
 * runs (the Worker in both eras, the session object, a task's run) and for middleware; the
 * stateless path's too. A path the pattern does not match is not the endpoint.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { BASE } from "../helpers/mcp";
import { seenByMiddleware } from "../servers/routes/entry";
import {
  answerOf,
  createTask,
  echoed,
  getTask,
  inSession,
  openSession,
  send,
  send2026,
  taskDone,
  TASK_CAPS,
  toolCall,
  urlOf,
} from "./helpers";

beforeEach(() => {
  seenByMiddleware.length = 0;
});

describe("ctx.request.params at /mcp/:tenant", () => {
  it("in the Worker, 2025 session: { tenant }, read-only", async () => {
    const s = await openSession(urlOf("acme"));
    const answer = await answerOf(await inSession(s, toolCall(1, "whoami")), 1);
    expect(echoed(answer.result)).toEqual({ params: { tenant: "acme" }, url: urlOf("acme"), frozen: true });
  });

  it("in the session object (an interactive tool on a 2025 session)", async () => {
    const s = await openSession(urlOf("acme"));
    const answer = await answerOf(await inSession(s, toolCall(2, "whoami_interactive")), 2);
    expect(echoed(answer.result).params).toEqual({ tenant: "acme" });
  });

  it("in the Worker, 2026-07-28", async () => {
    const answer = await answerOf(await send2026(urlOf("globex"), 3, "tools/call", { name: "whoami", arguments: {} }), 3);
    expect(echoed(answer.result).params).toEqual({ tenant: "globex" });
  });

  it("in a task's run, from the request that created it", async () => {
    const taskId = await createTask(urlOf("initech"), "whoami");
    await taskDone(taskId);
    const task = (await getTask(urlOf("initech"), taskId)).result as { status: string; result: Record<string, unknown> };
    expect(task.status).toBe("completed");
    expect(echoed(task.result)).toMatchObject({ params: { tenant: "initech" }, frozen: true });
    expect(seenByMiddleware).toContainEqual({ tenant: "initech" });
  });

  it("on the stateless path /stateless/:tenant", async () => {
    const res = await send(urlOf("umbrella", true), {
      body: toolCall(4, "whoami"),
      headers: { "MCP-Protocol-Version": "2025-11-25" },
    });
    expect(echoed((await answerOf(res, 4)).result).params).toEqual({ tenant: "umbrella" });
  });

  it("is what middleware sees, in each place", async () => {
    const s = await openSession(urlOf("acme"));
    await answerOf(await inSession(s, toolCall(5, "whoami_interactive")), 5);
    await answerOf(await send2026(urlOf("globex"), 6, "tools/call", { name: "whoami", arguments: {} }, TASK_CAPS), 6);
    expect(seenByMiddleware).toContainEqual({ tenant: "acme" });
    expect(seenByMiddleware).toContainEqual({ tenant: "globex" });
  });

  it("is percent-decoded, and a trailing slash is the same route", async () => {
    const answer = await answerOf(await send2026(`${BASE}/mcp/acme%20co/`, 7, "tools/call", { name: "whoami", arguments: {} }), 7);
    expect(echoed(answer.result).params).toEqual({ tenant: "acme co" });
  });
});

describe("paths the pattern does not match", () => {
  it.each(["/mcp", "/mcp/", "/mcp/acme/extra", "/mcp/%zz"])("%s is 404, not the endpoint", async (path) => {
    const res = await send2026(`${BASE}${path}`, 9, "tools/list", {});
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("/mcp/:tenant");
  });
});
