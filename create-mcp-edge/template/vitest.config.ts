import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Tests run inside workerd with this project's wrangler.toml: the real Worker and Durable Object.
// The state secret is a test-only value, so the tests also pass where .dev.vars is absent (CI).
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
    }),
  ],
  // The first test also starts the Worker and its Durable Object: seconds on a busy CI machine.
  test: { testTimeout: 20_000 },
});
