/**
 * The MCP data shapes the runtime builds and returns (2025-06-18 / 2025-11-25 schema), kept
 * to what handlers produce. Extra fields the spec allows pass through untouched.
 */

import type { Icon } from "./icons";

export type Annotations = { audience?: ("user" | "assistant")[]; priority?: number; lastModified?: string };
type Meta = { _meta?: Record<string, unknown> };

export type TextContent = { type: "text"; text: string; annotations?: Annotations } & Meta;
export type ImageContent = { type: "image"; data: string; mimeType: string; annotations?: Annotations } & Meta;
export type AudioContent = { type: "audio"; data: string; mimeType: string; annotations?: Annotations } & Meta;
export type ResourceLink = {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
} & Meta;

export type TextResourceContents = { uri: string; mimeType?: string; text: string } & Meta;
export type BlobResourceContents = { uri: string; mimeType?: string; blob: string } & Meta;
export type ResourceContents = TextResourceContents | BlobResourceContents;
export type EmbeddedResource = { type: "resource"; resource: ResourceContents; annotations?: Annotations } & Meta;

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface CallToolResult {
  content: ContentBlock[];
  /** Any JSON value (SEP-2106); checked against the tool's outputSchema when it declares one. */
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type Role = "user" | "assistant";
export interface PromptMessage {
  role: Role;
  content: TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
}
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  websiteUrl?: string;
}

export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
export const LOGGING_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && (LOGGING_LEVELS as readonly string[]).includes(value);
}

/** What the client declared in `initialize` (only the parts the server acts on are typed). */
export interface ClientCapabilities {
  sampling?: Record<string, unknown>;
  elicitation?: Record<string, unknown>;
  roots?: { listChanged?: boolean };
  [key: string]: unknown;
}

/** A sampling/createMessage request (2025-06-18 "Sampling"). */
export interface CreateMessageParams {
  messages: { role: Role; content: TextContent | ImageContent | AudioContent }[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: Record<string, unknown>;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface CreateMessageResult {
  role: Role;
  content: TextContent | ImageContent | AudioContent;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** The model asks to call one of the request's tools (sampling with tools, SEP-1577). */
export type ToolUseContent = { type: "tool_use"; id: string; name: string; input: Record<string, unknown> } & Meta;
/** The server's answer to a `tool_use`, sent back in the next sampling request's messages. */
export type ToolResultContent = {
  type: "tool_result";
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
} & Meta;
export type SamplingContentBlock = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/** A tool the client's model may call during one sampling request; it need not be one of the server's tools. */
export interface SamplingTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  [key: string]: unknown;
}

/** A sampling/createMessage request with tools (SEP-1577): messages may carry tool_use and tool_result blocks. */
export interface CreateMessageWithToolsParams {
  messages: { role: Role; content: SamplingContentBlock | SamplingContentBlock[] }[];
  maxTokens: number;
  tools: SamplingTool[];
  /** "auto" (default): the model decides; "required": it must call a tool; "none": it must not. */
  toolChoice?: { mode?: "auto" | "required" | "none" };
  systemPrompt?: string;
  modelPreferences?: Record<string, unknown>;
  temperature?: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The answer to a request with tools: always a list of blocks; `stopReason: "toolUse"` when it holds tool_use blocks to run. */
export interface CreateMessageWithToolsResult {
  role: Role;
  content: SamplingContentBlock[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export type ElicitResult<Content = Record<string, string | number | boolean | string[]>> =
  | { action: "accept"; content: Content }
  | { action: "decline" }
  | { action: "cancel" };

/** The answer to a URL mode elicitation: "accept" means the user agreed to open the URL. */
export interface UrlElicitResult {
  action: "accept" | "decline" | "cancel";
}

export interface Root {
  uri: string;
  name?: string;
}
