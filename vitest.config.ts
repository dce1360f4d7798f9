// Tests that run inside workerd (the real Worker, Durable Objects and SQLite storage):
// "workers" drives the demo Worker from wrangler.toml; "tuned" drives the same server with
// small session limits (test/tuned/wrangler.toml) for timing- and limit-dependent behaviour;
// "list-changed" drives a server that declares listChanged (test/list-changed/wrangler.toml);
// "package" drives a server written only with the public API, as a user would (test/package).
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // MCP_STATE_SECRET signs 2026-07-28 requestState (MRTR); a test-only value, never a default of the library.
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" }, miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } } })],
        test: { name: "workers", include: ["test/workers/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/tuned/wrangler.toml" } })],
        test: { name: "tuned", include: ["test/tuned/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/list-changed/wrangler.toml" } })],
        test: { name: "list-changed", include: ["test/list-changed/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/package/wrangler.toml" } })],
        test: { name: "package", include: ["test/package/**/*.test.ts"] },
      },
    ],
  },
});
