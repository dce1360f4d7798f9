/** mcp-edge's public API: define a server, then serve it from a Worker with createMcpEdge. */
export { defineServer, McpServer } from "./mcp/server";
export type {
  ServerConfig, ToolConfig, ResourceConfig, PromptConfig, PromptArgument, Completer, CompletionContext, ReadResult, EnabledPredicate,
} from "./mcp/server";
export type { HandlerContext, InteractiveContext, SessionInfo, SamplingRequest } from "./mcp/context";
export { text, image, audio, resourceLink, embeddedResource, toolError, toBase64 } from "./mcp/content";
export type * from "./mcp/types";
export type { JsonSchema, StandardJsonSchema } from "./mcp/schema";
export { RpcError } from "./jsonrpc/errors";
export * as errorCodes from "./jsonrpc/errors";
export { createMcpEdge, type McpEdge } from "./edge";
export { notifyListChanged, notifyResourceUpdated } from "./notify";
export type { EdgeOptions, SessionOptions } from "./options";
export type { EdgeEnv } from "./env";
export { TASKS_EXTENSION, UI_EXTENSION, clientDeclares, clientExtension, checkExtensionMethod, missingExtensionError } from "./mcp/extensions";
export { APP_MIME_TYPE, type ToolUi, type UiCsp, type UiPermissions, type UiResourceConfig } from "./mcp/apps";
export { createTask, runAsTaskIfChosen, serveTaskMethod, decideTaskExecution, isTaskMethod, visibleTaskIds, type CreateTaskRequest } from "./tasks/lane";
export type { TaskStatus, TaskSupport, TaskToolOptions } from "./tasks/model";
export type { TaskOptions } from "./tasks/options";
export { SUPPORTED_VERSIONS, LATEST_VERSION, type ProtocolVersion } from "./mcp/versions";
