#!/usr/bin/env node
// The consumer test (npm run test:consumer): packs mcp-edge as npm would publish it, then uses
// the tarball the way a new user does. examples/minimal installs it, type-checks with its own
// tsconfig and with a strict one (lib es2021, skipLibCheck false), runs its own Workers Vitest
// tests, then runs under `wrangler dev` on 127.0.0.1 while the official SDK client lists tools
// and calls a simple and an interactive tool. examples/with-auth installs, type-checks and builds.
// examples/from-mcpagent (the McpAgent quick start, rewritten, still on zod 3.25 with its "zod/v4" schemas:
// the peer range must admit it and defineServer's toJSONSchema convert them) installs, type-checks, builds and,
// under `wrangler dev`, serves its tools at /mcp and at the legacy /sse that McpAgent served.
// create-mcp-edge, packed too, scaffolds a project from the mcp-edge tarball into a temporary
// folder; its own `npm test` passes and, under `wrangler dev` with its generated .dev.vars, the
// SDK v1 client (2025 session) and the SDK v2 client pinned to 2026-07-28 (MRTR) use its tools.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scaffoldOnly = process.argv.slice(2).join(" ") === "--only scaffold";
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `consumer test: Node ${process.versions.node} is too old for current wrangler; run it with Node >= 22.12 (.ci/run installs one).`,
  );
  process.exit(1);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
function run(cwd, command, args) {
  console.log(`\n$ (${cwd.replace(root, ".") || "."}) ${command} ${args.join(" ")}`);
  execFileSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
}
const node = (cwd, script, args) => run(cwd, process.execPath, [join(cwd, script), ...args]);

// 1. The tarball, exactly what `npm publish` would upload (prepack builds dist/).
const packDir = join(root, ".pack");
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packDir);
run(root, npm, ["pack", "--pack-destination", packDir, "--silent"]);
renameSync(
  join(packDir, `mcp-edge-${JSON.parse(execFileSync(npm, ["pkg", "get", "version"], { cwd: root, encoding: "utf8" }))}.tgz`),
  join(packDir, "mcp-edge.tgz"),
);

// 2. Each example installs it fresh (never a cached copy of an earlier tarball).
function install(example) {
  rmSync(join(example, "node_modules", "mcp-edge"), { recursive: true, force: true });
  rmSync(join(example, "package-lock.json"), { force: true });
  run(example, npm, ["install", "--no-audit", "--no-fund", "--loglevel=error"]);
}
const tsc = (example, args = []) => node(example, "node_modules/typescript/bin/tsc", args);
const wrangler = (example, args) => node(example, "node_modules/wrangler/bin/wrangler.js", args);

// 3. wrangler dev, and the official SDK client against it.
async function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
    server.on("error", fail);
  });
}

