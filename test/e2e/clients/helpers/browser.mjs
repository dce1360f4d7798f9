// Headless Chromium for the browser client test: Debian's `chromium` package (installed by
// .ci/run; never a Playwright browser download) driven by playwright-core, plus a tiny page server
// on 127.0.0.1 whose pages are the origins the test's fetches come from.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.MCP_EDGE_CHROMIUM ?? "/usr/bin/chromium";

/** Flags that keep the browser off the network and quiet; --no-sandbox because CI runs as root. */
const FLAGS = [
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-domain-reliability",
  "--no-first-run",
  "--no-default-browser-check",
  "--metrics-recording-only",
];

/** "156.0.8078.79", or throws with the install command when the browser is missing. */
export function chromiumVersion() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} not found: install Debian's chromium (apt-get update && apt-get install -y chromium), or set MCP_EDGE_CHROMIUM`,
    );
  }
  const run = spawnSync(CHROMIUM, ["--version"], { encoding: "utf8", timeout: 30_000 });
  const version = /(\d+\.\d+\.\d+\.\d+)/.exec(run.stdout ?? "")?.[1];
  if (!version) throw new Error(`${CHROMIUM} --version said ${JSON.stringify(run.stdout)} ${run.stderr ?? ""}`);
  return version;
}

/**
 * Launches headless Chromium with a throwaway profile (Playwright makes and deletes it).
 * @param {string[]} [extraArgs]
 */
export async function launchChromium(extraArgs = []) {
  chromiumVersion();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: [...FLAGS, ...extraArgs],
    timeout: 60_000,
  });
}

/** Serves one small HTML page on every path, on 127.0.0.1 (any Host header: the origin is the client's choice). */
export async function startPageServer() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end('<!doctype html><meta charset="utf-8"><title>mcp-edge browser client</title><p>browser client test page</p>');
  });
  await new Promise((resolveListen, reject) => {
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, resolveListen);
  });
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    port,
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
