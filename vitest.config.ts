// Tests grouped by area (test/<area>/), each run in the project its file name ends with (test/README.md):
// x.test.ts in "workers", inside workerd on the demo Worker (wrangler.toml); x.<name>.test.ts in project
// <name>, on the Worker in test/servers/<name>/: "tuned" the demo with small session limits, "list-changed"
// a server declaring listChanged, "tasks" a server of task tools with real task objects, "package" a server
// written only with the public API, "package-kit" one driven through mcp-edge/testing, "step-up" scopes per
// operation and handlers' challenges, "operate" middleware, an error hook and rate limits, "extensions" a vendor
// extension on the public extension API, "events" the Events extension passed in as a feature, "webhooks" its webhook
// delivery, "costs" the demo with metered objects, "routes" a server at /mcp/:tenant,
// "dpop" the DPoP replay object, "misconfigured" bindings without migrations; "auth-server" runs on
// wrangler.auth.toml, "scaffold" on the server `npm create mcp-edge` writes, "old-idiom" on a project written
// before features (the deprecated object factories); x.node.test.ts in "node",
// plain Node for modules that need no Worker. The end-to-end tests (test/e2e) have vitest.e2e.config.ts.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Expected noise: what the tests provoke on purpose and the product or the runtime logs by
 * design (a simulated SQLITE_FULL, a tool handler that throws, the fuzzers' non-ASCII and fake
 * `sk-live-FUZZ-SECRET` header values, streams the tests cancel). Hidden and counted, so that
 * anything else printed stands out; MCP_EDGE_SHOW_EXPECTED_LOGS=1 shows it all.
 */
const EXPECTED_CONSOLE = [
  // test/rate-limits/rate-limits.operate: a rate limit rule naming a binding wrangler.toml lacks.
  /the rate limit rule names the binding "NO_SUCH_LIMIT"/,
  /\(simulated\)/,
  /handler failed Error: handler bug/,
  /^CIMD fetch failed for https:\/\/app\.(example\.test|localhost)\//,
  /^OAuth error response: 400 (unsupported_grant_type - Grant type not supported|invalid_grant - Invalid assertion)/,
  // The failure-policy tools (test/tasks/failure-policy.tasks): an exception and a malformed result, logged with their reference.
  /failed unexpectedly \(reference [0-9a-f]{8}\): Error: (policy-table secret detail|operate secret detail|boom|the handler returned something other than a CallToolResult)/,
  // test/http/misconfiguration and no-migrations.misconfigured: the deployment mistakes they make on purpose.
  /^mcp-edge: \[misconfigured-[0-9a-f]{8}\] Server misconfigured: /,
  // test/extensions: client notifications the gate or the params schema drops, on purpose.
  /^mcp-edge: notification notifications\/com\.example\/notes\/seen dropped: /,
  // test/events/webhooks-delivery.webhooks: a callback name rebound to a private address, an event over 256 KiB, on purpose.
  /^mcp-edge: webhook for sub_[0-9a-f]+ not sent: rebound\.example\.com resolves to 10\.0\.0\.7/,
  /^mcp-edge: event incident\.created evt_[0-9a-f-]+ is over 262144 bytes as JSON; not sent to webhooks/,
  // test/package/kit.package-kit: a test token sent to a deployed host, refused on purpose (logged once per verifier).
  /^mcp-edge: test sign-in \(testAuth from mcp-edge\/testing\) is refused on /,
  // test/events/push.events: an upstream-backed event's poll made to fail once, on purpose.
  /^mcp-edge: event "ticket\.opened": a poll round failed/,
  // test/hub/publish-handoff: an outbox whose receiver never answers, on purpose.
  /^mcp-edge: a publish batch waited \d+ ms for the one before it/,
];
const EXPECTED_RUNTIME = [
  /^A header value for "[^"]+" contains non-ASCII characters/,
  /^exception = .*disconnected: (reader canceled|pump canceled|read end of pipe was aborted)/,
  /^NOSENTRY SQLite alarm handler canceled/,
  /^exception = .*Application called abortAllDurableObjects\(\)/,
  // test/http/no-migrations.misconfigured: objects bound without their migration fail their first SQL call, and workerd says so.
  /SQL is not enabled for this Durable Object class/,
  // The same objects' first synchronous key-value call (a session's state lives in storage.kv).
  /The storage\.kv \(synchronous KV\) API is only available for SQLite-backed Durable Objects/,
  // test/hub: shards the tests restart on purpose (ctx.abort), reported by workerd as a broken output gate.
  /^uncaught exception; exception = .*broken\.outputGateBroken; jsg\.Error: ((shard|coordinator|test) )?(restart|sleep)\b/,
  // test/events/webhooks-*.webhooks: a webhook endpoint nobody listens on (127.0.0.1:9), on purpose; workerd logs the
  // refused connection even though the fetch's rejection is handled (the subscribe answers -32027 connection_refused).
  /^uncaught exception; (source = Uncaught \(in promise\); stack = Error|exception = .*disconnected: jsg\.Error): Network connection lost\./,
  // test/hub/publish-handoff: a shard made to fail a delivery; workerd reports the RPC's rejection.
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

