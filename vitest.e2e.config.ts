// End-to-end tests in Node: each file starts the real Worker under `wrangler dev` on 127.0.0.1
// (scripts/dev-server.mjs) and drives it over HTTP with the official MCP SDK client.
// Files run one after another: each owns a wrangler + workerd process group on a 2-core machine.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["test/e2e/**/*.test.ts"],
    // Empties results/compat/: each file writes its client-compatibility record there.
    globalSetup: ["test/e2e/clients/helpers/global-setup.mjs"],
    fileParallelism: false,
    testTimeout: 60_000,
    // Starting wrangler dev (esbuild bundle + workerd) and stopping its process group.
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
