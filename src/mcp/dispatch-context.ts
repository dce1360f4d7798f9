/**
 * What a method handler receives besides its params: the dispatch context a lane builds (the
 * server, env, era envelope, channel, session operations). Handlers import this file, the
 * dispatcher imports the handlers: the types live apart so neither imports the other.
 */
import type { Principal } from "../auth/principal";
import type { Params } from "../jsonrpc/messages";
import type { Channel, HandlerContext, SessionInfo } from "./context";
import type { RequestEnvelope } from "./envelope";
import type { McpServer } from "./server";
import type { LoggingLevel } from "./types";
import type { AnyVersion } from "./versions";

/** Session state changes only the session object can make. */
export interface SessionOps {
  setLogLevel(level: LoggingLevel): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
}

export interface DispatchContext<Env> {
  server: McpServer<Env>;
  env: Env;
  /** Whether the runtime runs with sessions (decides `resources.subscribe`). */
  sessions: boolean;
  session: SessionInfo | undefined;
  protocolVersion: AnyVersion;
  /** Present exactly when the request is a 2026-07-28 one: its envelope (the era, decided once by the Worker). */
  envelope?: RequestEnvelope;
  /** 2026: every protocol version this server serves (discover's `supportedVersions`). */
  supportedVersions?: readonly string[];
  /** Present where interactive handlers can run; absent in the Worker's JSON lane. */
  channel: Channel | undefined;
  ops: SessionOps | undefined;
  /** The authenticated principal, when the server has auth. */
  principal?: Principal;
  /** Who per-client caps count this request against (src/http/client-key.ts); set by the 2026-07-28 lane. */
  clientKey?: string;
}

export type MethodHandler = <Env>(params: Params, dc: DispatchContext<Env>, hc: HandlerContext<Env>) => Promise<Params>;
