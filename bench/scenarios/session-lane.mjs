// Bench scenarios of the 2025 session lane: a simple call in a session (Worker + confirm), an
// interactive call (the session object, SSE), a whole session's life, and notifications on one stream.

import { send } from "../harness/load.mjs";
import {
  closeSession,
  ECHO_CALL,
  expectEcho,
  expectProgressStream,
  INITIALIZE,
  INITIALIZED,
  openSession,
  POST_HEADERS,
  progressCall,
  sessionHeaders,
} from "./messages.mjs";

/** The scenarios, in the order the report lists them; `pids` bills each side's CPU to its own workerd processes. */
export function sessionLaneScenarios(opts, { demo, floor, agents, pids }) {
  const sessionsOf = async () => Promise.all(Array.from({ length: opts.connections }, () => openSession(demo)));
  const floorEcho = async () => expectEcho((await send(floor, { path: "/mcp", headers: POST_HEADERS, body: ECHO_CALL })).text);
  return [
    {
      key: "simple",
      name: "session tools/call, simple (Worker lane + confirm)",
      unit: "req/s",
      setup: sessionsOf,
      floor: floorEcho,
      ours: async (client, sessions) =>
        expectEcho((await send(demo, { path: "/mcp", headers: sessionHeaders(sessions[client]), body: ECHO_CALL })).text),
    },
    {
      key: "interactive",
      name: "session tools/call, interactive (DO lane, SSE)",
      unit: "req/s",
      setup: sessionsOf,
      floor: floorEcho,
      ours: async (client, sessions) => {
        const res = await send(demo, { path: "/mcp", headers: sessionHeaders(sessions[client]), body: progressCall(1) });
        expectProgressStream(res.text, 1);
      },
      // Not budgets: what the platform alone costs for an SSE answer, from the Worker and from a
      // Durable Object (under wrangler dev, every SSE response also costs a message to wrangler's
      // Node process).
      references: [
        {
          name: "floor Worker answering with SSE (1 notification + result)",
          operation: async () =>
            expectProgressStream((await send(floor, { path: "/sse?count=1", headers: POST_HEADERS, body: progressCall(1) })).text, 1),
        },
        {
          name: "floor Worker → Durable Object answering with SSE, no storage",
          operation: async (client) =>
            expectProgressStream(
              (await send(floor, { path: `/do-sse?count=1&object=${client}`, headers: POST_HEADERS, body: progressCall(1) })).text,
              1,
            ),
        },
      ],
    },
    {
      key: "sessions",
      name: "session creation (initialize + initialized + call + DELETE)",
      unit: "sessions/s",
      operations: Math.max(1, Math.ceil(opts.requests / 4)),
      floor: async () => {
        await send(floor, { path: "/mcp", headers: POST_HEADERS, body: INITIALIZE });
        await send(floor, { path: "/mcp", headers: POST_HEADERS, body: INITIALIZED });
        await floorEcho();
        await send(floor, { method: "DELETE", path: "/mcp", headers: POST_HEADERS, expect: 204 });
      },
      ours: async () => {
        const sessionId = await openSession(demo);
        expectEcho((await send(demo, { path: "/mcp", headers: sessionHeaders(sessionId), body: ECHO_CALL })).text);
        await closeSession(demo, sessionId);
      },
      // Not a budget: the same four requests where the first creates a Durable Object and stores
      // one row, and DELETE deletes its storage; the platform's cost of a session's life.
      references: [
        {
          name: "mcp-edge with deferredSessionObject (no object until the session needs state)",
          key: "deferred",
          pids: pids?.demo,
          operation: async () => {
            const sessionId = await openSession(demo, "/deferred/mcp");
            expectEcho((await send(demo, { path: "/deferred/mcp", headers: sessionHeaders(sessionId), body: ECHO_CALL })).text);
            await closeSession(demo, sessionId, "/deferred/mcp");
          },
        },
        {
          name: "floor with a new Durable Object per session (1 row stored, deleted at DELETE)",
          operation: async () => {
            const init = await send(floor, { path: "/do-init", headers: POST_HEADERS, body: INITIALIZE });
            const sessionId = String(init.headers["mcp-session-id"]);
            await send(floor, { path: "/mcp", headers: POST_HEADERS, body: INITIALIZED });
            await floorEcho();
            await send(floor, { method: "DELETE", path: "/mcp", headers: { ...POST_HEADERS, "mcp-session-id": sessionId }, expect: 204 });
          },
        },
        // The `agents` package's McpAgent, one Durable Object per session (when the agents Worker runs: --only with modern).
        ...(agents
          ? [
              {
                name: "agents McpAgent (a Durable Object per session, SDK v1): the same four requests",
                key: "agents",
                pids: pids?.agents,
                operation: async () => {
                  const init = await send(agents, { path: "/agent/mcp", headers: POST_HEADERS, body: INITIALIZE });
                  const sessionId = init.headers["mcp-session-id"];
                  if (typeof sessionId !== "string") throw new Error("McpAgent: initialize answered without Mcp-Session-Id");
                  await send(agents, { path: "/agent/mcp", headers: sessionHeaders(sessionId), body: INITIALIZED, expect: 202 });
                  const echo = await send(agents, { path: "/agent/mcp", headers: sessionHeaders(sessionId), body: ECHO_CALL });
                  if (!echo.text.includes('"text"')) throw new Error(`McpAgent: echo answered ${echo.text.slice(0, 200)}`);
                  await send(agents, { method: "DELETE", path: "/agent/mcp", headers: sessionHeaders(sessionId), expect: 204 });
                },
              },
            ]
          : []),
      ],
    },
    {
      key: "notifications",
      name: `notifications on one SSE stream (${opts.notifications.toLocaleString("en-US")} per stream)`,
      unit: "notifications/s",
      connections: 1,
      operations: opts.streams,
      countOnly: true,
      warmupOperations: 1,
      perOperation: opts.notifications,
      setup: async () => [await openSession(demo)],
      floor: async () =>
        expectProgressStream(
          (await send(floor, { path: `/sse?count=${opts.notifications}`, headers: POST_HEADERS, body: progressCall(opts.notifications) }))
            .text,
          opts.notifications,
        ),
      ours: async (_client, sessions) => {
        const res = await send(demo, { path: "/mcp", headers: sessionHeaders(sessions[0]), body: progressCall(opts.notifications) });
        expectProgressStream(res.text, opts.notifications);
      },
    },
  ];
}
