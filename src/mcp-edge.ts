/** mcp-edge's public API: define a server, then serve it from a Worker with createMcpEdge. */
export { defineServer, McpServer } from "./mcp/server";
export type {
  ServerConfig, ToolConfig, ResourceConfig, PromptConfig, PromptArgument, Completer, CompletionContext, ReadResult, EnabledPredicate,
} from "./mcp/server";
export type { HandlerContext, InteractiveContext, SessionInfo, SamplingRequest, AskOptions } from "./mcp/context";
export type { RequestEnvelope } from "./mcp/envelope";
export type { CacheHint } from "./mcp/caching";
export { text, image, audio, resourceLink, embeddedResource, toolError, toBase64 } from "./mcp/content";
export type * from "./mcp/types";
export type { JsonSchema, StandardJsonSchema } from "./mcp/schema";
export { RpcError } from "./jsonrpc/errors";
export * as errorCodes from "./jsonrpc/errors";
export { createMcpEdge, type McpEdge } from "./edge";
export { notifyListChanged, notifyResourceUpdated } from "./notify";
export type { EdgeOptions, SessionOptions } from "./options";
export type { EdgeEnv } from "./env";
export { SUPPORTED_VERSIONS, LATEST_VERSION, MODERN_VERSIONS, type ProtocolVersion, type ModernVersion } from "./mcp/versions";
