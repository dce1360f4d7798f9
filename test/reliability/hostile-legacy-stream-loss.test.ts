/**
 * The 2024-11-05 transport has no resumption: everything a POST causes travels on the session's
 * one stream. Once that stream's client is gone, a POST must get 404 at once, not a 202 whose
 * answers are lost (issue 16: 202s for 2-5 s after the client vanished).
 */
import { describe, expect, it } from "vitest";
import { BASE, request } from "./support/direct";

async function openLegacy(): Promise<{ endpoint: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const res = await request(`${BASE}/sse`, { method: "GET", headers: { Accept: "text/event-stream" } });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
  return { endpoint: /data: (.*)\n/.exec(text)?.[1] ?? "", reader };
}

const ping = (endpoint: string) =>
  request(`${BASE}${endpoint}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });

describe("the legacy stream's loss", () => {
  it("is noticed by the next POST, which gets 404 instead of a 202 whose answer would be lost", async () => {
    const { endpoint, reader } = await openLegacy();
    await reader.cancel();
    const res = await ping(endpoint);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: "Session not found: open a new stream with GET /sse" } });
  });

  it("leaves a POST on a stream that is being read answered with 202 and its answer on the stream", async () => {
    const { endpoint, reader } = await openLegacy();
    expect((await ping(endpoint)).status).toBe(202);
    let text = "";
    while (!text.includes('"id":1')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain("event: message");
    await reader.cancel();
  });
});
