/**
 * A session, a task and a listen stream belong to the route they were opened on: used under
 * another tenant's path, a session id is 404 (as another principal's is), a task id is the
 * not-found error, and a publish scoped to one tenant reaches only that tenant's listen streams
 * and 2025 sessions.
 */
import { describe, expect, it } from "vitest";
import { publishAndCount } from "../../src/features/hub/publish";
import { notifyListChanged } from "../../src/features/hub/notify";
import { SseReader } from "../helpers/sse";
import {
  answerOf,
  createTask,
  edgeEnv,
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
  type Session,
} from "./helpers";

function sessionHeaders(s: Session): Record<string, string> {
  return { "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version };
}

async function expectSessionNotFound(res: Response): Promise<void> {
  expect(res.status).toBe(404);
  const body = (await res.json()) as { error: { code: number; message: string } };
  expect(body.error.message).toMatch(/session/i);
}

describe("a session under another tenant's path", () => {
  it("is 404 for a request the Worker answers, one the session object answers, GET and DELETE; its own tenant still uses it", async () => {
    const s = await openSession(urlOf("acme"));
    const other = urlOf("globex");
    await expectSessionNotFound(await inSession(s, toolCall(1, "whoami"), other));
    await expectSessionNotFound(await inSession(s, toolCall(2, "whoami_interactive"), other));
    await expectSessionNotFound(await send(other, { method: "GET", headers: { ...sessionHeaders(s), Accept: "text/event-stream" } }));
    await expectSessionNotFound(await send(other, { method: "DELETE", headers: sessionHeaders(s) }));
    // A value that only differs once decoded is another route too.
    await expectSessionNotFound(await inSession(s, toolCall(3, "whoami"), urlOf("acme ")));

    const answer = await answerOf(await inSession(s, toolCall(4, "whoami_interactive")), 4);
    expect(echoed(answer.result).params).toEqual({ tenant: "acme" });
  });
});

describe("the route the session object is told", () => {
  it("is the Worker's, never one a client forged in mcp-edge's internal header", async () => {
    const s = await openSession(urlOf("acme"));
    const forged = encodeURIComponent(JSON.stringify({ tenant: "globex" }));
    const res = await send(s.url, {
      body: toolCall(6, "whoami_interactive"),
      headers: { ...sessionHeaders(s), "X-Mcp-Edge-Route": forged },
    });
    expect(echoed((await answerOf(res, 6)).result).params).toEqual({ tenant: "acme" });
  });
});

describe("a task under another tenant's path", () => {
  it("answers tasks/get and tasks/cancel with the not-found error; its own tenant gets it", async () => {
    const taskId = await createTask(urlOf("acme"), "whoami");
    await taskDone(taskId);
    const elsewhere = await getTask(urlOf("globex"), taskId);
    expect(elsewhere.error).toMatchObject({ code: -32602, message: "Failed to retrieve task: Task not found" });
    const cancel = await getTask(urlOf("globex"), taskId, "tasks/cancel");
    expect(cancel.error).toMatchObject({ code: -32602, message: "Failed to retrieve task: Task not found" });
    expect((await getTask(urlOf("acme"), taskId)).result).toMatchObject({ taskId, status: "completed" });
  });

  it("is not followed by a listen stream opened on another tenant's path", async () => {
    const taskId = await createTask(urlOf("acme"), "whoami");
    const res = await send2026(urlOf("globex"), "listen-task", "subscriptions/listen", { notifications: { taskIds: [taskId] } }, TASK_CAPS);
    const stream = new SseReader(res);
    const ack = await stream.next();
    expect(ack?.json?.method).toBe("notifications/subscriptions/acknowledged");
    expect((ack?.json?.params as { notifications: { taskIds?: string[] } }).notifications.taskIds).toEqual([]);
    await stream.cancel();
  });
});

async function listenAt(tenant: string, id: string): Promise<SseReader> {
  const res = await send2026(urlOf(tenant), id, "subscriptions/listen", { notifications: { toolsListChanged: true } });
  expect(res.status).toBe(200);
  const stream = new SseReader(res);
  expect((await stream.next())?.json?.method).toBe("notifications/subscriptions/acknowledged");
  return stream;
}

describe("publish scoped to a route", () => {
  it("reaches that tenant's listen streams only; unscoped reaches every tenant", async () => {
    const acme = await listenAt("acme", "listen-acme");
    const globex = await listenAt("globex", "listen-globex");

    const toGlobex = await publishAndCount(edgeEnv, { type: "listChanged", list: "tools" }, { route: { tenant: "globex" } });
    expect(toGlobex.listenStreams).toBe(1);
    const toEveryone = await publishAndCount(edgeEnv, { type: "listChanged", list: "tools" });
    expect(toEveryone.listenStreams).toBe(2);

    // acme's first event is the unscoped one: the globex publish never reached it.
    const first = await acme.next();
    expect(first?.json).toMatchObject({ method: "notifications/tools/list_changed" });
    expect((await globex.next())?.json?.method).toBe("notifications/tools/list_changed");
    expect((await globex.next())?.json?.method).toBe("notifications/tools/list_changed");
    const toAcme = await publishAndCount(edgeEnv, { type: "listChanged", list: "tools" }, { route: { tenant: "acme" } });
    expect(toAcme.listenStreams).toBe(1);
    expect((await acme.next())?.json?.method).toBe("notifications/tools/list_changed");
    await acme.cancel();
    await globex.cancel();
  });

  it("reaches that tenant's 2025 sessions only (their GET streams)", async () => {
    const acme = await openSession(urlOf("acme-2025"));
    const globex = await openSession(urlOf("globex-2025"));
    const acmeGet = new SseReader(
      await send(acme.url, { method: "GET", headers: { ...sessionHeaders(acme), Accept: "text/event-stream" } }),
    );
    const globexGet = new SseReader(
      await send(globex.url, { method: "GET", headers: { ...sessionHeaders(globex), Accept: "text/event-stream" } }),
    );
    // Each GET stream opens with its priming event.
    await acmeGet.next();
    await globexGet.next();

    expect(await notifyListChanged(edgeEnv, "tools", { route: { tenant: "globex-2025" } })).toBe(1);
    expect(await notifyListChanged(edgeEnv, "tools", { route: { tenant: "acme-2025" } })).toBe(1);
    expect((await globexGet.next())?.json?.method).toBe("notifications/tools/list_changed");
    expect((await acmeGet.next())?.json?.method).toBe("notifications/tools/list_changed");
    await acmeGet.cancel();
    await globexGet.cancel();
  });

  it("refuses a route that is not an object of parameters", async () => {
    await expect(
      publishAndCount(edgeEnv, { type: "listChanged", list: "tools" }, { route: "acme" as unknown as Record<string, string> }),
    ).rejects.toThrow(/route must be the route's parameters/);
  });
});
