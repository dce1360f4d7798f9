// The hub check: a 2026-07-28 subscriptions/listen must open and send its acknowledgement first.
import { cause, describeError, envelope, fixOf, isObject, MODERN, sseData, TASKS } from "./client.mjs";

/** The most of a listen stream the doctor reads while waiting for its first message. */
const MAX_STREAM_BYTES = 256 * 1024;

function declaresTasks(doctor) {
  const extensions = doctor.discovered?.capabilities?.extensions;
  return isObject(extensions) && TASKS in extensions;
}

/**
 * What the doctor listens for: tool list changes, and with the Tasks extension a made-up task id
 * too, because task status comes only through the hub (a Worker without it answers such a listen
 * with its misconfiguration error, while a listen for list changes alone is acknowledged with the
 * empty set when the server declares none).
 */
function listenFilter(doctor) {
  const filter = { toolsListChanged: true };
  if (declaresTasks(doctor)) filter.taskIds = ["mcp-edge-doctor-probe"];
  return filter;
}

/** Whether the server declares something a listen stream would carry (list changes, resource updates, tasks). */
function listenMatters(doctor) {
  const caps = doctor.discovered?.capabilities ?? {};
  const changes = ["tools", "prompts", "resources"].some((kind) => caps[kind]?.listChanged === true);
  return changes || caps.resources?.subscribe === true || declaresTasks(doctor);
}

function listenAcknowledged(doctor, honoured) {
  const empty = !isObject(honoured) || Object.keys(honoured).length === 0;
  if (empty && !listenMatters(doctor))
    return "subscriptions/listen is acknowledged with the empty set: the server declares nothing a listen carries, so it needs no hub yet (bind MCP_HUB when it declares list changes, subscriptions or tasks)";
  return "subscriptions/listen opens and is acknowledged (the hub answers)";
}

function listenFailure(doctor, res, reply) {
  const what = `subscriptions/listen failed: ${describeError(res, reply)}`;
  return listenMatters(doctor) ? what : `${what} (the server declares nothing to listen for yet, but clients that listen get this error)`;
}

/** The first SSE message of a stream (comments and keep-alives skipped), at most MAX_STREAM_BYTES read. */
async function firstEvent(res) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  try {
    while (buffered.length < MAX_STREAM_BYTES) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      const { data, rest } = sseData(buffered + value);
      if (data.length > 0) {
        try {
          return JSON.parse(data[0]);
        } catch {
          return { unparsed: data[0].slice(0, 200) };
        }
      }
      buffered = rest;
    }
    return { unparsed: `no message in the first ${MAX_STREAM_BYTES} bytes` };
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The hub: a 2026-07-28 subscriptions/listen opens and is acknowledged. */
export async function checkListen(doctor) {
  if (!doctor.discovered) return;
  const signal = doctor.signal();
  try {
    const id = doctor.nextId++;
    const capabilities = declaresTasks(doctor) ? { extensions: { [TASKS]: {} } } : {};
    const params = { notifications: listenFilter(doctor), _meta: envelope(capabilities) };
    const body = { jsonrpc: "2.0", id, method: "subscriptions/listen", params };
    const headers = doctor.headers({ "MCP-Protocol-Version": MODERN, "Mcp-Method": "subscriptions/listen" });
    const res = await doctor.fetch(doctor.url, { method: "POST", headers, body: JSON.stringify(body), signal });
    if (!(res.headers.get("Content-Type") ?? "").includes("text/event-stream")) {
      const reply = await doctor.readReply(res, id);
      if (reply?.error?.code === -32601)
        doctor.add("listen", "skip", "subscriptions/listen is not served (-32601): no notifications to check");
      else doctor.add("listen", listenMatters(doctor) ? "fail" : "warn", listenFailure(doctor, res, reply), fixOf(reply));
      return;
    }
    const first = await firstEvent(res);
    if (first?.method === "notifications/subscriptions/acknowledged")
      doctor.add("listen", "ok", listenAcknowledged(doctor, first.params?.notifications));
    else
      doctor.add(
        "listen",
        "fail",
        `subscriptions/listen opened, but its first message is not the acknowledgement: ${JSON.stringify(first)?.slice(0, 200)}`,
      );
  } catch (error) {
    if (doctor.expired()) throw error;
    doctor.add("listen", "fail", `subscriptions/listen: ${signal.aborted ? "no acknowledgement in time" : cause(error)}`);
  }
}