/** Projects named by a file suffix: x.<name>.test.ts runs in project <name>; the rest of test/ (but e2e) in "workers". */
const SUFFIXED = [
  "tuned",
  "costs",
  "deferred",
  "list-changed",
  "package",
  "package-kit",
  "step-up",
  "tasks",
  "operate",
  "extensions",
  "webhooks",
  "events",
  "routes",
  "auth-server",
  "dpop",
  "misconfigured",
  "scaffold",
  "node",
  "old-idiom",
] as const;
const filesOf = (name: (typeof SUFFIXED)[number]) => [`test/**/*.${name}.test.ts`];

/** A file of this checkout by absolute path (an alias's replacement). */
const sourceFile = (path: string) => decodeURIComponent(new URL(path, import.meta.url).pathname);

/**
 * Every workerd project's default test timeout: a file's first request starts its Worker and objects, which
 * takes seconds on a busy 2-core machine (vitest's 5 s default failed first tests when the suite ran beside
 * other work). Projects that set their own keep it.
 */
const WORKERD_TEST_TIMEOUT_MS = 15_000;

export default defineConfig({
  test: {
    onConsoleLog(log) {
      if (process.env.MCP_EDGE_SHOW_EXPECTED_LOGS === "1" || !EXPECTED_CONSOLE.some((re) => re.test(log))) return;
      hidden.console++;
      return false;
    },
    projects: withTimeout([
      {
        // MCP_STATE_SECRET signs 2026-07-28 requestState (MRTR); a test-only value, never a default of the library.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/e2e/**", `test/**/*.{${SUFFIXED.join(",")}}.test.ts`],
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/servers/tuned/wrangler.toml" } })],
        test: { name: "tuned", include: filesOf("tuned") },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/costs/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        // Whole session lives with a 4 s idle timeout (test/servers/costs/wrangler.toml): several per test.
        test: { name: "costs", include: filesOf("costs"), testTimeout: 30_000 },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/deferred/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "deferred", include: filesOf("deferred") },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/servers/list-changed/wrangler.toml" } })],
        test: { name: "list-changed", include: filesOf("list-changed") },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/package/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "package", include: filesOf("package") },
      },
      {
        // Scopes per operation (the SEP-2350 draft scenario's fixtures) and step-up from a handler (test/servers/step-up).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/step-up/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "step-up", include: filesOf("step-up"), testTimeout: 30_000 },
      },
      {
        // The public API's test kit against real servers: the test verifier, streams, tasks (test/servers/package-kit).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/package-kit/wrangler.toml" },
            miniflare: {
              bindings: {
                MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef",
                MCP_TEST_AUTH_SECRET: "test-only-auth-secret-0123456789abcdef",
              },
            },
          }),
        ],
        test: { name: "package-kit", include: filesOf("package-kit") },
      },
      {
        // A project written before features: the deprecated object factories, no `features` (test/servers/old-idiom).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/old-idiom/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "old-idiom", include: filesOf("old-idiom") },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/servers/tasks/wrangler.toml" } })],
        test: { name: "tasks", include: filesOf("tasks") },
      },
      {
        // The Events extension as a user passes it in (test/servers/events): poll, push, the gate, both eras.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/events/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "events", include: filesOf("events") },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/operate/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "operate", include: filesOf("operate") },
      },
      {
        // A vendor extension on the public extension API (test/servers/extensions): both eras, MRTR, the gate.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/extensions/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "extensions", include: filesOf("extensions") },
      },
      {
        // Webhook delivery of the Events extension (test/servers/webhooks): the methods behind the test verifier, the
        // object's alarm delivering to a real receiver in this process (receiver-setup.mjs, mcp-edge/testing/receiver).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/webhooks/wrangler.toml" },
            miniflare: {
              bindings: {
                MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef",
                MCP_TEST_AUTH_SECRET: "test-only-auth-secret-0123456789abcdef",
              },
            },
          }),
        ],
        test: { name: "webhooks", include: filesOf("webhooks"), globalSetup: ["./test/servers/webhooks/receiver-setup.mjs"] },
      },
      {
        // A server at /mcp/:tenant: route parameters and tenant isolation (test/servers/routes).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/routes/wrangler.toml" },
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" } },
          }),
        ],
        test: { name: "routes", include: filesOf("routes") },
      },
      {
        // The demo with the built-in authorization server, exactly as wrangler.auth.toml configures it;
        // its outbound fetches (client metadata documents) reach a second Worker, test/servers/auth-server/client-host.mjs.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.auth.toml" },
            miniflare: {
              bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" },
              outboundService: "client-host",
              workers: [{ name: "client-host", modules: true, scriptPath: "./test/servers/auth-server/client-host.mjs" }],
            },
          }),
        ],
        test: { name: "auth-server", include: filesOf("auth-server") },
      },
      {
        // DPoP with the replay store every isolate shares (DpopReplayObject, test/servers/dpop/wrangler.toml).
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/servers/dpop/wrangler.toml" } })],
        test: { name: "dpop", include: filesOf("dpop") },
      },
      {
        // The demo's bindings without their [[migrations]] (test/servers/misconfigured/wrangler.toml).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./test/servers/misconfigured/wrangler.toml" },
            // mcp.example.com: a deployed Worker's host, whose clients never read binding names.
            miniflare: { bindings: { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef", MCP_ALLOWED_HOSTS: "mcp.example.com" } },
          }),
        ],
        test: { name: "misconfigured", include: filesOf("misconfigured") },
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
            { find: /^mcp-edge\/json-schema$/, replacement: sourceFile("./src/json-schema.ts") },
            { find: /^mcp-edge\/(sessions|hub|tasks|user|skills|apps)$/, replacement: sourceFile("./src/features/$1/index.ts") },
            { find: /^mcp-edge$/, replacement: sourceFile("./src/index.ts") },
          ],
        },
        // The first request also starts the Worker and its session object: seconds on a busy machine.
        test: { name: "scaffold", include: filesOf("scaffold"), testTimeout: 20_000 },
      },
      {
        // Pure modules (URI templates, JSON-RPC parsing, dispatch over a definition...): no Worker, no workerd.
        test: { name: "node", environment: "node", include: filesOf("node") },
      },
    ]),
  },
});

/** The projects, each with WORKERD_TEST_TIMEOUT_MS unless it sets a timeout of its own. */
function withTimeout<P extends { test?: { testTimeout?: number } }>(projects: P[]): P[] {
  return projects.map((project) => ({ ...project, test: { testTimeout: WORKERD_TEST_TIMEOUT_MS, ...project.test } }));
}
