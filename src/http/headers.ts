/** Wire names of the HTTP headers MCP uses, named once. */
export const HEADER_SESSION_ID = "Mcp-Session-Id";
export const HEADER_PROTOCOL_VERSION = "MCP-Protocol-Version";
export const HEADER_LAST_EVENT_ID = "Last-Event-ID";
