// The one test that runs exactly what a user runs: `npm run dev -- --port N` (wrangler dev as its
// own process group, with its proxy and inspector), then an SDK client lists the tools through it.
// Every other e2e file starts the Worker in-process (scripts/worker-server.mjs).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findFreePort } from "../../scripts/worker-server.mjs";
import { startProcess, type ProcessHandle } from "./clients/helpers/processes.mjs";
import { pathWithCurrentNode } from "./clients/helpers/tools.mjs";

let dev: ProcessHandle | undefined;
let port = 0;

beforeAll(async () => {
  port = await findFreePort();
  dev = startProcess("npm", ["run", "dev", "--", "--port", String(port)], {
    env: {
      PATH: pathWithCurrentNode(),
      NO_COLOR: "1",
      WRANGLER_LOG: "info",
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    },
  });
  dev.closeStdin();
  await dev.waitForLine((line) => line.includes(`Ready on http://127.0.0.1:${port}`), { timeoutMs: 90_000 });
}, 120_000);

afterAll(async () => {
  await dev?.stop();
}, 30_000);

it("`npm run dev -- --port N` serves the demo on that port and answers tools/list", async () => {
  const client = new Client({ name: "e2e-dev-smoke", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("echo");
  } finally {
    await client.close();
  }
});
