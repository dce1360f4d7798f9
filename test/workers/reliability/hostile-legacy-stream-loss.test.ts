import { describe, expect, it } from "vitest";
import { BASE, request } from "./support/direct";

describe("legacy stream loss", () => {
  it("answers 404 to a POST once the stream is gone", async () => {
    const res = await request(`${BASE}/sse`, { method: "GET", headers: { Accept: "text/event-stream" } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (.*)\n/.exec(text)?.[1] ?? "";
    await reader.cancel();
    const post = await request(`${BASE}${endpoint}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    console.log("status", post.status, endpoint);
    expect(post.status).toBe(404);
  });
});
