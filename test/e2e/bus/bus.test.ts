// mcp-edge/bus end to end: two Workers (two isolates) running MCP SDK v2 servers
// (`createMcpHandler(factory, { bus: hubBus(env) })`), bound to one hub. A client's
// `subscriptions/listen` stream is held by the listener Worker; a tool call on the publisher
// Worker announces a change; the client's stream carries it, stamped by the SDK with its
// subscription id, and only what its filter asked for.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BusWorkers, startBusWorkers } from "../helpers/bus-workers.mjs";

const MODERN = "2026-07-28";
const WATCHED = "notes://today";

let workers: BusWorkers | undefined;

beforeAll(async () => {
  workers = await startBusWorkers();
}, 150_000);

afterAll(async () => {
  await workers?.stop();
}, 30_000);

function post2026(url: string, id: number, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": method,
  };
  if (method === "tools/call") headers["Mcp-Name"] = String(params.name);
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "bus-e2e", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }),
    signal,
  });
}

/** The JSON-RPC messages of an SSE response, one at a time. */
function messages(res: Response): { next(timeoutMs: number): Promise<Record<string, unknown>> } {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const queue: Record<string, unknown>[] = [];
  return {
    async next(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no message on the listen stream within ${timeoutMs} ms`);
        const chunk = await Promise.race([reader.read(), new Promise<"late">((done) => setTimeout(() => done("late"), left))]);
        if (chunk === "late") continue;
        if (chunk.done) throw new Error("the listen stream ended");
        buffered += chunk.value;
        const frames = buffered.split("\n\n");
        buffered = frames.pop() ?? "";
        for (const frame of frames) {
          const data = frame
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (data) queue.push(JSON.parse(data) as Record<string, unknown>);
        }
      }
      return queue.shift()!;
    },
  };
}

/** How many bus streams a publish on the publisher Worker reaches (the hub counts them). */
async function busStreams(): Promise<number> {
  const res = await fetch(`${workers!.publisherOrigin}/count`);
  return ((await res.json()) as { reached: number }).reached;
}

/** Waits until the hub counts `n` bus streams: the listener's stream joins the hub one round trip after the SDK's acknowledgement. */
async function untilBusStreams(n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen = await busStreams();
  while (seen !== n) {
    if (Date.now() > deadline) throw new Error(`the hub counts ${seen} bus stream(s), not ${n}, after 10 s`);
    await new Promise((done) => setTimeout(done, 50));
    seen = await busStreams();
  }
}

it("delivers a change published by a tool in one Worker to a listen stream held by another", async () => {
  const listening = new AbortController();
  const listen = await post2026(
    workers!.listenerUrl,
    7,
    "subscriptions/listen",
    { notifications: { resourceSubscriptions: [WATCHED], toolsListChanged: true } },
    listening.signal,
  );
  expect(listen.status).toBe(200);
  expect(listen.headers.get("Content-Type")).toContain("text/event-stream");
  const stream = messages(listen);
  const ack = await stream.next(5_000);
  expect(ack).toMatchObject({
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: { resourceSubscriptions: [WATCHED], toolsListChanged: true } },
  });
  // The probe publishes of untilBusStreams (probe://count) reach the bus but not the client: its filter names notes://today only.
  await untilBusStreams(1);

  const call = await post2026(workers!.publisherUrl, 1, "tools/call", { name: "touch", arguments: { uri: WATCHED } });
  expect(call.status).toBe(200);
  expect(JSON.stringify(await call.json())).toContain(`touched ${WATCHED}`);

  const note = await stream.next(5_000);
  expect(note).toEqual({
    jsonrpc: "2.0",
    method: "notifications/resources/updated",
    params: { uri: WATCHED, _meta: { "io.modelcontextprotocol/subscriptionId": 7 } },
  });

  // The client leaves: its hub stream goes with it, and publishes reach nobody.
  listening.abort();
  await untilBusStreams(0);
});

it("refuses an event the SDK cannot have sent with a TypeError, before it reaches the hub", async () => {
  const call = await post2026(workers!.publisherUrl, 2, "tools/call", { name: "touch", arguments: { uri: "" } });
  const body = JSON.stringify(await call.json());
  expect(body).toContain("resource_updated needs a uri");
});
