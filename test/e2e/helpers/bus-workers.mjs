// Two Workers in one Miniflare, each in its own isolate and on its own port on 127.0.0.1: the
// listener (which defines the McpHub class) and the publisher, whose MCP_HUB binding names the
// listener's class by script name. Both are bundled as `wrangler deploy` would (bench/harness).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { buildWorker } from "../../../bench/harness/bundle.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const WORKERS = join(REPO_ROOT, "test/servers/bus");
const HOST = "127.0.0.1";

function worker(name, scriptPath, outdir, hub) {
  return {
    name,
    modules: true,
    scriptPath,
    modulesRoot: outdir,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    durableObjects: { MCP_HUB: hub },
    unsafeDirectSockets: [{ host: HOST, port: 0 }],
  };
}

export async function startBusWorkers() {
  const workDir = mkdtempSync(join(tmpdir(), "mcp-edge-bus-"));
  let mf;
  try {
    const listenerOut = join(workDir, "listener");
    const publisherOut = join(workDir, "publisher");
    const [listenerScript, publisherScript] = await Promise.all([
      buildWorker({ repoRoot: REPO_ROOT, configPath: join(WORKERS, "listener.wrangler.toml"), outdir: listenerOut }),
      buildWorker({ repoRoot: REPO_ROOT, configPath: join(WORKERS, "publisher.wrangler.toml"), outdir: publisherOut }),
    ]);
    mf = new Miniflare(
      convertV4MiniflareOptions({
        host: HOST,
        port: 0,
        durableObjectsPersist: join(workDir, "state"),
        workers: [
          worker("bus-listener", listenerScript, listenerOut, { className: "McpHub", useSQLite: true }),
          worker("bus-publisher", publisherScript, publisherOut, { className: "McpHub", scriptName: "bus-listener", useSQLite: true }),
        ],
      }),
    );
    await mf.ready;
    const listener = await mf.unsafeGetDirectURL("bus-listener");
    const publisher = await mf.unsafeGetDirectURL("bus-publisher");
    const running = mf;
    return {
      listenerUrl: new URL("/mcp", listener).href,
      publisherUrl: new URL("/mcp", publisher).href,
      publisherOrigin: publisher.origin,
      stop: async () => {
        await running.dispose();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await mf?.dispose().catch(() => {});
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}
