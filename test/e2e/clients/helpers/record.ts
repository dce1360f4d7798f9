// One compatibility record per test file: `useCompatRecord(info)` at the top of a file writes
// results/compat/<id>.json after the file's tests (afterAll), with each test's outcome read from
// vitest's task tree. Tests fill in what only they can see (the negotiated revision).
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll } from "vitest";
import { packageVersion, writeCompatRecord, type CompatRecord, type CompatTest } from "./compat.mjs";

export type CompatInfo = Pick<CompatRecord, "id" | "order" | "client" | "version" | "transport" | "exercised"> & {
  /** Known up front (e.g. a test asserts it); otherwise a test sets `handle.protocol`. */
  protocol?: string;
};

export interface CompatHandle {
  /** The protocol revision the server answered initialize with. */
  protocol: string | undefined;
}

interface TaskLike {
  type: string;
  name: string;
  mode: string;
  tasks?: TaskLike[];
  result?: { state?: string; errors?: unknown[] };
}

function collectTests(task: TaskLike, into: CompatTest[], prefix = ""): CompatTest[] {
  for (const child of task.tasks ?? []) {
    const name = prefix ? `${prefix} > ${child.name}` : child.name;
    if (child.type === "suite") {
      collectTests(child, into, name);
      // A failed beforeAll/afterAll marks the suite, not its tests (those are skipped).
      if (child.result?.state === "fail" && child.result.errors?.length) into.push({ name: `${name} (hooks)`, state: "fail" });
    } else if (child.type === "test" && child.mode !== "skip" && child.mode !== "todo") {
      into.push({ name, state: (child.result?.state ?? "not run") as CompatTest["state"] });
    }
  }
  return into;
}

/** Registers an afterAll that writes this file's compatibility record. */
export function useCompatRecord(info: CompatInfo): CompatHandle {
  const handle: CompatHandle = { protocol: info.protocol };
  // biome-ignore lint/correctness/noEmptyPattern: vitest requires a destructuring pattern before the suite argument
  afterAll(({}, suite) => {
    const root = suite as unknown as TaskLike & { file?: { name: string } };
    const tests = collectTests(root, []);
    writeCompatRecord({
      ...info,
      protocol: handle.protocol,
      file: root.file?.name ?? root.name,
      tests,
      passed: tests.length > 0 && tests.every((t) => t.state === "pass"),
    });
  });
  return handle;
}

const SDK = `@modelcontextprotocol/sdk ${packageVersion("@modelcontextprotocol/sdk")}`;

/**
 * Rows for the SDK end-to-end files outside clients/ (one `useCompatRecord(SDK_ROWS.x)` line each).
 * foundation and legacy-sse assert the revision given here; sessions runs the same SDK client as
 * foundation against the same server.
 */
export const SDK_ROWS = {
  foundation: {
    id: "sdk-streamable-http",
    order: 10,
    client: "Official TypeScript SDK",
    version: SDK,
    transport: "Streamable HTTP, sessions (`/mcp`) and stateless (`/stateless/mcp`)",
    protocol: LATEST_PROTOCOL_VERSION,
    exercised: [
      "initialize",
      "tools/list, tools/call (text, structured, isError)",
      "resources/list, templates/list, read (text, blob, template)",
      "prompts/list, prompts/get",
      "completion/complete",
      "ping",
      "stateless progress",
    ],
  },
  sessions: {
    id: "sdk-sessions",
    order: 20,
    client: "Official TypeScript SDK (sessions)",
    version: SDK,
    transport: "Streamable HTTP (`/mcp`), session Durable Object",
    protocol: LATEST_PROTOCOL_VERSION,
    exercised: [
      "sampling, elicitation, roots",
      "progress, logging/setLevel",
      "cancellation, 50 concurrent calls",
      "session isolation",
      "resumption with Last-Event-ID",
      "DELETE and 404 after it",
    ],
  },
  legacySse: {
    id: "sdk-legacy-sse",
    order: 30,
    client: "Official TypeScript SDK, legacy transport",
    version: SDK,
    transport: "HTTP+SSE (`/sse`, 2024-11-05)",
    protocol: "2024-11-05",
    exercised: ["endpoint event", "initialize", "tools/list, tools/call", "progress on the SSE stream", "sampling"],
  },
} satisfies Record<string, CompatInfo>;
