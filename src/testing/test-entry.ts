/**
 * `mcp-edge/testing/entry`, a test-only Worker entry (a subpath of its own: it imports the object
 * classes, so `mcp-edge/testing` stays importable from plain Node, e.g. to mint a token): the server the production entry serves, with `testAuth()` in place of
 * its verifier and every object class mcp-edge has, so the entry the tests run (the vitest
 * config's `main`) is three lines and the production entry never imports `mcp-edge/testing`.
 * Never deployed: `testAuth()` refuses test tokens off loopback hosts, and a bundle that contains
 * it can be found before `wrangler deploy` (docs/auth.md "Test sign-in never in production").
 */
import { createMcpEdge, type McpEdge } from "../edge";
import type { ServerDefinition } from "../mcp/definition/server";
import type { EdgeOptions } from "../kernel/options";
import { hubObject } from "../../durable-objects/hub/mcp-hub";
import { sessionObject } from "../../durable-objects/sessions/classes";
import { userObject } from "../../durable-objects/user/mcp-user";
import { taskObject } from "../tasks/task-object";
import { testAuth, type TestAuthOptions } from "./test-auth";

/** The production entry's options without `auth`, and the test verifier's. */
export interface TestEntryOptions<Env> extends Omit<EdgeOptions<Env>, "auth"> {
  /** `testAuth()`'s options (its `resource`, scopes per tool or resource, the secret's binding). */
  testAuth?: TestAuthOptions;
}

/** What a test entry exports: `export default entry.worker; export const { McpSession, McpHub, McpTask, McpUser } = entry;`. */
export interface TestEntry<Env> {
  /** The edge itself, e.g. for `deferredSessionObject(entry.edge)` when production serves deferred sessions. */
  edge: McpEdge<Env>;
  worker: McpEdge<Env>["worker"];
  McpSession: ReturnType<typeof sessionObject<Env>>;
  McpHub: ReturnType<typeof hubObject<Env>>;
  McpTask: ReturnType<typeof taskObject<Env>>;
  McpUser: ReturnType<typeof userObject<Env>>;
}

/** `server` served for tests: `createMcpEdge(server, { ...options, auth: testAuth(options.testAuth) })` and its object classes. */
export function testEntry<Env>(server: ServerDefinition<Env>, options: TestEntryOptions<NoInfer<Env>> = {}): TestEntry<Env> {
  if ("auth" in options) {
    throw new TypeError(
      "testEntry: its auth is testAuth(); pass testAuth's options as `testAuth`, and keep the production verifier in the production entry",
    );
  }
  const { testAuth: authOptions, ...edgeOptions } = options;
  const edge = createMcpEdge(server, { ...edgeOptions, auth: testAuth(authOptions) } as EdgeOptions<NoInfer<Env>>);
  return {
    edge,
    worker: edge.worker,
    McpSession: sessionObject(edge),
    McpHub: hubObject(edge),
    McpTask: taskObject(edge),
    McpUser: userObject(edge),
  };
}
