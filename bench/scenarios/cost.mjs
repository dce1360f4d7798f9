// Bench part: what whole lives cost in the platform's billed units, counted (never timed) by the
// metered objects of bench/cost: object requests and rows written for a short 2025 session, a
// session that also holds a GET stream, and a task nobody listens to at two `listen.shards` values.

import { send } from "../harness/load.mjs";
import { ECHO_CALL, INITIALIZE, INITIALIZED, POST_HEADERS, TASK_CALL, TASK_HEADERS, sessionHeaders } from "./messages.mjs";

/** The bench Worker's idle timeout is 1.5 s (bench/cost/wrangler.toml): past it, with room for the alarm. */
const PAST_EXPIRY_MS = 2500;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function billedDuring(pool, work) {
  await send(pool, { path: "/__cost/reset", headers: {}, body: "", expect: 204 });
  await work();
  const billed = JSON.parse((await send(pool, { method: "GET", path: "/__cost", headers: {} })).text);
  const byKind = {};
  for (const request of billed.requests) byKind[request] = (byKind[request] ?? 0) + 1;
  return { objectRequests: billed.requests.length, rowsWritten: billed.rows, requests: byKind };
}

async function initialize(pool, path) {
  const init = await send(pool, { path, headers: POST_HEADERS, body: INITIALIZE });
  const sessionId = init.headers["mcp-session-id"];
  if (typeof sessionId !== "string") throw new Error("initialize answered without Mcp-Session-Id");
  await send(pool, { path, headers: sessionHeaders(sessionId), body: INITIALIZED, expect: 202 });
  return sessionId;
}

/** A short 2025 session: initialize, initialized, one simple call, abandoned until its alarm deletes it. `path`: /mcp, or /deferred/mcp (deferredSessionObject). */
function shortSession(pool, path = "/mcp") {
  return billedDuring(pool, async () => {
    const sessionId = await initialize(pool, path);
    await send(pool, { path, headers: sessionHeaders(sessionId), body: ECHO_CALL });
    await sleep(PAST_EXPIRY_MS);
  });
}

/** The bench's session creation: the same, ended by DELETE; counted until nothing of it is left (its alarms included). */
function sessionDeleted(pool, path = "/mcp") {
  return billedDuring(pool, async () => {
    const sessionId = await initialize(pool, path);
    await send(pool, { path, headers: sessionHeaders(sessionId), body: ECHO_CALL });
    await send(pool, { method: "DELETE", path, headers: sessionHeaders(sessionId), expect: 204 });
    await sleep(PAST_EXPIRY_MS);
  });
}

/** The same, with a standalone GET stream held open half a second, then dropped by the client. */
function sessionWithStream(pool, path = "/mcp") {
  return billedDuring(pool, async () => {
    const sessionId = await initialize(pool, path);
    const stream = await pool.request({
      method: "GET",
      path,
      headers: { ...sessionHeaders(sessionId), accept: "text/event-stream" },
    });
    if (stream.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${stream.statusCode}`);
    await send(pool, { path, headers: sessionHeaders(sessionId), body: ECHO_CALL });
    await sleep(500);
    stream.body.destroy();
    // The object notices the client left at its next keep-alive (every 0.25 s here), then the alarm expires it.
    await sleep(1000 + PAST_EXPIRY_MS);
  });
}

/** A 2026-07-28 task created and run to completion with nobody listening. */
function taskNobodyListens(pool) {
  return billedDuring(pool, async () => {
    const result = JSON.parse((await send(pool, { path: "/mcp", headers: TASK_HEADERS, body: TASK_CALL })).text).result;
    if (result?.resultType !== "task") throw new Error(`tasks: expected a CreateTaskResult, got ${JSON.stringify(result).slice(0, 200)}`);
    // The run and its status publish finish in the task object after the answer.
    await sleep(500);
  });
}

/** `pool`: the Worker with listen.shards = 1; `pool16`: the same with 16. Each task is run twice: the first publish meets a hub just started. */
export async function costScenario(pool, pool16) {
  return {
    shortSession: await shortSession(pool),
    sessionWithStream: await sessionWithStream(pool),
    sessionDeleted: await sessionDeleted(pool),
    deferred: {
      shortSession: await shortSession(pool, "/deferred/mcp"),
      sessionWithStream: await sessionWithStream(pool, "/deferred/mcp"),
      sessionDeleted: await sessionDeleted(pool, "/deferred/mcp"),
    },
    taskShards1: [await taskNobodyListens(pool), await taskNobodyListens(pool)],
    taskShards16: [await taskNobodyListens(pool16), await taskNobodyListens(pool16)],
  };
}
