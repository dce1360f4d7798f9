// The conformance suite's authorization-server scenario (0.2.0-alpha.12, `authorization` mode)
// against the built-in authorization server: the demo of wrangler.auth.toml, started in-process
// on a free port. `authorization-server-metadata-endpoint` checks the RFC 8414 metadata and that
// it advertises client_id_metadata_document_supported: true. (`authorization-code-grant` needs a
// registered client and a browser sign-in, so it is not run here.)
// usage: node conformance/auth-server.mjs [--output-dir <dir>]
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { findFreePort, startWorker } from "../scripts/worker-server.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { "output-dir": { type: "string" } } });
const cli = join(dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance-next/package.json")), "dist/index.js");

const port = await findFreePort();
const origin = `http://127.0.0.1:${port}`;
const server = await startWorker({
  port,
  configPath: join(REPO_ROOT, "wrangler.auth.toml"),
  vars: { MCP_PUBLIC_URL: origin, MCP_STATE_SECRET: crypto.randomUUID() + crypto.randomUUID() },
});
let status = 1;
try {
  const args = [cli, "authorization", "--url", origin, "--scenario", "authorization-server-metadata-endpoint"];
  if (values["output-dir"]) args.push("--output-dir", values["output-dir"]);
  // Not spawnSync: the Worker under test is served by this process.
  const child = spawn(process.execPath, args, { stdio: "inherit", env: { ...process.env, NO_COLOR: "1" } });
  status = await new Promise((done) => child.on("close", (code) => done(code ?? 1)));
} finally {
  await server.stop();
}
process.exit(status);
