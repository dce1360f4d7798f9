// Tests that run inside workerd (the real Worker, Durable Objects and SQLite storage).
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
  test: {
    include: ["test/workers/**/*.test.ts"],
  },
});
