// Bench part: the Durable Object round trips each request kind makes, counted by the bench Worker,
// against what docs/sessions.md "How requests are served" promises.

import { ECHO_CALL, INITIALIZE, INITIALIZED, POST_HEADERS, progressCall, rpc, sessionHeaders } from "./messages.mjs";

/** docs/sessions.md "How requests are served": the calls each request kind makes to the session object. */
export async function countRoundTrips(demo) {
  const counted = async ({ method = "POST", path = "/mcp", headers = {}, body, expect = 200, stream = false }) => {
    const res = await demo.request({ method, path, headers: { ...headers, "x-bench-count-round-trips": "1" }, body });
    // An open standalone stream never ends by itself: take the headers and hang up.
    let text = "";
    if (stream) res.body.destroy();
    else text = await res.body.text();
    if (res.statusCode !== expect) throw new Error(`${method} ${path}: HTTP ${res.statusCode}, expected ${expect}: ${text.slice(0, 200)}`);
    const calls = String(res.headers["x-bench-round-trips"]);
    return { calls: calls === "none" ? [] : calls.split(","), headers: res.headers, text };
  };
  const rows = [];
  const add = async (request, expected, spec) => {
    const answer = await counted(spec);
    rows.push({ request, calls: answer.calls, expected });
    return answer;
  };
  const init = await add("initialize", ["init"], { headers: POST_HEADERS, body: INITIALIZE });
  const h = sessionHeaders(String(init.headers["mcp-session-id"]));
  await add("notifications/initialized", ["confirm"], { headers: h, body: INITIALIZED, expect: 202 });
  await add("ping", ["confirm"], { headers: h, body: rpc(3, "ping") });
  await add("tools/list", ["confirm"], { headers: h, body: rpc(4, "tools/list") });
  await add("tools/call, simple tool (echo)", ["confirm"], { headers: h, body: ECHO_CALL });
  await add("resources/read", ["confirm"], { headers: h, body: rpc(5, "resources/read", { uri: "test://static-text" }) });
  const interactive = await add("tools/call, interactive tool (stream_progress, SSE)", ["fetch"], { headers: h, body: progressCall(2) });
  await add("logging/setLevel", ["fetch"], { headers: h, body: rpc(6, "logging/setLevel", { level: "info" }) });
  await add("GET (standalone stream)", ["fetch"], { method: "GET", headers: { ...h, accept: "text/event-stream" }, stream: true });
  const firstId = /id: (\d+_[1-9]\d*)\n/.exec(interactive.text)?.[1];
  if (!firstId) throw new Error("the interactive call's stream carried no event id");
  await add("GET with Last-Event-ID (replay)", ["fetch"], {
    method: "GET",
    headers: { ...h, accept: "text/event-stream", "last-event-id": firstId },
  });
  await add("DELETE", ["fetch"], { method: "DELETE", headers: h, expect: 204 });
  await add("forged Mcp-Session-Id", [], { headers: sessionHeaders("a".repeat(64)), body: rpc(7, "ping"), expect: 404 });
  await add("stateless tools/call", [], { path: "/stateless/mcp", headers: POST_HEADERS, body: ECHO_CALL });
  return rows.map((r) => ({ ...r, ok: r.calls.join(",") === r.expected.join(",") }));
}
