/**
 * The bindings and variables mcp-edge reads: the only place they are named. Your own Env extends this.
 * The Durable Object namespaces are typed plainly: each feature types its stubs where it makes them
 * (requireNamespace), so the kernel imports no feature's contract.
 */

export interface EdgeEnv {
  /** The session Durable Object namespace (session mode). */
  MCP_SESSION?: DurableObjectNamespace;
  /** The subscription hub (listen streams, publish fan-out, 2025-era subscriptions). */
  MCP_HUB?: DurableObjectNamespace;
  /**
   * The task Durable Object namespace (Tasks extension): needed when a tool declares `task`. Its
   * class also plays the per-client ledger (an object named after a client key).
   */
  MCP_TASK?: DurableObjectNamespace;
  /** Per-principal stores (`ctx.user`): one McpUser object per principal subject. */
  MCP_USER?: DurableObjectNamespace;
  /** The Events extension's objects (`events()`): one McpEvents object per emitted event type. */
  MCP_EVENTS?: DurableObjectNamespace;
  /** Comma-separated host names added to `allowedHosts`. */
  MCP_ALLOWED_HOSTS?: string;
  /**
   * Replaces `listen.maxStreamsPerClient` (a positive whole number), e.g. for a load test from
   * one address; leave it unset in production.
   */
  MCP_LISTEN_MAX_PER_CLIENT?: string;
  /**
   * Replaces `session.idleTimeoutMs` (a positive whole number of milliseconds), e.g. so a test
   * watches a whole session life in a minute; leave it unset in production.
   */
  MCP_SESSION_IDLE_TIMEOUT_MS?: string;
  /** Comma-separated origins added to `allowedOrigins`. */
  MCP_ALLOWED_ORIGINS?: string;
  /** Signs 2026-07-28 MRTR `requestState` (at least 32 characters; `wrangler secret put MCP_STATE_SECRET`). */
  MCP_STATE_SECRET?: string;
}
