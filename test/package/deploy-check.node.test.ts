/**
 * The check docs/auth.md "Test sign-in never in production" gives for before `wrangler deploy`:
 * the bundle wrangler would upload (`--dry-run --outdir`) contains TEST_AUTH_MARKER when its entry
 * serves testAuth(), minified or not, and does not when it does not (the demo's entry).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_AUTH_MARKER } from "../../src/testing/test-auth";

const WRANGLER = join(import.meta.dirname, "../../node_modules/wrangler/bin/wrangler.js");

/** Whether the bundle `wrangler deploy` would upload for `config` contains the marker. */
function bundleHasMarker(config: string, minify: boolean): boolean {
  const outdir = mkdtempSync(join(tmpdir(), "mcp-edge-deploy-check-"));
  try {
    const args = [WRANGLER, "deploy", "--dry-run", "--outdir", outdir, "-c", config, ...(minify ? ["--minify"] : [])];
    execFileSync(process.execPath, args, { stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
    return readdirSync(outdir)
      .filter((file) => file.endsWith(".js"))
      .some((file) => readFileSync(join(outdir, file), "utf8").includes(TEST_AUTH_MARKER));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe("the pre-deploy check for test sign-in", () => {
  it("finds the marker in a bundle whose entry serves testAuth(), minified too", () => {
    expect(bundleHasMarker("test/servers/package-kit/wrangler.toml", false)).toBe(true);
    expect(bundleHasMarker("test/servers/package-kit/wrangler.toml", true)).toBe(true);
  }, 120_000);

  it("does not find it in a production entry", () => {
    expect(bundleHasMarker("wrangler.toml", true)).toBe(false);
  }, 120_000);
});
