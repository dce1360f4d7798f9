// The official SDK client over HTTPS. wrangler dev serves the demo with `--local-protocol https`
// and a certificate made at test time (openssl, self-signed, for 127.0.0.1); the client trusts
// exactly that certificate through its own fetch (an undici Agent with `connect.ca`). Nothing is
// switched off globally: a fetch without the certificate must fail.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { firstText } from "../helpers/results";
import { startWorker, type WorkerServer } from "../../../scripts/worker-server.mjs";
import { useCompatRecord } from "./helpers/record";
import { packageVersion } from "./helpers/compat.mjs";
import { createCertificate, fetchTrusting, type TestCertificate } from "./helpers/tls.mjs";

const compat = useCompatRecord({
  id: "sdk-https",
  order: 40,
  client: "Official TypeScript SDK over HTTPS",
  version: `@modelcontextprotocol/sdk ${packageVersion("@modelcontextprotocol/sdk")}`,
  transport: "Streamable HTTP over TLS (`https://127.0.0.1`, wrangler dev local HTTPS)",
  exercised: [
    "trusts only a certificate made at test time",
    "an untrusting fetch and client are refused",
    "initialize",
    "tools/list",
    "tools/call (simple, structured, SSE with progress)",
    "DELETE",
  ],
});

let cert: TestCertificate | undefined;
let server: WorkerServer | undefined;
let trusted: ReturnType<typeof fetchTrusting> | undefined;

beforeAll(async () => {
  cert = createCertificate();
  trusted = fetchTrusting(cert.certPem);
  server = await startWorker({ https: { keyPath: cert.keyPath, certPath: cert.certPath } });
}, 150_000);

afterAll(async () => {
  await server?.stop();
  await trusted?.close();
  cert?.remove();
}, 30_000);

const mcpUrl = () => new URL(server!.mcpUrl);

it("serves the demo on https://127.0.0.1", () => {
  expect(server!.mcpUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
});

it("refuses a fetch that does not trust the test certificate (trust is real, not switched off)", async () => {
  const error = await fetch(mcpUrl(), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then(
    () => undefined,
    (err: unknown) => err as Error & { cause?: { code?: string } },
  );
  expect(error).toBeInstanceOf(TypeError);
  expect(error?.cause?.code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
});

it("refuses an SDK client without the certificate", async () => {
  const client = new Client({ name: "e2e-https-untrusting", version: "1.0.0" });
  await expect(client.connect(new StreamableHTTPClientTransport(mcpUrl()))).rejects.toThrow();
  await client.close();
});

it("connects the SDK client trusting only the test certificate: initialize, list and call tools, terminate", async () => {
  const client = new Client({ name: "e2e-https", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { fetch: trusted!.fetch });
  try {
    await client.connect(transport);
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    compat.protocol = transport.protocolVersion;
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(client.getServerVersion()).toMatchObject({ name: "mcp-edge-demo" });

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "add", "stream_progress"]));

    const echo = await client.callTool({ name: "echo", arguments: { text: "over TLS ✓" } });
    expect(echo.content).toEqual([{ type: "text", text: "over TLS ✓" }]);

    const add = await client.callTool({ name: "add", arguments: { a: 40, b: 2 } });
    expect(add.structuredContent).toEqual({ sum: 42 });

    // An interactive tool: answered by the session object as an SSE stream over the TLS connection.
    const progress: Progress[] = [];
    const streamed = await client.callTool({ name: "stream_progress", arguments: { count: 5 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(firstText(streamed)).toBe("done 5");
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5]);

    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
  } finally {
    await client.close();
  }
});
