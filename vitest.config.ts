// Tests that run inside workerd (the real Worker, Durable Objects and SQLite storage):
// "workers" drives the demo Worker from wrangler.toml; "tuned" drives the same server with
// small session limits (test/tuned/wrangler.toml) for timing- and limit-dependent behaviour;
// "list-changed" drives a server that declares listChanged (test/list-changed/wrangler.toml);
// "tasks" drives a server of task tools (test/tasks/wrangler.toml) with real task objects.
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
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
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/tasks/wrangler.toml" } })],
        test: { name: "tasks", include: ["test/tasks/**/*.test.ts"] },
      },
    ],
  },
});
