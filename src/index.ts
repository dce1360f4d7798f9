/**
 * mcp-edge's front face (the package's "." export): what defining and serving a server needs.
 * Define it, serve it from a Worker with createMcpEdge, answer with content helpers and errors;
 * and the types a server author writes against. Each feature is its own subpath, offering its
 * factory for `features` (and its helpers): "mcp-edge/sessions", "mcp-edge/hub" (publish and
 * the notify helpers), "mcp-edge/tasks", "mcp-edge/user", "mcp-edge/auth", "mcp-edge/events",
 * "mcp-edge/discovery", "mcp-edge/rate-limits", "mcp-edge/observe", "mcp-edge/skills", and the Apps
 * pages "mcp-edge/apps". The rest: the
 * wire's types and constants "mcp-edge/types", extension plumbing "mcp-edge/extensions", the
 * verifiers and the authorization server "mcp-edge/oauth", the SDK v2 bus "mcp-edge/bus", test
 * helpers "mcp-edge/testing".
 */
export { defineServer, type ServerDefinition } from "./mcp/definition/server";
export type {
  ServerConfig,
  ToolConfig,
  ResourceConfig,
  ResourceTemplateConfig,
  ListedResource,
  TemplateListContext,
  TemplateListPage,
  PromptConfig,
  PromptArgument,
  Completer,
  CompletionContext,
  ReadResult,
  ResourceContentsInput,
  EnabledPredicate,
  ToolHandler,
  Awaitable,
} from "./mcp/definition/server";
export type {
  HandlerContext,
  InteractiveContext,
  ElicitContent,
  SessionInfo,
  SessionState,
  SamplingRequest,
  ElicitUrlOptions,
  AskOptions,
} from "./mcp/definition/context";
export type { RequestInfo, ReadonlyHeaders } from "./mcp/definition/request-info";
export type { RouteParams } from "./wire/route-params";
export type { McpCall, Middleware, ErrorHook, UnexpectedError } from "./mcp/definition/context";
export type { TracingOptions, OtelApi, OtelTracer, OtelSpan, OtelSpanContext } from "./mcp/operations/tracing";
export type { OperationEvent, EventOptions } from "./mcp/operations/observe";
export type { CacheHint } from "./mcp/definition/caching";
export type { Icon } from "./mcp/definition/icons";
export { text, image, audio, resourceLink, embeddedResource, toolError, ToolError } from "./mcp/definition/content";
export { RpcError } from "./jsonrpc/errors";
export {
  reauthenticate,
  needScopes,
  AuthorizationChallenge,
  type ScopeCall,
  type ScopeRequirement,
} from "./mcp/definition/authorization";
export { createMcpEdge, type McpEdge, type WorkerFetch } from "./edge";
export type { Feature } from "./kernel/feature";
// Deprecated, kept one release so a project written before features still builds (CHANGELOG "Unreleased"):
// the object factories of that idiom. `features: [sessions(), …]` and `edge.objects` replace them.
export { sessionObject, deferredSessionObject } from "./features/sessions/session-object";
export type { McpSessionObject } from "../durable-objects/sessions/mcp-session";
export { hubObject } from "./features/hub/hub-object";
export { userObject } from "./features/user/user-object";
export type { UserStore, UserOp, UserListOptions } from "./features/user/user-store";
export type { EdgeOptions, SessionOptions, ListenOptions } from "./kernel/options";
export type { ToolUi, ToolVisibility, UiCsp, UiPermissions, UiResourceConfig } from "./mcp/definition/apps";
export type { TaskStatus } from "../durable-objects/tasks/model";
export type { TaskSupport, TaskToolOptions } from "./mcp/definition/task-tools";
export type { TaskOptions } from "./kernel/options";
export { taskObject } from "./features/tasks/task-object"; // deprecated: `tasks()` from mcp-edge/tasks
export type { McpTaskObject } from "../durable-objects/tasks/mcp-task";
export type { EdgeEnv } from "./kernel/env";
export type { Principal } from "./auth/principal";
