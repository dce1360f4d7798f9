// Serves the MCP App host page for the browser test on 127.0.0.1: "/" is the page, "/host.js" the
// host script (app-host.ts with @modelcontextprotocol/ext-apps' AppBridge), bundled once by esbuild.

import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ENTRY = fileURLToPath(new URL("./app-host.ts", import.meta.url));

export async function startAppHostPage() {
  const bundle = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0].text;
  const server = createServer((req, res) => {
    if (req.url === "/host.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
      res.end(script);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(
      '<!doctype html><meta charset="utf-8"><title>MCP App host</title><body style="font-family:sans-serif"><h2>Host</h2><script src="/host.js"></script></body>',
    );
  });
  await new Promise((resolveListen, reject) => {
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, resolveListen);
  });
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/`,
    bytes: script.length,
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
