// `mcp-edge doctor <url>` (bin/mcp-edge.mjs) run as a user runs it, against real Workers on
// 127.0.0.1: the demo (everything configured), the scaffold `npm create mcp-edge` writes, and
// deliberately broken deployments: no MCP_STATE_SECRET, no MCP_HUB binding, a host name missing
// from the allowed hosts. Each broken one must fail with the finding (and fix) that names it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort, startWorker, type WorkerServer } from "../../../scripts/worker-server.mjs";
import { type DoctorRun, type Finding, runDoctor, startHostProxy } from "../helpers/doctor.mjs";
import { mintTestToken } from "../../../src/testing/test-auth";

const SECRET = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
const DEPLOYED_HOST = "mcp.example.test";

/** Starts a Worker for the calling describe; `get()` inside tests. */
function serve(options: Parameters<typeof startWorker>[0]): () => WorkerServer {
  let server: WorkerServer | undefined;
  beforeAll(async () => {
    server = await startWorker(options);
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);
  return () => server!;
}

function finding(run: DoctorRun, check: string): Finding | undefined {
  return run.report?.findings.find((f) => f.check === check);
}

/** Each check's first finding's status (tasks may add a second: a task round, or why there was none). */
function statuses(run: DoctorRun): Record<string, string> {
  return Object.fromEntries((run.report?.findings ?? []).toReversed().map((f) => [f.check, f.status]));
}

/** Runs the doctor through a proxy that presents the Worker as `host` (a deployment's own domain). */
async function doctorAs(server: WorkerServer, host: string): Promise<DoctorRun> {
  const proxy = await startHostProxy(server.url, host);
  try {
    return await runDoctor([`${proxy.url}/mcp`, "--json"]);
  } finally {
    await proxy.close();
  }
}

describe("the demo, configured", () => {
  const server = serve({ vars: { MCP_STATE_SECRET: SECRET, MCP_ALLOWED_HOSTS: DEPLOYED_HOST } });

  it("passes every check: both eras list tools, origins and hosts are guarded, a round completes, listen and tasks answer", async () => {
    const run = await runDoctor([server().mcpUrl, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.report?.ok).toBe(true);
    expect(statuses(run)).toMatchObject({
      tls: "ok",
      reachable: "ok",
      "allowed-hosts": "ok",
      "era-2026": "ok",
      "tools-2026": "ok",
      "era-2025": "ok",
      "tools-2025": "ok",
      origin: "ok",
      cors: "ok",
      "dns-rebinding": "ok",
      "state-secret": "ok",
      listen: "ok",
      tasks: "ok",
    });
    expect(run.report?.findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(finding(run, "tools-2025")?.message).toMatch(/in the session\) answers \d+ tool/);
    // The card's reverse-DNS name differs from serverInfo.name, which the card allows: no warning.
    expect(finding(run, "server-card")).toMatchObject({ status: "ok", message: expect.stringContaining("which the card allows") });
    expect(run.report?.findings.filter((f) => f.status === "warn")).toEqual([]);
  });

  it("runs one task with --task-tool and finds it with tasks/get", async () => {
    const run = await runDoctor([server().mcpUrl, "--json", "--task-tool", "slow_compute", "--task-args", '{"seconds":0}']);
    expect(run.code).toBe(0);
    expect(run.report?.findings.filter((f) => f.check === "tasks")).toEqual([
      expect.objectContaining({ status: "ok" }),
      expect.objectContaining({ status: "ok", message: expect.stringContaining('"slow_compute" ran as a task and tasks/get finds it') }),
    ]);
  });

  it("a task that ends failed is a failed finding with its status message, not 'ok … (failed)'", async () => {
    const run = await runDoctor([server().mcpUrl, "--json", "--task-tool", "protocol_error_job"]);
    expect(run.code).toBe(1);
    expect(run.report?.findings.filter((f) => f.check === "tasks")[1]).toMatchObject({
      status: "fail",
      message: expect.stringContaining('"protocol_error_job" ran as a task (the task object works), but the task ended failed'),
      fix: expect.stringContaining("--task-args"),
    });
  });

  it("accepts the deployed host name listed in MCP_ALLOWED_HOSTS, and sees the Server Card name that host, not the URL used", async () => {
    const run = await doctorAs(server(), DEPLOYED_HOST);
    expect(finding(run, "allowed-hosts")?.status).toBe("ok");
    expect(finding(run, "dns-rebinding")?.status).toBe("ok");
    // The proxy rewrites Host: the card's remote is http://mcp.example.test/mcp, which is not
    // where this client connected. The one failure says so.
    expect(run.report?.findings.filter((f) => f.status === "fail")).toEqual([
      expect.objectContaining({ check: "server-card", message: expect.stringContaining(`(http://${DEPLOYED_HOST}/mcp`) }),
    ]);
    expect(run.code).toBe(1);
  });

  it("checks the browser origin given with --origin: allowed when its host is an allowed host, else a failure naming allowedOrigins", async () => {
    const own = await runDoctor([server().mcpUrl, "--json", "--origin", server().url]);
    expect(own.report?.findings.filter((f) => f.check === "cors").map((f) => f.status)).toEqual(["ok", "ok"]);
    const other = await runDoctor([server().mcpUrl, "--json", "--origin", "https://app.example.com"]);
    expect(other.code).toBe(1);
    expect(other.report?.findings.filter((f) => f.check === "cors" && f.status === "fail")).toEqual([
      expect.objectContaining({ fix: expect.stringContaining('Add "https://app.example.com" to the allowedOrigins option') }),
    ]);
  });

  it("prints findings for people: one line each, a summary, exit code 0", async () => {
    const run = await runDoctor([server().mcpUrl]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ok +state-secret: a 2026-07-28 interactive round/m);
    expect(run.stdout).toMatch(/\d+ ok, \d+ warning\(s\), 0 failure\(s\)/);
  });
});

describe("the scaffold (create-mcp-edge/template)", () => {
  const server = serve({ configPath: "test/servers/doctor-scaffold/wrangler.toml", vars: { MCP_STATE_SECRET: SECRET } });

  it("passes, finds its interactive tool for the state secret, and finds listen acknowledged with the empty set (no hub needed)", async () => {
    const run = await runDoctor([server().mcpUrl, "--json"]);
    expect(run.code, JSON.stringify(run.report?.findings.filter((f) => f.status === "fail"))).toBe(0);
    expect(finding(run, "tools-2026")?.message).toContain("2 tool(s)");
    expect(finding(run, "tools-2025")?.message).toContain("2 tool(s)");
    expect(finding(run, "state-secret")).toMatchObject({ status: "ok", message: expect.stringContaining('"greet"') });
    expect(finding(run, "listen")).toMatchObject({ status: "ok", message: expect.stringContaining("the empty set") });
    expect(finding(run, "server-card")?.status).toBe("skip");
    // No false alarm on a new project, and the directory checks only when asked for.
    expect(run.report?.findings.filter((f) => f.status === "warn")).toEqual([]);
    expect(finding(run, "tool-annotations")).toBeUndefined();
    // The fix for a missing card names what the scaffold's defineServer still lacks.
    expect(finding(run, "server-card")?.fix).toBe(
      'Optional: give defineServer({ name: "com.example/my-mcp-server", description: "<what it does, 1-100 characters>", … }), then pass discovery() from mcp-edge/discovery among the features of createMcpEdge (docs/discovery.md)',
    );
  });

  it("--directory names what the directories would refuse: tools without titles and hints, no icon, no domain token", async () => {
    const run = await runDoctor([server().mcpUrl, "--json", "--directory"]);
    expect(run.code).toBe(1);
    expect(finding(run, "tool-annotations")).toMatchObject({
      status: "fail",
      message: expect.stringContaining('no title: "add", "greet"'),
      fix: expect.stringContaining("annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false }"),
    });
    expect(statuses(run)).toMatchObject({
      "tool-names": "ok",
      icons: "warn",
      "output-schemas": "warn",
      "search-fetch": "skip",
      "chatgpt-domain": "warn",
      "connector-agents": "ok",
      "connector-cors": "ok",
    });
    expect(finding(run, "ui-domain")).toBeUndefined();
  });
});

describe("--directory: a server ready for the directories (test/servers/directory)", () => {
  const server = serve({ configPath: "test/servers/directory/wrangler.toml", vars: { MCP_STATE_SECRET: SECRET } });

  it("passes every directory check, without a warning", async () => {
    const run = await runDoctor([server().mcpUrl, "--json", "--directory"]);
    expect(run.code, JSON.stringify(run.report?.findings.filter((f) => f.status !== "ok"))).toBe(0);
    expect(statuses(run)).toMatchObject({
      "tool-annotations": "ok",
      "tool-names": "ok",
      icons: "ok",
      "output-schemas": "ok",
      "search-fetch": "ok",
      "chatgpt-domain": "ok",
      "ui-domain": "ok",
      "connector-agents": "ok",
      "connector-cors": "ok",
    });
    expect(run.report?.findings.filter((f) => f.status === "warn" || f.status === "fail")).toEqual([]);
  });
});

describe("test sign-in (testAuth, test/servers/package-kit)", () => {
  const TEST_SECRET = "doctor-test-auth-secret-0123456789abcdef";
  const DEPLOYED = "mcp.doctor.test";
  const server = serve({
    configPath: "test/servers/package-kit/wrangler.toml",
    vars: { MCP_STATE_SECRET: SECRET, MCP_TEST_AUTH_SECRET: TEST_SECRET, MCP_ALLOWED_HOSTS: DEPLOYED },
  });
  // The doctor reaches the local Worker by a name that is not loopback, as it reaches a deployment.
  const resolveLocal = ["--import", new URL("../helpers/resolve-local.mjs", import.meta.url).pathname];
  const deployedUrl = () => server().mcpUrl.replace("127.0.0.1", DEPLOYED);

  it("on a local server: fine (ok), and says it saw the test verifier", async () => {
    const run = await runDoctor([server().mcpUrl, "--json"]);
    expect(finding(run, "test-auth")).toMatchObject({ status: "ok", message: expect.stringContaining("on a local server") });
  });

  // testAuth() refuses test tokens on a host that is not loopback (docs/auth.md "Test sign-in never in production"):
  // a test entry deployed by mistake lets nobody in, and the doctor says which entry is deployed.
  describe("behind testAuth({ allowNonLoopbackHosts: true }) (test/servers/package-kit/open-entry.ts)", () => {
    const open = serve({
      configPath: "test/servers/package-kit/wrangler.open.toml",
      vars: { MCP_STATE_SECRET: SECRET, MCP_TEST_AUTH_SECRET: TEST_SECRET, MCP_ALLOWED_HOSTS: DEPLOYED },
    });
    const openUrl = () => open().mcpUrl.replace("127.0.0.1", DEPLOYED);

    it("on a host that is not loopback, a test token given with --token is accepted: a failure naming the secret to delete", async () => {
      const token = await mintTestToken({ subject: "ada", secret: TEST_SECRET });
      const run = await runDoctor([openUrl(), "--json", "--token", token], { nodeArgs: resolveLocal });
      expect(finding(run, "test-auth")).toMatchObject({
        status: "fail",
        message: expect.stringContaining("the test token given with --token was accepted"),
        fix: expect.stringContaining("npx wrangler secret delete MCP_TEST_AUTH_SECRET"),
      });
      expect(run.code).toBe(1);
    });

    it("without a token: a forged test token refused in testAuth()'s words is a failure too", async () => {
      const run = await runDoctor([openUrl(), "--json"], { nodeArgs: resolveLocal });
      expect(finding(run, "test-auth")).toMatchObject({
        status: "fail",
        message: expect.stringContaining("a forged test token is refused in testAuth()'s words"),
      });
    });
  });

  it("on a host that is not loopback: a warning naming the entry to deploy, from a forged test token's refusal", async () => {
    const run = await runDoctor([deployedUrl(), "--json"], { nodeArgs: resolveLocal });
    expect(finding(run, "test-auth")).toMatchObject({
      status: "warn",
      message: expect.stringMatching(new RegExp(`the test-only entry answers at ${DEPLOYED}:\\d+: testAuth\\(\\) refuses test tokens`)),
      fix: expect.stringContaining("your real verifier"),
    });
  });
});

describe("broken: no MCP_STATE_SECRET, and a host name not in the allowed hosts", () => {
  const server = serve({ vars: { MCP_ALLOWED_HOSTS: "mcp.example.com" } });

  it("fails the state-secret check with how to set it, exit code 1", async () => {
    const run = await runDoctor([server().mcpUrl, "--json"]);
    expect(run.code).toBe(1);
    expect(run.report?.ok).toBe(false);
    expect(finding(run, "state-secret")).toMatchObject({
      status: "fail",
      message: expect.stringContaining("MCP_STATE_SECRET secret is not set"),
      fix: expect.stringContaining("wrangler secret put MCP_STATE_SECRET"),
    });
    expect(finding(run, "tools-2026")?.status).toBe("ok");
  });

  it("fails allowed-hosts when reached as a host the server does not list, naming the host to add", async () => {
    const run = await doctorAs(server(), DEPLOYED_HOST);
    expect(run.code).toBe(1);
    expect(finding(run, "allowed-hosts")).toMatchObject({
      status: "fail",
      message: expect.stringContaining(`"${DEPLOYED_HOST}" is not an allowed host`),
      fix: expect.stringContaining(`Add "${DEPLOYED_HOST}" to the allowedHosts option`),
    });
    // Nothing behind a refused host can be checked: no misleading second-hand failures.
    expect(run.report?.findings.filter((f) => f.status === "fail")).toHaveLength(1);
  });
});

describe("broken: no MCP_HUB binding", () => {
  const server = serve({ configPath: "test/servers/doctor-no-hub/wrangler.toml", vars: { MCP_STATE_SECRET: SECRET } });

  it("fails listen with the wrangler.toml lines and the export to add", async () => {
    const run = await runDoctor([server().mcpUrl, "--json"]);
    expect(run.code).toBe(1);
    expect(finding(run, "listen")).toMatchObject({
      status: "fail",
      message: expect.stringContaining("needs the MCP_HUB Durable Object binding"),
      fix: expect.stringMatching(
        /name = "MCP_HUB"[\s\S]*export const \{ McpHub \} = edge\.objects; \(with hub\(\) in createMcpEdge's features\)/,
      ),
    });
    expect(finding(run, "tasks")?.status).toBe("ok");
  });
});

describe("broken: bindings without their migrations (test/servers/misconfigured)", () => {
  const server = serve({ configPath: "test/servers/misconfigured/wrangler.toml", vars: { MCP_STATE_SECRET: SECRET } });

  it("fails the task round with the McpTask migration to add (tasks/get of an unknown id cannot tell)", async () => {
    const run = await runDoctor([server().mcpUrl, "--json", "--task-tool", "slow_compute", "--task-args", '{"seconds":0}']);
    expect(run.code).toBe(1);
    const tasks = run.report?.findings.filter((f) => f.check === "tasks");
    expect(tasks?.map((f) => f.status)).toEqual(["ok", "fail"]);
    expect(tasks?.[1]).toMatchObject({
      message: expect.stringContaining('a task-augmented call of "slow_compute" created no task'),
      fix: expect.stringContaining('new_sqlite_classes = ["McpTask"]'),
    });
  });
});

describe("a server with auth (wrangler.auth.toml)", () => {
  let port = 0;
  let server: WorkerServer | undefined;
  beforeAll(async () => {
    port = await findFreePort();
    server = await startWorker({
      configPath: "wrangler.auth.toml",
      port,
      vars: { MCP_STATE_SECRET: SECRET, MCP_PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it("stops at the 401 (warning: no token) and finds protected-resource metadata naming this endpoint", async () => {
    const run = await runDoctor([server!.mcpUrl, "--json"]);
    expect(run.code, JSON.stringify(run.report?.findings)).toBe(0);
    expect(finding(run, "auth")).toMatchObject({ status: "warn", fix: expect.stringContaining("--token") });
    expect(finding(run, "auth-metadata")).toMatchObject({ status: "ok", message: expect.stringContaining("names this endpoint") });
    expect(finding(run, "tools-2026")).toBeUndefined();
  });

  it("fails auth-metadata when the server is reached at another URL than the resource it names", async () => {
    const proxy = await startHostProxy(server!.url, `127.0.0.1:${port}`);
    try {
      const run = await runDoctor([`${proxy.url}/mcp`, "--json"]);
      expect(run.code).toBe(1);
      expect(finding(run, "auth-metadata")).toMatchObject({
        status: "fail",
        message: expect.stringContaining(`names the resource "http://127.0.0.1:${port}/mcp"`),
        // The fix names the project's own option, with the URL the doctor reached.
        fix: expect.stringContaining(`auth: { resource: "${proxy.url}/mcp"`),
      });
    } finally {
      await proxy.close();
    }
  });
});

describe("usage", () => {
  it("refuses a missing or malformed URL with exit code 2 and the usage", async () => {
    const none = await runDoctor([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("doctor needs the server's URL");
    const bad = await runDoctor(["not a url"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"not a url" is not a URL');
  });

  it("fails reachable for a port nobody serves", async () => {
    const run = await runDoctor(["http://127.0.0.1:9/mcp", "--json", "--timeout", "3000"]);
    expect(run.code).toBe(1);
    expect(finding(run, "reachable")).toMatchObject({ status: "fail", message: expect.stringContaining("could not be reached") });
  });
});
