// What `wrangler deploy` would upload: the bundle of `wrangler deploy --dry-run --outdir` for one config,
// searched for a string (the deploy check of docs/auth.md "Test sign-in never in production").
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WRANGLER = join(import.meta.dirname, "../../../node_modules/wrangler/bin/wrangler.js");

export function bundleContains(config, needle, { minify }) {
  const outdir = mkdtempSync(join(tmpdir(), "mcp-edge-deploy-check-"));
  try {
    const args = [WRANGLER, "deploy", "--dry-run", "--outdir", outdir, "-c", config, ...(minify ? ["--minify"] : [])];
    execFileSync(process.execPath, args, { stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
    return readdirSync(outdir)
      .filter((file) => file.endsWith(".js"))
      .some((file) => readFileSync(join(outdir, file), "utf8").includes(needle));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
