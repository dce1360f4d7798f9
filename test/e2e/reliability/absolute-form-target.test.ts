// DNS rebinding with an absolute-form request target, over a real socket (RFC 9112 §3.2.2): the
// Host check runs on what the connection delivers, whichever form the target takes. Raw TCP,
// because no HTTP client library sends the absolute form to an origin server.
import { describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/raw-http.mjs";
import { useWorker } from "../helpers/server";

const worker = useWorker();

function rawPost(target: string, host: string, body: string): Promise<{ status: number; body: string }> {
  const lines = [
    `POST ${target} HTTP/1.1`,
    `Host: ${host}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
  ];
  return rawRequest(Number(new URL(worker.url).port), lines, body);
}

const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

describe("absolute-form request targets", () => {
  // Under `wrangler dev` the dev proxy forwards only the path (miniflare's ProxyWorker sets the URL to
  // its own origin + path), so `POST http://evil.example/mcp` reaches the Worker as a loopback URL:
  // no Worker code can see that authority there. On the deployed runtime the target's authority is
  // the request URL's, and the Worker refuses it (test/reliability/security-rebinding-and-cors).
  it("serves origin form, and absolute form naming the loopback host", async () => {
    const loopback = new URL(worker.url).host;
    expect((await rawPost("/stateless/mcp", loopback, PING)).status).toBe(200);
    expect((await rawPost(`http://${loopback}/stateless/mcp`, loopback, PING)).status).toBe(200);
  });

  it("refuses a foreign Host beside a loopback absolute-form target: 403 -32000", async () => {
    const loopback = new URL(worker.url).host;
    for (const path of ["/mcp", "/stateless/mcp"]) {
      const res = await rawPost(`http://${loopback}${path}`, "evil.example", PING);
      expect(res.status, `${path}: ${res.body}`).toBe(403);
      expect(res.body).toContain('"code":-32000');
    }
  });
});
