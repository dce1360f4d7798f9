// End-to-end tests in Node: each file starts the real Worker in its own process (wrangler dev's
// code in-process, scripts/worker-server.mjs) on 127.0.0.1 and drives it over HTTP with real
// clients. Files run one after another: each owns a workerd on a 2-core machine.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["test/e2e/**/*.test.ts"],
    // Empties results/compat/: each file writes its client-compatibility record there.
    globalSetup: ["test/e2e/clients/helpers/global-setup.mjs"],
    fileParallelism: false,
    testTimeout: 60_000,
    // Starting the Worker (esbuild bundle + workerd boot) and disposing of it.
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
