/**
 * mcp-edge/testing on 2026-07-28: the same client and callbacks as on 2025, without a session;
 * `input_required` answers (basic/patterns/mrtr.mdx) are answered and retried, and `rounds`
 * shows how many requests a call took, so a test can pin down a handler's re-runs.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTestClient, TestRpcError, type Fetcher } from "../../src/testing/index";
import { surveyRuns } from "../servers/package/entry";

const worker = (exports as unknown as { default: Fetcher }).default;
const MODERN = "2026-07-28";

describe("mcp-edge/testing with protocolVersion 2026-07-28", () => {
  it("lists and calls tools without a session, each request carrying its envelope", async () => {
    const seen: Request[] = [];
    const client = createTestClient(
      { fetch: (request) => (seen.push(request.clone()), worker.fetch(request)) },
      { protocolVersion: MODERN },
    );
    expect((await client.listTools()).map((t) => t.name)).toContain("add");
    const result = await client.callTool("add", { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);
    expect(result.resultType).toBe("complete");
    expect({ session: client.sessionId, rounds: client.rounds, requests: seen.length }).toEqual({
      session: undefined,
      rounds: 1,
      requests: 2,
    });
    const call = seen[1] as Request;
    expect([call.headers.get("MCP-Protocol-Version"), call.headers.get("Mcp-Method"), call.headers.get("Mcp-Name")]).toEqual([
      MODERN,
      "tools/call",
      "add",
    ]);
    const body = (await call.json()) as { params: { _meta: Record<string, unknown> } };
    expect(body.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe(MODERN);
  });

  it("answers an elicitation round with onElicit and retries: two rounds, the same params a 2025 client sees", async () => {
    const asked: Record<string, unknown>[] = [];
    const client = createTestClient(worker, {
      protocolVersion: MODERN,
      onElicit: (params) => {
        asked.push(params);
        return { action: "accept", content: { name: "ada", age: 36 } };
      },
    });
    expect((await client.callTool("register")).content).toEqual([{ type: "text", text: "ADA is 37 next year" }]);
    expect(client.rounds).toBe(2);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: "Who are you?", requestedSchema: { required: ["name", "age"] } });
  });

  it("counts one round per ask, matching the handler's runs (work before the last ask runs again)", async () => {
    const before = surveyRuns.count;
    const answers = [{ name: "ada" }, { color: "green" }];
    const client = createTestClient(worker, {
      protocolVersion: MODERN,
      onElicit: () => ({ action: "accept", content: answers.shift() as Record<string, unknown> }),
    });
    expect((await client.callTool("survey")).content).toEqual([{ type: "text", text: "ada likes green" }]);
    expect(client.rounds).toBe(3);
    expect(surveyRuns.count - before).toBe(3);
    // The next call starts counting again.
    await client.callTool("add", { a: 1 });
    expect(client.rounds).toBe(1);
  });

  it("passes a decline through to the handler", async () => {
    const client = createTestClient(worker, { protocolVersion: MODERN, onElicit: () => ({ action: "decline" }) });
    const result = await client.callTool("register");
    expect(result.content).toEqual([{ type: "text", text: "no answer: decline" }]);
    expect(result.isError).toBe(true);
  });

  it("throws, naming the method, when the server asks for input the test gave no callback for", async () => {
    const client = createTestClient(worker, { protocolVersion: MODERN, capabilities: { elicitation: { form: {} } } });
    const error = await client.callTool("register").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestRpcError);
    expect((error as TestRpcError).message).toContain("elicitation/create");
  });

  it("throws the server's 2026 JSON-RPC error as a TestRpcError", async () => {
    const client = createTestClient(worker, { protocolVersion: MODERN });
    const error = await client.request("tools/call", { name: "missing" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestRpcError);
    expect((error as TestRpcError).code).toBe(-32602);
  });

  it("answers tasks/get with -32601 on a server without task tools (its Worker never calls taskObject)", async () => {
    const client = createTestClient(worker, { protocolVersion: MODERN });
    const error = await client.request("tasks/get", { taskId: "ab".repeat(32) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestRpcError);
    expect([(error as TestRpcError).code, (error as TestRpcError).message]).toEqual([-32601, "Method not found: tasks/get"]);
  });
});
