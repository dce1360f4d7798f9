// Tests that run inside workerd (the real Worker, Durable Objects and SQLite storage):
// "workers" drives the demo Worker from wrangler.toml; "tuned" drives the same server with
// small session limits (test/tuned/wrangler.toml) for timing- and limit-dependent behaviour;
// "list-changed" drives a server that declares listChanged (test/list-changed/wrangler.toml);
// "tasks" drives a server of task tools (test/tasks/wrangler.toml) with real task objects;
// "package" drives a server written only with the public API, as a user would (test/package);
// "package-kit" drives one with the test verifier, streams and tasks through mcp-edge/testing (test/package/kit);
// "operate" drives a server with middleware, an error hook and rate limits (test/operate);
// "costs" drives the demo with metered objects and a short idle timeout (test/costs);
// "routes" drives a server at /mcp/:tenant (test/routes);
// "scaffold" drives the server `npm create mcp-edge` writes, with the template's own wrangler.toml.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * Expected noise: what the tests provoke on purpose and the product or the runtime logs by
 * design (a simulated SQLITE_FULL, a tool handler that throws, the fuzzers' non-ASCII and fake
 * `sk-live-FUZZ-SECRET` header values, streams the tests cancel). Hidden and counted, so that
 * anything else printed stands out; MCP_EDGE_SHOW_EXPECTED_LOGS=1 shows it all.
 */
const EXPECTED_CONSOLE = [
  // test/operate: a rate limit rule naming a binding wrangler.toml lacks.
  /the rate limit rule names the binding "NO_SUCH_LIMIT"/,
  /\(simulated\)/,
  /handler failed Error: handler bug/,
  /^CIMD fetch failed for https:\/\/app\.(example\.test|localhost)\//,
  /^OAuth error response: 400 (unsupported_grant_type - Grant type not supported|invalid_grant - Invalid assertion)/,
  // The failure-policy tools (test/tasks): an exception and a malformed result, logged with their reference.
  /failed unexpectedly \(reference [0-9a-f]{8}\): Error: (policy-table secret detail|operate secret detail|boom|the handler returned something other than a CallToolResult)/,
  // test/workers/http/misconfiguration and test/misconfigured: the deployment mistakes they make on purpose.
  /^mcp-edge: \[misconfigured-[0-9a-f]{8}\] Server misconfigured: /,
  // test/workers/hub/publish-handoff: an outbox whose receiver never answers, on purpose.
  /^mcp-edge: a publish batch waited \d+ ms for the one before it/,
];
const EXPECTED_RUNTIME = [
  /^A header value for "[^"]+" contains non-ASCII characters/,
  /^exception = .*disconnected: (reader canceled|pump canceled|read end of pipe was aborted)/,
  /^NOSENTRY SQLite alarm handler canceled/,
  /^exception = .*Application called abortAllDurableObjects\(\)/,
  // test/misconfigured: objects bound without their migration fail their first SQL call, and workerd says so.
  /SQL is not enabled for this Durable Object class/,
  // test/workers/hub: shards the tests restart on purpose (ctx.abort), reported by workerd as a broken output gate.
  /^uncaught exception; exception = .*broken\.outputGateBroken; jsg\.Error: (shard|coordinator|test) restart/,
  // test/workers/hub/publish-handoff: a shard made to fail a delivery; workerd reports the RPC's rejection.
  /^uncaught exception; source = Uncaught \(in promise\); stack = Error: test restart of shard/,
];
// Vitest evaluates this file more than once in its main process: install the filter once.
const shared = globalThis as { mcpEdgeHiddenLogs?: { console: number; runtime: number } };
const installed = shared.mcpEdgeHiddenLogs !== undefined;
shared.mcpEdgeHiddenLogs ??= { console: 0, runtime: 0 };
const hidden = shared.mcpEdgeHiddenLogs;
if (process.env.MCP_EDGE_SHOW_EXPECTED_LOGS !== "1" && !installed) {
  // The Workers pool writes workerd's own log lines straight to this process's stderr/stdout.
  for (const stream of [process.stderr, process.stdout]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === "string" && EXPECTED_RUNTIME.some((re) => re.test(chunk))) {
        hidden.runtime++;
        return true;
      }
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
  process.once("exit", () => {
    if (hidden.console + hidden.runtime > 0) {
      process.stderr.write(
        `expected: hid ${hidden.console} error logs and ${hidden.runtime} runtime warnings the tests provoke on purpose (MCP_EDGE_SHOW_EXPECTED_LOGS=1 shows them)\n`,
      );
    }
  });
}

