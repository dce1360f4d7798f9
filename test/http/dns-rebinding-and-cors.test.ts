/**
 * Host and Origin checks (2025-06-18 Streamable HTTP > Security Warning: servers MUST validate
 * Origin to prevent DNS rebinding) and the CORS headers an allowed browser origin gets.
 */
import { describe, expect, it } from "vitest";
import { TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { initializeParams, MCP, post, request, STATELESS } from "../helpers/mcp";
import { expectResult, expectRpcError } from "../helpers/rpc-expect";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };
const ALLOWED_ORIGIN = "http://localhost:5173";

describe("Host check (DNS rebinding)", () => {
  it("answers 403 with -32000 and id null when the Host is not an allowed host", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Host: "evil.example.com" } });
    await expectRpcError(res, 403, TRANSPORT_ERROR, null);
  });

  it("answers 403 for a bad Host on the session endpoint before looking at the session", async () => {
    const res = await post(PING, { headers: { Host: "evil.example.com:8787" } });
    await expectRpcError(res, 403, TRANSPORT_ERROR, null);
  });

  it("answers 403 for a bad Host on an unknown path too", async () => {
    const res = await request("http://127.0.0.1:8787/elsewhere", { method: "GET", headers: { Host: "evil.example.com" } });
    await expectRpcError(res, 403, TRANSPORT_ERROR, null);
  });

  it("accepts the loopback host names with any port and in any case", async () => {
    for (const host of ["localhost:8787", "LOCALHOST", "127.0.0.1", "[::1]:8787"]) {
      const res = await post(PING, { url: STATELESS, headers: { Host: host } });
      expect({ host, result: await expectResult(res) }).toEqual({ host, result: {} });
    }
  });
});

describe("Origin check", () => {
  it("answers 403 with -32000 and id null for a disallowed Origin", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Origin: "https://evil.example.com" } });
    await expectRpcError(res, 403, TRANSPORT_ERROR, null);
  });

  it("answers 403 for an Origin that is not a URL", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Origin: "null" } });
    await expectRpcError(res, 403, TRANSPORT_ERROR, null);
  });

  it("sends no CORS headers with the 403 for a disallowed Origin", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Origin: "https://evil.example.com" } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(res.headers.get("Access-Control-Expose-Headers")).toBeNull();
  });

  it("refuses a CORS preflight from a disallowed Origin with 403", async () => {
    const res = await request(MCP, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example.com", "Access-Control-Request-Method": "POST" },
    });
    await expectRpcError(res, 403, TRANSPORT_ERROR, null);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("allows a request without Origin (a non-browser client) and sends no CORS headers", async () => {
    const res = await post(PING, { url: STATELESS });
    expect(await expectResult(res)).toEqual({});
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(res.headers.get("Access-Control-Expose-Headers")).toBeNull();
  });
});

describe("CORS for an allowed Origin", () => {
  it("echoes an Origin whose host is an allowed host in Access-Control-Allow-Origin", async () => {
    const res = await post(PING, { url: STATELESS, headers: { Origin: ALLOWED_ORIGIN } });
    expect(await expectResult(res)).toEqual({});
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED_ORIGIN);
    expect(res.headers.get("Vary")).toBe("Origin");
  });

  it("exposes Mcp-Session-Id and MCP-Protocol-Version so a browser can read the session id", async () => {
    const res = await post(
      { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams() },
      { headers: { Origin: ALLOWED_ORIGIN } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Mcp-Session-Id")).toMatch(/^[0-9a-f]{64}$/);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED_ORIGIN);
    const exposed = (res.headers.get("Access-Control-Expose-Headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(["mcp-session-id", "mcp-protocol-version"]));
  });

  it("adds CORS headers to error answers too, so the browser can read them", async () => {
    const res = await post("{not json", { url: STATELESS, headers: { Origin: ALLOWED_ORIGIN } });
    expect(res.status).toBe(400);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED_ORIGIN);
  });

  it("answers a preflight with 204 allowing the MCP methods and headers", async () => {
    const res = await request(MCP, {
      method: "OPTIONS",
      headers: {
        Origin: ALLOWED_ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, mcp-session-id, mcp-protocol-version",
      },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED_ORIGIN);
    const methods = (res.headers.get("Access-Control-Allow-Methods") ?? "").split(",").map((m) => m.trim());
    expect(methods).toEqual(expect.arrayContaining(["GET", "POST", "DELETE"]));
    const allowed = (res.headers.get("Access-Control-Allow-Headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(
      expect.arrayContaining(["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id", "authorization"]),
    );
    expect(res.headers.get("Vary")).toBe("Origin");
  });

  it("answers a preflight on the stateless endpoint allowing only POST", async () => {
    const res = await request(STATELESS, {
      method: "OPTIONS",
      headers: { Origin: ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Methods")).toBe("POST, OPTIONS");
  });

  it("answers a preflight without Origin with no Access-Control-Allow-Origin", async () => {
    const res = await request(MCP, { method: "OPTIONS", headers: {} });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});
