/**
 * Wire names of the HTTP headers MCP uses, named once for both lanes. Internal headers between
 * the Worker and its objects are not here: they are that contract's (durable-objects/sessions/contract.ts).
 */
export const HEADER_SESSION_ID = "Mcp-Session-Id";
export const HEADER_PROTOCOL_VERSION = "MCP-Protocol-Version";
export const HEADER_LAST_EVENT_ID = "Last-Event-ID";
/** 2026-07-28 Streamable HTTP "Standard Request Headers": the body's method and name, mirrored for intermediaries. */
export const HEADER_MCP_METHOD = "Mcp-Method";
export const HEADER_MCP_NAME = "Mcp-Name";
/** 2026-07-28: tool parameters marked `x-mcp-header` travel as `Mcp-Param-<name>`. */
export const HEADER_MCP_PARAM_PREFIX = "Mcp-Param-";
/** The body field each method mirrors into `Mcp-Name` (streamable-http.mdx "Standard Request Headers"; tasks by task id). */
export const MCP_NAME_SOURCES: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};
