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
import type { FeatureObject } from "../kernel/feature";
import { sessions } from "../features/sessions/index";
import { hub } from "../features/hub/index";
import { tasks } from "../features/tasks/index";
import { user } from "../features/user/index";
import { auth } from "../features/auth/index";
import { testAuth, type TestAuthOptions } from "./test-auth";

/** The production entry's options without `auth`, and the test verifier's. */
export interface TestEntryOptions<Env> extends Omit<EdgeOptions<Env>, "auth"> {
  /** `testAuth()`'s options (its `resource`, scopes per tool or resource, the secret's binding). */
  testAuth?: TestAuthOptions;
}

/**
 * What a test entry exports: `export default entry.worker; export const { McpSession, McpHub, McpTask,
 * McpUser } = entry.objects;`.
 */
export interface TestEntry<Env> {
  /** The edge itself. */
  edge: McpEdge<Env>;
  worker: McpEdge<Env>["worker"];
  /** The object classes of the features it serves: `edge.objects`. */
  objects: McpEdge<Env>["objects"];
  /** The same classes by name (present when their feature is served, as it is by default). */
  McpSession: FeatureObject | undefined;
  McpHub: FeatureObject | undefined;
  McpTask: FeatureObject | undefined;
  McpUser: FeatureObject | undefined;
}

/**
 * `server` served for tests: `createMcpEdge(server, { ...options, features: [...features, auth(testAuth(options.testAuth))] })` and its
 * object classes. Without `features` it serves every built-in one (`sessions()`, `hub()`, `tasks()`, `user()`);
 * pass the production entry's (`features: [deferredSessions(), …]`) to test what production serves: an
 * `auth(…)` among them is replaced by the test verifier's.
 */
export function testEntry<Env>(server: ServerDefinition<Env>, options: TestEntryOptions<NoInfer<Env>> = {}): TestEntry<Env> {
  if ("auth" in options) {
    throw new TypeError(
      "testEntry: its auth is testAuth(); pass testAuth's options as `testAuth`, and keep the production verifier in the production entry",
    );
  }
  const { testAuth: authOptions, features = [sessions(), hub(), tasks(), user()], ...edgeOptions } = options;
  // The production entry's features may hold its auth(): the test verifier takes its place.
  const served = [...features.filter((feature) => feature.name !== "auth"), auth(testAuth(authOptions))];
  const edge = createMcpEdge(server, { ...edgeOptions, features: served } as EdgeOptions<NoInfer<Env>>);
  const { objects } = edge;
  return {
    edge,
    worker: edge.worker,
    objects,
    McpSession: objects.McpSession,
    McpHub: objects.McpHub,
    McpTask: objects.McpTask,
    McpUser: objects.McpUser,
  };
}
