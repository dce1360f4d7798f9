// Types for hostile-server.mjs (the e2e TypeScript has no Node types).

/** A misbehaving MCP server on 127.0.0.1: `${url}/<mode>/mcp` (dribble, endless, stall, bad-versions, null-tool, escapes). */
export function startHostileServer(): Promise<{ url: string; close(): Promise<void> }>;
