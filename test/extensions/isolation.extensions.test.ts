/**
 * Two servers in one isolate never see each other's methods, notifications or skills: each server's
 * own are stored on it (no table shared by the isolate), so another server's method is 404 -32601 on
 * 2026-07-28 (unknown before anything runs) and -32601 in a 2025 exchange, and only its own
 * notification handlers hear what its clients send.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createMcpEdge, defineServer } from "../../src/index";
import { defineSkill } from "../../src/features/skills/index";
import { defineMethod, defineNotification } from "../../src/extensions";
import { envelope, MODERN } from "../helpers/era-2026";
import { ACCEPT_BOTH } from "../helpers/mcp";

const heardBy: string[] = [];

function serverWith(name: string, method: string) {
  return defineServer({ name, version: "1.0.0" })
    .add(defineMethod(method, {}, () => ({ servedBy: name })))
    .add(
      defineNotification(`notifications/${method}`, {}, () => {
        heardBy.push(name);
      }),
    );
}

const alpha = serverWith("alpha", "com.example/alpha");
const beta = serverWith("beta", "com.example/beta");
// Skills, whose methods mcp-edge itself adds through the same API: only on alpha.
alpha.skill(defineSkill({ skillMd: "---\nname: only-alpha\ndescription: A skill only alpha serves\n---\nDo it." }));

function workerOf(server: ReturnType<typeof serverWith>) {
  const worker = createMcpEdge(server, { sessions: false }).worker;
  return (body: Record<string, unknown>, headers: Record<string, string>) => {
    const request = new Request("http://127.0.0.1:8787/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Host: "127.0.0.1:8787", ...headers },
      body: JSON.stringify(body),
    });
    return worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env as never, createExecutionContext());
  };
}

const servers = { alpha: workerOf(alpha), beta: workerOf(beta) };

function call2026(on: keyof typeof servers, method: string) {
  const body = { jsonrpc: "2.0", id: 1, method, params: { _meta: envelope() } };
  return servers[on](body, { "MCP-Protocol-Version": MODERN, "Mcp-Method": method });
}

function call2025(on: keyof typeof servers, method: string) {
  return servers[on]({ jsonrpc: "2.0", id: 1, method, params: {} }, { "MCP-Protocol-Version": "2025-11-25" });
}

describe("two servers in one isolate", () => {
  it("each answers its own method on 2026-07-28 and 404 -32601 for the other's", async () => {
    const own = await call2026("alpha", "com.example/alpha");
    expect(((await own.json()) as { result: Record<string, unknown> }).result).toMatchObject({ servedBy: "alpha" });
    const other = await call2026("beta", "com.example/alpha");
    expect({ status: other.status, code: ((await other.json()) as { error: { code: number } }).error.code }).toEqual({
      status: 404,
      code: -32601,
    });
  });

  it("each answers its own method in a 2025 exchange and -32601 for the other's", async () => {
    const own = (await (await call2025("beta", "com.example/beta")).json()) as { result: Record<string, unknown> };
    expect(own.result).toEqual({ servedBy: "beta" });
    const other = (await (await call2025("alpha", "com.example/beta")).json()) as { error: { code: number } };
    expect(other.error.code).toBe(-32601);
  });

  it("serves skills/list only on the server that has skills", async () => {
    expect((await call2026("alpha", "skills/list")).status).toBe(200);
    expect((await call2026("beta", "skills/list")).status).toBe(404);
  });

  it("lets only the server that defined a notification hear it", async () => {
    heardBy.length = 0;
    const notification = { jsonrpc: "2.0", method: "notifications/com.example/alpha", params: {} };
    expect((await servers.beta(notification, { "MCP-Protocol-Version": "2025-11-25" })).status).toBe(202);
    expect((await servers.alpha(notification, { "MCP-Protocol-Version": "2025-11-25" })).status).toBe(202);
    expect(heardBy).toEqual(["alpha"]);
  });
});
