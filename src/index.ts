/**
 * mcp-edge's front face (the package's "." export): what defining and serving a server needs.
 * Define it, serve it from a Worker with createMcpEdge, export its Durable Object classes,
 * answer with content helpers and errors, publish changes; and the types a server author
 * writes against. Everything else public is a subpath: the wire's types and constants
 * "mcp-edge/types", extension plumbing "mcp-edge/extensions", authorization "mcp-edge/oauth",
 * the SDK v2 bus "mcp-edge/bus", test helpers "mcp-edge/testing".
 */
import { McpHub as HubClass } from "../durable-objects/hub/mcp-hub";
import { McpUser as UserClass } from "../durable-objects/user/mcp-user";
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
export type { RateLimitRule, RateLimitedCall } from "./kernel/options";
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
export { sessionObject } from "../durable-objects/sessions/classes";
export type { McpSessionObject } from "../durable-objects/sessions/mcp-session";
export { deferredSessionObject } from "../durable-objects/sessions/deferred";
export { notifyListChanged, notifyResourceUpdated } from "./notify";
export {
  publish,
  publishAndCount,
  closeListenStreams,
  type PublishEvent,
  type PublishReport,
  type PublishOptions,
  type ListKind,
} from "./publish";
export { endStreamsOf, type EndStreamsOptions, type EndStreamsReport } from "./revoke";
export { hubObject } from "../durable-objects/hub/mcp-hub";
export { userObject } from "../durable-objects/user/mcp-user";
/** @deprecated Use `export const McpHub = hubObject(edge)`, the idiom of every object class; goes in the next minor release. */
export const McpHub = HubClass;
/** @deprecated Use `hubObject(edge)`'s class. */
export type McpHub = HubClass;
/** @deprecated Use `export const McpUser = userObject(edge)`, the idiom of every object class; goes in the next minor release. */
export const McpUser = UserClass;
/** @deprecated Use `userObject(edge)`'s class. */
export type McpUser = UserClass;
export type { UserStore, UserOp, UserListOptions } from "./user";
export type { EdgeOptions, SessionOptions, ListenOptions } from "./kernel/options";
export type { DiscoveryOptions } from "./kernel/options";
export type { ToolUi, ToolVisibility, UiCsp, UiPermissions, UiResourceConfig } from "./mcp/definition/apps";
export {
  defineSkill,
  type SkillDefinition,
  type SkillConfig,
  type SkillFileInput,
  type SkillFileContent,
} from "./mcp/skills/skills";
export type { TaskStatus } from "../durable-objects/tasks/model";
export type { TaskSupport, TaskToolOptions } from "./mcp/definition/task-tools";
export type { TaskOptions } from "./kernel/options";
export { taskObject } from "./tasks/task-object";
export type { McpTaskObject } from "../durable-objects/tasks/mcp-task";
export type { EdgeEnv } from "./kernel/env";
export type { Principal } from "./auth/principal";