/** A file of this checkout by absolute path (an alias's replacement). */
const sourceFile = (path: string) => decodeURIComponent(new URL(path, import.meta.url).pathname);

export default defineConfig({
  test: {
    onConsoleLog(log) {
      if (process.env.MCP_EDGE_SHOW_EXPECTED_LOGS === "1" || !EXPECTED_CONSOLE.some((re) => re.test(log))) return;
      hidden.console++;
      return false;
    },
    projects: [
      {
        // MCP_STATE_SECRET signs 2026-07-28 requestState (MRTR); a test-only value, never a default of the library.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "workers", include: ["test/workers/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/tuned/wrangler.toml" } })],
        test: { name: "tuned", include: ["test/tuned/**/*.test.ts"] },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/costs/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "costs", include: ["test/costs/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/list-changed/wrangler.toml" } })],
        test: { name: "list-changed", include: ["test/list-changed/**/*.test.ts"] },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/package/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "package", include: ["test/package/*.test.ts"] },
      },
      {
        // The public API's test kit against real servers: the test verifier, streams, tasks (test/package/kit).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/package/kit/wrangler.toml" },
            miniflare: {
              bindings: {
                MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef",
                MCP_TEST_AUTH_SECRET: "test-only-auth-secret-0123456789abcdef",
              },
            },
          }),
        ],
        test: { name: "package-kit", include: ["test/package/kit/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/tasks/wrangler.toml" } })],
        test: { name: "tasks", include: ["test/tasks/**/*.test.ts"] },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/operate/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "operate", include: ["test/operate/**/*.test.ts"] },
      },
      {
        // A server at /mcp/:tenant: route parameters and tenant isolation (test/routes).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/routes/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "routes", include: ["test/routes/**/*.test.ts"] },
      },
      {
        // The demo with the built-in authorization server, exactly as wrangler.auth.toml configures it;
        // its outbound fetches (client metadata documents) reach a second Worker, test/auth-server/client-host.mjs.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.auth.toml" },
            miniflare: {
              bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" },
              outboundService: "client-host",
              workers: [{ name: "client-host", modules: true, scriptPath: "./test/auth-server/client-host.mjs" }],
            },
          }),
        ],
        test: { name: "auth-server", include: ["test/auth-server/**/*.test.ts"] },
      },
      {
        // DPoP with the replay store every isolate shares (DpopReplayObject, test/dpop/wrangler.toml).
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/dpop/wrangler.toml" } })],
        test: { name: "dpop", include: ["test/dpop/**/*.test.ts"] },
      },
      {
        // The demo's bindings without their [[migrations]] (test/misconfigured/wrangler.toml).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/misconfigured/wrangler.toml" },
            // mcp.example.com: a deployed Worker's host, whose clients never read binding names.
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef", MCP_ALLOWED_HOSTS: "mcp.example.com" } },
          }),
        ],
        test: { name: "misconfigured", include: ["test/misconfigured/**/*.test.ts"] },
      },
      {
        // The scaffold's server code and bindings exactly as a new project gets them (create-mcp-edge/template),
        // its "mcp-edge" imports served by this checkout's source.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./create-mcp-edge/template/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        resolve: {
          alias: [
            { find: /^mcp-edge\/testing$/, replacement: sourceFile("./src/testing/index.ts") },
            { find: /^mcp-edge\/types$/, replacement: sourceFile("./src/types.ts") },
            { find: /^mcp-edge\/extensions$/, replacement: sourceFile("./src/extensions.ts") },
            { find: /^mcp-edge$/, replacement: sourceFile("./src/index.ts") },
          ],
        },
        // The first request also starts the Worker and its session object: seconds on a busy machine.
        test: { name: "scaffold", include: ["test/scaffold/**/*.test.ts"], testTimeout: 20_000 },
      },
    ],
  },
});
