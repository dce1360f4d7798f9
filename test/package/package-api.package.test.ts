/**
 * The package's API as a user meets it: a Worker built only from the public exports, driven
 * through its front door by `mcp-edge/testing`'s client. Covers composition with the user's
 * own routes, SDK-style zod shapes, typed form elicitation and URL mode elicitation.
 */
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTestClient, TestRpcError, type Fetcher } from "../../src/testing/index";
import { edge } from "../servers/package/entry";

const worker = (exports as unknown as { default: Fetcher }).default;

describe("composing with the Worker's own routes", () => {
  it("hands a path that is not mcp-edge's to the fallback, untouched by the Host check", async () => {
    const res = await worker.fetch(new Request("https://app.example.com/health"));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Handled-By")).toBe("app");
    expect(await res.text()).toBe("app route /health");
  });

  it("still answers the MCP endpoint itself, Host check included", async () => {
    const refused = await worker.fetch(new Request("https://app.example.com/mcp", { method: "POST", body: "{}" }));
    expect(refused.status).toBe(403);
    const tools = await createTestClient(worker).listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "add",
      "greet",
      "register",
      "register_plain",
      "contact_plain",
      "survey",
      "remember",
      "connect",
    ]);
  });

  it("resolves undefined from handle() for a path that is not mcp-edge's, so a router can go on", async () => {
    const outside = await edge.handle(new Request("http://localhost/api/users"), env, createExecutionContext());
    expect(outside).toBeUndefined();
    const ours = await edge.handle(new Request("http://localhost/mcp", { method: "PUT" }), env, createExecutionContext());
    expect(ours?.status).toBe(405);
  });
});

describe("tool input as an SDK-style shape of zod schemas", () => {
  it("lists the shape as an object schema whose optional keys are not required", async () => {
    const add = (await createTestClient(worker).listTools()).find((t) => t.name === "add");
    expect(add?.inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a"],
    });
  });

  it("validates and passes typed arguments", async () => {
    const client = createTestClient(worker);
    expect((await client.callTool("add", { a: 2, b: 3 })).content).toEqual([{ type: "text", text: "5" }]);
    expect((await client.callTool("add", { a: 2 })).content).toEqual([{ type: "text", text: "2" }]);
  });

  it("refuses bad arguments with a message naming the key", async () => {
    const result = await createTestClient(worker).callTool("add", { a: "two" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("/a: ");
  });
});

describe("ctx.elicit with a zod object", () => {
  it("sends the schema as the spec's flat requestedSchema and returns the typed answer", async () => {
    const asked: Record<string, unknown>[] = [];
    const client = createTestClient(worker, {
      onElicit: (params) => {
        asked.push(params);
        return { action: "accept", content: { name: "ada", age: 36 } };
      },
    });
    expect((await client.callTool("register")).content).toEqual([{ type: "text", text: "ADA is 37 next year" }]);
    expect(asked[0]?.requestedSchema).toMatchObject({
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer" } },
      required: ["name", "age"],
    });
    expect(asked[0]?.requestedSchema).not.toHaveProperty("$schema");
  });

  it("fails the tool, naming the mismatch, when the accepted content does not fit the schema", async () => {
    const client = createTestClient(worker, { onElicit: () => ({ action: "accept", content: { name: "ada", age: "old" } }) });
    const result = await client.callTool("register");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("does not match the requested schema");
  });
});

describe("ctx.elicitUrl (URL mode elicitation, 2025-11-25)", () => {
  it("sends mode url with the URL, the message and the elicitation id, and returns the action", async () => {
    const asked: Record<string, unknown>[] = [];
    const client = createTestClient(worker, {
      onElicit: (params) => {
        asked.push(params);
        return { action: "accept" };
      },
    });
    expect((await client.callTool("connect")).content).toEqual([{ type: "text", text: "user said accept" }]);
    expect(asked).toEqual([
      { mode: "url", message: "Connect your account", url: "https://accounts.example.com/connect?state=1", elicitationId: "connect-1" },
    ]);
  });

  it("refuses, without asking, a client that declared only form mode", async () => {
    const client = createTestClient(worker, { capabilities: { elicitation: {} }, onElicit: () => ({ action: "accept" }) });
    const result = await client.callTool("connect");
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('did not declare the "url" elicitation mode');
  });

  it("refuses a session that negotiated a revision before URL mode existed", async () => {
    const client = createTestClient(worker, {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: { url: {} } },
      onElicit: () => ({ action: "accept" }),
    });
    const result = await client.callTool("connect");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("needs 2025-11-25");
  });
});

describe("mcp-edge/testing", () => {
  it("throws the server's JSON-RPC error as a TestRpcError", async () => {
    const error = await createTestClient(worker)
      .request("tools/call", { name: "missing" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestRpcError);
    expect((error as TestRpcError).code).toBe(-32602);
  });

  it("ends the session with close(): the id is unknown afterwards", async () => {
    const client = createTestClient(worker);
    await client.listTools();
    const id = client.sessionId as string;
    await client.close();
    const res = await worker.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Mcp-Session-Id": id,
          "MCP-Protocol-Version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }),
    );
    expect(res.status).toBe(404);
  });
});

describe("ctx.user on a server without auth", () => {
  it.each(["2025-11-25", "2026-07-28"])("names the fix and does not claim the request carried no token (%s)", async (protocolVersion) => {
    const client = createTestClient(worker, { protocolVersion, headers: { Authorization: "Bearer unread-token" } });
    const result = await client.callTool("remember");
    expect(result.isError).toBe(true);
    const message = (result.content[0] as { text: string }).text;
    expect(message).toMatch(/ctx\.user needs an authenticated user/);
    expect(message).toMatch(/Pass auth\(\{ … \}\) in features; for tests and wrangler dev, testAuth\(\) from mcp-edge\/testing/);
    expect(message).toContain('docs/auth.md "A principal for local tests"');
    expect(message).not.toMatch(/carried no access token/);
  });
});
