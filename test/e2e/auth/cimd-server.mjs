// The demo with the built-in authorization server, as `wrangler deploy` would bundle it for
// wrangler.auth.toml, under Miniflare beside a second Worker that answers all its outbound
// fetches (test/servers/auth-server/client-host.mjs: clients' metadata documents at https://app.example.test).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildWorker } from "../../../bench/harness/bundle.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CONFIG = join(REPO_ROOT, "wrangler.auth.toml");

export async function startCimdServer({ port }) {
  const workDir = mkdtempSync(join(tmpdir(), "mcp-edge-cimd-"));
  const url = `http://127.0.0.1:${port}`;
  let mf;
  try {
    const outdir = join(workDir, "build");
    const scriptPath = await buildWorker({ repoRoot: REPO_ROOT, configPath: CONFIG, outdir });
    const { modulesRules: _, ...demo } = unstable_getMiniflareWorkerOptions(CONFIG).workerOptions;
    mf = new Miniflare(
      convertV4MiniflareOptions({
        host: "127.0.0.1",
        port,
        workers: [
          {
            ...demo,
            bindings: { ...demo.bindings, MCP_PUBLIC_URL: url, MCP_STATE_SECRET: "e2e-only-state-secret-0123456789abcdef" },
            modules: true,
            scriptPath,
            modulesRoot: outdir,
            outboundService: "client-host",
          },
          { name: "client-host", modules: true, scriptPath: join(REPO_ROOT, "test/servers/auth-server/client-host.mjs") },
        ],
      }),
    );
    await mf.ready;
  } catch (error) {
    await mf?.dispose();
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async stop() {
      await mf.dispose();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
