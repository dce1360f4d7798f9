import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Tests run inside workerd with this project's wrangler.toml: the real Worker and Durable Object.
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
  // The first test also starts the Worker and its Durable Object: seconds on a busy CI machine.
  test: { testTimeout: 20_000 },
});
