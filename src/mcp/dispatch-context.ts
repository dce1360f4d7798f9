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
import type { ToolDefinition } from "./definitions";
import type { LoggingLevel } from "./types";
import type { AnyVersion } from "./versions";

/** Session state changes only the session object can make. */
export interface SessionOps {
  setLogLevel(level: LoggingLevel): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
}

/**
 * The Tasks extension's entry points (src/tasks/lane.ts), plugged in by the 2026-07-28 lane: the
 * core routes to them and never imports them. Absent elsewhere (tasks are negotiated on 2026-07-28 only).
 */
export interface TaskLane {
  /** Answers tasks/get, tasks/update or tasks/cancel. */
  serve(method: string, params: Params, hc: HandlerContext<unknown>): Promise<Params>;
  /** The CreateTaskResult when this call becomes a task; undefined to run it synchronously. */
  runIfChosen(
    tool: ToolDefinition<never>,
    args: Record<string, unknown>,
    hc: HandlerContext<unknown>,
    gathered: Record<string, unknown> | undefined,
  ): Promise<Params | undefined>;
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
  /** The Tasks extension, where a request may create or address tasks (the 2026-07-28 lane). */
  tasks?: TaskLane;
}

export type MethodHandler = <Env>(params: Params, dc: DispatchContext<Env>, hc: HandlerContext<Env>) => Promise<Params>;