async function withWranglerDev(example, body) {
  const port = await freePort();
  const persist = mkdtempSync(join(tmpdir(), "mcp-edge-consumer-"));
  console.log(`\n$ (${example.replace(root, ".")}) wrangler dev --ip 127.0.0.1 --port ${port}`);
  // wrangler (and the workerd it starts) lead their own process group, stopped by PID below, and
  // also if this script is interrupted or exits early.
  const wranglerArgs = [
    join(example, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(await freePort()),
    "--persist-to",
    persist,
  ];
  const child = spawn(process.execPath, wranglerArgs, {
    cwd: example,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  const onSignal = () => {
    killGroup();
    process.exit(130);
  };
  process.once("exit", killGroup);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let output = "";
  try {
    await new Promise((ok, fail) => {
      const onData = (chunk) => {
        output += chunk;
        if (/Ready on/.test(output)) ok();
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.once("exit", (code) => fail(new Error(`wrangler dev exited (${code}) before it was ready:\n${output}`)));
    });
    await body(`http://127.0.0.1:${port}/mcp`);
  } catch (error) {
    console.error(output);
    throw error;
  } finally {
    // Its own process group, started here: stop it by PID and wait until it is gone.
    const exited = new Promise((ok) => (child.exitCode !== null ? ok() : child.once("exit", ok)));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    await exited;
    process.off("exit", killGroup);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    rmSync(persist, { recursive: true, force: true });
  }
}

const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");

function check(condition, message) {
  if (!condition) throw new Error(`consumer test: ${message}`);
  console.log(`ok - ${message}`);
}

// 2. examples/minimal installs the tarball fresh, type-checks (its tsconfig and a stricter one), runs its
// own tests, then answers the official SDK client under `wrangler dev` (the README's step 4).
async function minimalExample() {
  const minimal = join(root, "examples", "minimal");
  install(minimal);
  tsc(minimal, ["--noEmit"]);

  // A stricter consumer than ours: our .d.ts must hold under it, with skipLibCheck off, for the
  // example and for a file that imports from every entry point a server author may use.
  const strict = join(minimal, "tsconfig.consumer-strict.json");
  const entryPoints = join(minimal, "src", "entry-points.ts");
  writeFileSync(
    entryPoints,
    [
      'export { defineServer, type HandlerContext } from "mcp-edge";',
      'export { errorCodes, LATEST_VERSION, type CallToolResult, type JsonSchema } from "mcp-edge/types";',
      'export { clientDeclares, TASKS_EXTENSION } from "mcp-edge/extensions";',
      'export { fullJsonSchema, type JsonSchemaCompiler } from "mcp-edge/json-schema";',
      'export { hubBus } from "mcp-edge/bus";',
      'export { createTestClient } from "mcp-edge/testing";',
      'export { sessions } from "mcp-edge/sessions"; export { hub, publish } from "mcp-edge/hub";',
      'export { tasks } from "mcp-edge/tasks"; export { user } from "mcp-edge/user"; export { defineSkill } from "mcp-edge/skills";',
      'export { uiResource, type UiResourceConfig } from "mcp-edge/apps";',
      "",
    ].join("\n"),
  );
  writeFileSync(
    strict,
    JSON.stringify({
      compilerOptions: {
        target: "es2021",
        module: "es2022",
        moduleResolution: "bundler",
        lib: ["es2021"],
        types: ["@cloudflare/workers-types"],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noImplicitOverride: true,
        noPropertyAccessFromIndexSignature: true,
        noImplicitReturns: true,
        noFallthroughCasesInSwitch: true,
        noUnusedLocals: true,
        noUnusedParameters: true,
        verbatimModuleSyntax: true,
        skipLibCheck: false,
        noEmit: true,
      },
      files: ["src/index.ts", "src/entry-points.ts"],
    }),
  );
  try {
    tsc(minimal, ["-p", strict]);
  } finally {
    rmSync(strict, { force: true });
    rmSync(entryPoints, { force: true });
  }
  // The subpaths of plain values load at run time through package.json "exports" (Node's resolution).
  run(minimal, process.execPath, [
    "--input-type=module",
    "-e",
    'const t = await import("mcp-edge/types"); const x = await import("mcp-edge/extensions");' +
      'if (t.errorCodes.INVALID_PARAMS !== -32602 || x.TASKS_EXTENSION !== "io.modelcontextprotocol/tasks") process.exit(1);' +
      'if (!t.isLoggingLevel("info") || t.LOGGING_LEVELS.length !== 8) process.exit(1);',
  ]);
  node(minimal, "node_modules/vitest/vitest.mjs", ["run"]);

  await withWranglerDev(minimal, async (url) => {
    const client = new Client({ name: "consumer-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      check(
        tools.map((t) => t.name).join(",") === "add,greet",
        `tools/list through wrangler dev names add and greet (${tools.map((t) => t.name)})`,
      );
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      check(sum.content?.[0]?.text === "42", "the simple tool answers 42");
      const greeting = await client.callTool({ name: "greet", arguments: {} });
      check(greeting.content?.[0]?.text === "Hello, Ada!", "the interactive tool elicits the name and greets");
    } finally {
      await client.close();
    }
  });
}

/** `example` installs the tarball fresh, type-checks and bundles as `wrangler deploy` would (`what`: the check's words). */
function buildsForDeploy(example, what) {
  install(example);
  tsc(example, ["--noEmit"]);
  const outdir = mkdtempSync(join(tmpdir(), "mcp-edge-consumer-build-"));
  try {
    wrangler(example, ["deploy", "--dry-run", "--outdir", outdir]);
    check(existsSync(join(outdir, "index.js")), `${what} (wrangler deploy --dry-run)`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

async function otherExamples() {
  // 4. The second example: installs, type-checks and bundles as `wrangler deploy` would.
  buildsForDeploy(join(root, "examples", "with-auth"), "examples/with-auth bundles");
  // 4b. examples/github-oauth (docs/migrate-from-mcpagent.md, the McpAgent GitHub OAuth example): with
  // workers-oauth-provider installed beside mcp-edge, it type-checks and bundles with its wrangler.jsonc.
  // Its sign-in runs end to end against a fake GitHub in test/e2e/auth/github-oauth.test.ts.
  buildsForDeploy(join(root, "examples", "github-oauth"), "examples/github-oauth bundles");
  // 4c. examples/from-mcpagent (docs/migrate-from-mcpagent.md): Cloudflare's McpAgent quick start
  // rewritten. It installs, type-checks, bundles with its migration (MyMCP deleted), and under
  // `wrangler dev` serves the URLs McpAgent served: /mcp to the SDK client, /sse to its legacy client.
  const fromMcpAgent = join(root, "examples", "from-mcpagent");
  buildsForDeploy(fromMcpAgent, "examples/from-mcpagent bundles with its migration");
  const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
  await withWranglerDev(fromMcpAgent, async (url) => {
    const transports = [
      ["/mcp", new StreamableHTTPClientTransport(new URL(url))],
      ["/sse", new SSEClientTransport(new URL(url.replace(/\/mcp$/, "/sse")))],
    ];
    for (const [path, transport] of transports) {
      const client = new Client({ name: "consumer-test", version: "1.0.0" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        check(
          tools.map((t) => t.name).join(",") === "add,calculate",
          `the McpAgent quick start, rewritten (zod 3.25), lists its tools at ${path}`,
        );
        const quotient = await client.callTool({ name: "calculate", arguments: { operation: "divide", a: 84, b: 2 } });
        check(quotient.content?.[0]?.text === "42", `calculate divides at ${path}`);
        const byZero = await client.callTool({ name: "calculate", arguments: { operation: "divide", a: 1, b: 0 } });
        check(
          byZero.isError === true && byZero.content?.[0]?.text === "Cannot divide by zero",
          `dividing by zero is a tool error at ${path}`,
        );
      } finally {
        await client.close();
      }
    }
  });
}

// `--only scaffold` runs the tarball and the scaffold alone (step 5), without the examples.
if (!scaffoldOnly) {
  await minimalExample();
  await otherExamples();
}

// 5. npm create mcp-edge, from both packed tarballs, as a new user runs it.
const creator = join(root, "create-mcp-edge");
run(creator, npm, ["pack", "--pack-destination", packDir, "--silent"]);
renameSync(
  join(packDir, `create-mcp-edge-${JSON.parse(readFileSync(join(creator, "package.json"), "utf8")).version}.tgz`),
  join(packDir, "create-mcp-edge.tgz"),
);
const scratch = mkdtempSync(join(tmpdir(), "create-mcp-edge-"));
function create(args) {
  console.log(`\n$ (tmp) npm exec --package=.pack/create-mcp-edge.tgz -- create-mcp-edge ${args.join(" ")}`);
  const { status, stdout, stderr } = spawnSync(
    npm,
    ["exec", "--yes", `--package=${join(packDir, "create-mcp-edge.tgz")}`, "--", "create-mcp-edge", ...args],
    {
      cwd: scratch,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  process.stdout.write(stdout + stderr);
  return { status, output: stdout + stderr };
}
try {
  const bogus = create(["x", "--bogus"]);
  check(bogus.status === 1 && bogus.output.includes("unknown option --bogus"), "create-mcp-edge refuses an unknown option");
  const made = create(["my-server", "--mcp-edge", join(packDir, "mcp-edge.tgz")]);
  check(made.status === 0, "create-mcp-edge scaffolds and installs my-server");
  check(!/npm warn/i.test(made.output), "the install prints no npm warning (no deprecated dependency, no unapproved install script)");
  const project = join(scratch, "my-server");
  check(
    /^MCP_STATE_SECRET=[0-9a-f]{64}$/m.test(readFileSync(join(project, ".dev.vars"), "utf8")),
    ".dev.vars holds a fresh 64-hex MCP_STATE_SECRET",
  );
  check(readFileSync(join(project, ".gitignore"), "utf8").includes(".dev.vars"), ".dev.vars is git-ignored");
  const again = create(["my-server", "--no-install"]);
  check(again.status === 1 && again.output.includes("is not empty"), "create-mcp-edge refuses a non-empty directory");
  // A new project's CI installs from its own lock file: `npm ci` must accept the lock file the
  // scaffold's install wrote (an unpinned peer once named an optional dependency the lock file
  // lacked: "Missing: … from lock file"). The tests below run on what `npm ci` installed.
  rmSync(join(project, "node_modules"), { recursive: true, force: true });
  run(project, npm, ["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
  check(existsSync(join(project, "node_modules", "mcp-edge")), "npm ci installs the scaffold from its own lock file");
  run(project, npm, ["test"]);
  const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = await import("@modelcontextprotocol/client");
  await withWranglerDev(project, async (url) => {
    // The doctor as the project has it (npx mcp-edge doctor): the scaffold passes, without a warning.
    const doctor = spawnSync(process.execPath, [join(project, "node_modules/mcp-edge/bin/mcp-edge.mjs"), "doctor", url, "--json"], {
      encoding: "utf8",
    });
    const findings = JSON.parse(doctor.stdout || "{}").findings ?? [];
    const alarms = findings.filter((f) => f.status === "fail" || f.status === "warn");
    check(doctor.status === 0 && alarms.length === 0, `mcp-edge doctor passes the scaffold: ${JSON.stringify(alarms)}`);
    const v1 = new Client({ name: "consumer-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    v1.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    await v1.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await v1.listTools();
      check(
        tools.map((t) => t.name).join(",") === "add,greet",
        `the scaffold's tools/list through wrangler dev (SDK v1): ${tools.map((t) => t.name)}`,
      );
    } finally {
      await v1.close();
    }
    const v2 = new ClientV2(
      { name: "consumer-test", version: "1.0.0" },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    v2.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
    await v2.connect(new TransportV2(new URL(url)));
    try {
      const greeting = await v2.callTool({ name: "greet", arguments: {} });
      check(
        greeting.content?.[0]?.text === "Hello, Ada!",
        "the scaffold's eliciting tool answers a 2026-07-28 client (MRTR signed with the .dev.vars secret)",
      );
    } finally {
      await v2.close();
    }
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log("\nconsumer test: passed");
