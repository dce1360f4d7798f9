// Operating mcp-edge end to end (docs/operating.md, docs/rate-limits.md): the test/servers/operate server (middleware, ctx.request
// readers, rate limits) under wrangler dev's runtime, driven over real HTTP by the SDK v1 client.
// A header the client sends reaches ctx.request in an interactive tool (run by the session
// object), Authorization does not, and the 4th call over a 3-per-minute limit gets 429 with Retry-After.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorker, type WorkerServer } from "../../../scripts/worker-server.mjs";

let server: WorkerServer | undefined;

beforeAll(async () => {
  server = await startWorker({ configPath: "test/servers/operate/wrangler.toml" });
}, 150_000);

afterAll(async () => {
  await server?.stop();
}, 30_000);

/** A client whose requests carry `headers`, recording every HTTP answer it gets. */
async function connect(headers: Record<string, string>): Promise<{ client: Client; answers: Response[] }> {
  const answers: Response[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    // Refusals are JSON: kept to read; streams are left to the client alone.
    if (res.status >= 400) answers.push(res.clone());
    return res;
  };
  const transport = new StreamableHTTPClientTransport(new URL(server!.mcpUrl), { requestInit: { headers }, fetch: recording });
  const client = new Client({ name: "e2e-operate", version: "1.0.0" });
  await client.connect(transport);
  return { client, answers };
}

function textOf(result: Record<string, unknown>): string {
  return ((result.content as { text?: string }[] | undefined) ?? [])[0]?.text ?? "";
}

it("a header the client sends reaches ctx.request in an interactive tool; Authorization does not", async () => {
  const { client } = await connect({ "X-Tenant": "acme", Authorization: "Bearer e2e-secret" });
  try {
    const result = await client.callTool({ name: "whoami_interactive", arguments: {} });
    const seen = JSON.parse(textOf(result)) as { url: string; method: string; headers: Record<string, string> };
    expect(seen.url).toBe(server!.mcpUrl);
    expect(seen.method).toBe("POST");
    expect(seen.headers["x-tenant"]).toBe("acme");
    expect(seen.headers["mcp-session-id"]).toMatch(/^[0-9a-f]{64}$/);
    expect(seen.headers).not.toHaveProperty("authorization");
    expect(textOf(result)).not.toContain("e2e-secret");
  } finally {
    await client.close();
  }
});

it("the 4th call over a 3-per-minute limit gets 429 with Retry-After, and the client sees the error", async () => {
  const { client, answers } = await connect({});
  try {
    for (let i = 0; i < 3; i++) expect(textOf(await client.callTool({ name: "limited_simple", arguments: {} }))).toBe("simple ran");
    await expect(client.callTool({ name: "limited_simple", arguments: {} })).rejects.toThrow(/429|rate limit/i);
    const refused = answers.at(-1);
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get("Retry-After")).toBe("60");
    const body = (await refused?.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body.error.code).toBe(-32003);
    expect(body.id).not.toBeNull();
  } finally {
    await client.close();
  }
});
