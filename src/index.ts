/**
 * mcp-edge's public API (the package's "." export): define a server, serve it from a Worker
 * with createMcpEdge, export the Durable Object classes made from it (sessionObject(edge), ...). Nothing else is public;
 * the authorization parts are the "mcp-edge/oauth" subpath, test helpers "mcp-edge/testing".
 */
import { McpHub as HubClass } from "../durable-objects/hub/mcp-hub";
import { McpUser as UserClass } from "../durable-objects/user/mcp-user";
export { defineServer, ServerDefinition } from "./mcp/definition/server";
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
} from "./mcp/dispatch/context";
export type { RequestEnvelope } from "./mcp/era-2026/envelope";
export type { RequestInfo, ReadonlyHeaders } from "./mcp/dispatch/request-info";
export type { RouteParams } from "./mcp/dispatch/route-params";
export type { McpCall, Middleware, ErrorHook, UnexpectedError } from "./mcp/operations/middleware";
export type { RateLimitRule, RateLimitedCall } from "./http/rate-limits";
export type { TracingOptions, OtelApi, OtelTracer, OtelSpan, OtelSpanContext } from "./mcp/operations/tracing";
export type { OperationEvent, EventOptions } from "./mcp/operations/observe";
export type { CacheHint } from "./mcp/era-2026/caching";
export type { Icon } from "./mcp/definition/icons";
export { text, image, audio, resourceLink, embeddedResource, toolError, ToolError, toBase64 } from "./mcp/tools/content";
export type * from "./mcp/definition/types";
export type { JsonSchema, StandardJsonSchema, SchemaInput, ZodStyleShape, InferSchema } from "./mcp/tools/schema";
export { RpcError } from "./jsonrpc/errors";
export * as errorCodes from "./jsonrpc/errors";
export { createMcpEdge, type McpEdge, type WorkerFetch } from "./edge";
export { sessionObject, type McpSessionObject } from "../durable-objects/session/mcp-session";
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
export type { EdgeOptions, SessionOptions, ListenOptions } from "./options";
export type { DiscoveryOptions } from "./http/discovery";
export {
  TASKS_EXTENSION,
  UI_EXTENSION,
  SKILLS_EXTENSION,
  clientDeclares,
  clientExtension,
  checkExtensionMethod,
  missingExtensionError,
} from "./mcp/definition/extensions";
export {
  APP_MIME_TYPE,
  type ToolUi,
  type ToolVisibility,
  type UiCsp,
  type UiPermissions,
  type UiResourceConfig,
} from "./mcp/definition/apps";
export {
  defineSkill,
  type SkillDefinition,
  type SkillConfig,
  type SkillFileInput,
  type SkillFileContent,
} from "./mcp/definition/skills";
export type { TaskStatus } from "./tasks/model";
export type { TaskSupport, TaskToolOptions } from "./mcp/tools/task-tools";
export type { TaskOptions } from "./tasks/options";
export { taskObject, type McpTaskObject } from "../durable-objects/task/mcp-task";
export type { EdgeEnv } from "./env";
export type { Principal } from "./auth/principal";
export { SUPPORTED_VERSIONS, LATEST_VERSION, VERSIONS_2026, type ProtocolVersion, type Version2026 } from "./mcp/definition/versions";
/** @deprecated Renamed VERSIONS_2026 (the eras are called by their year); kept for code written against 0.2. */
export { VERSIONS_2026 as MODERN_VERSIONS, type Version2026 as ModernVersion } from "./mcp/definition/versions";
