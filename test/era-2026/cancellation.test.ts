/**
 * 2026-07-28 cancellation on Streamable HTTP (transports/streamable-http.mdx "Cancellation",
 * basic/patterns/cancellation.mdx): the client closing the request's SSE response is the
 * cancellation; the handler's `signal` aborts and nothing more is sent for that request. And
 * a quiet open response stream carries SSE comment keep-alives ("Receiving Messages").
 */
import { createExecutionContext } from "cloudflare:test";
import { expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";
import type { EdgeEnv } from "../../src/kernel/env";
import { text } from "../../src/mcp/definition/content";
import { ACCEPT_BOTH } from "../helpers/mcp";
import { envelope, headers2026 } from "../helpers/era-2026";
import { readTextUntil, SseReader } from "../helpers/sse";

function waitingServer(aborted: (reason: unknown) => void) {
  return defineServer<EdgeEnv>({ name: "cancel-test", version: "1.0.0" }).interactiveTool(
    "wait_for_cancel",
    {
      description: "Reports progress once, then waits until the request is cancelled.",
    },
    async (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => aborted(ctx.signal.reason));
      await ctx.progress(1);
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      return { content: [text("cancelled")] };
    },
  );
}

function callWaiting(worker: ExportedHandler<EdgeEnv>): Promise<Response> {
  const params = { name: "wait_for_cancel", arguments: {} };
  return Promise.resolve(
    worker.fetch!(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026("tools/call", params) },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { ...params, _meta: { ...envelope(), progressToken: "t" } },
        }),
      }) as never,
      {},
      createExecutionContext(),
    ),
  );
}

it("sends SSE comment keep-alives on a quiet response stream", async () => {
  const worker = createMcpEdge(
    waitingServer(() => undefined),
    { sessions: false, session: { keepAliveMs: 10 } },
  ).worker;
  const seen = await readTextUntil(await callWaiting(worker), ": keepalive");
  expect(seen).toContain("notifications/progress");
  expect(seen).toContain(": keepalive");
});

it("aborts the handler's signal when the client closes the response stream", async () => {
  let aborted!: (reason: unknown) => void;
  const abortSeen = new Promise<unknown>((resolve) => {
    aborted = resolve;
  });
  const res = await callWaiting(createMcpEdge(waitingServer(aborted), { sessions: false }).worker);
  expect(res.headers.get("Content-Type")).toBe("text/event-stream");
  const reader = new SseReader(res);
  expect(JSON.parse((await reader.next())?.data ?? "null")).toMatchObject({
    method: "notifications/progress",
    params: { progressToken: "t", progress: 1 },
  });
  await reader.cancel();
  expect(String(await abortSeen)).toContain("closed the response stream");
});
