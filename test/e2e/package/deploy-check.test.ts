/**
 * The check docs/auth.md "Test sign-in never in production" gives for before `wrangler deploy`:
 * the bundle wrangler would upload (`--dry-run --outdir`) contains TEST_AUTH_MARKER when its entry
 * serves testAuth(), minified or not, and does not when it does not (the demo's entry).
 */
import { describe, expect, it } from "vitest";
import { TEST_AUTH_MARKER } from "../../../src/testing/test-auth";
import { bundleContains } from "../helpers/dry-run-bundle.mjs";

describe("the pre-deploy check for test sign-in", () => {
  it("finds the marker in a bundle whose entry serves testAuth(), minified too", () => {
    expect(bundleContains("test/servers/package-kit/wrangler.toml", TEST_AUTH_MARKER, { minify: false })).toBe(true);
    expect(bundleContains("test/servers/package-kit/wrangler.toml", TEST_AUTH_MARKER, { minify: true })).toBe(true);
  }, 120_000);

  it("does not find it in a production entry", () => {
    expect(bundleContains("wrangler.toml", TEST_AUTH_MARKER, { minify: true })).toBe(false);
  }, 120_000);
});
