/**
 * What a method handler receives besides its params: the dispatch context a lane builds (the
 * server, env, era envelope, channel, session operations). Handlers import this file, the
 * dispatcher imports the handlers: the types live apart so neither imports the other.
 */
import type { Principal } from "../definition/principal";
import type { Params } from "../../jsonrpc/messages";
import type { Channel, HandlerContext, SessionInfo } from "../definition/context";
import type { RequestEnvelope } from "../era-2026/envelope";
import type { McpServer } from "../definition/server";
import type { ToolDefinition } from "../definition/definitions";
import type { Meter } from "../operations/observe";
import type { ClientCapabilities, LoggingLevel } from "../definition/types";
import type { AnyVersion } from "../definition/versions";
import type { RequestInfo } from "../definition/request-info";

/** Session state changes only the session object can make. */
export interface SessionOps {
  setLogLevel(level: LoggingLevel): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
}

/**
 * The Tasks extension's entry points (src/features/tasks/lane.ts), plugged in by the 2026-07-28 lane: the
 * core routes to them and never imports them. Absent elsewhere (tasks are negotiated on 2026-07-28 only).
 */
export interface TaskLane {
  /** Answers tasks/get, tasks/update or tasks/cancel. */
  serve(method: string, params: Params, handlerContext: HandlerContext<unknown>): Promise<Params>;
  /** The CreateTaskResult when this call becomes a task; undefined to run it synchronously. */
  runIfChosen(
    tool: ToolDefinition<never>,
    args: Record<string, unknown>,
    handlerContext: HandlerContext<unknown>,
    gathered: Record<string, unknown> | undefined,
  ): Promise<Params | undefined>;
}

export interface DispatchContext<Env> {
  server: McpServer<Env>;
  env: Env;
  /** The request's era, decided once by the Worker: "2026" exactly when `envelope` is present. */
  era: "2025" | "2026";
  /** Whether the runtime runs with sessions (decides `resources.subscribe`). */
  sessions: boolean;
  session: SessionInfo | undefined;
  protocolVersion: AnyVersion;
  /** Present exactly when the request is a 2026-07-28 one: its envelope (the era, decided once by the Worker). */
  envelope?: RequestEnvelope;
  /** What the client declared: this request's own (2026), or the session's (2025); undefined when stateless. */
  clientCapabilities: ClientCapabilities | undefined;
  /** 2026: every protocol version this server serves (discover's `supportedVersions`). */
  supportedVersions?: readonly string[];
  /** Present where interactive handlers can run; absent in the Worker's JSON lane. */
  channel: Channel | undefined;
  ops: SessionOps | undefined;
  /** The authenticated principal, when the server has auth. */
  principal?: Principal;
  /** The Tasks extension, where a request may create or address tasks (the 2026-07-28 lane). */
  tasks?: TaskLane;
  /** 2026: resource updates and list changes reach this client (the hub served and bound), so discover offers them. */
  hearsHub?: boolean;
  /** The HTTP request that started the call (`ctx.request`). */
  request?: RequestInfo;
  /** The span of the hop before this one (the Worker's, in the session object): the parent of this request's span. */
  traceparent?: string;
  /**
   * Durable Object requests the lane made before dispatching (the 2025 Worker's `confirm`), for the
   * cost counters: charged to the first request dispatched with this context, then zero.
   */
  unbilledDoRequests?: { count: number };
  /** What the operation sends and stores, counted by its channel (only when the server is observed). */
  meter?: Meter;
}

/** Where a request is served: a 2025-era request (a session's, or stateless), or a 2026-07-28 one. */
export type LaneContext =
  | {
      era: "2025";
      /** The session the request belongs to; undefined in stateless mode. */
      session: SessionInfo | undefined;
      /** The revision in force: the session's, or the header's when stateless. */
      protocolVersion: AnyVersion;
      sessions: boolean;
      channel?: Channel;
      ops?: SessionOps;
      principal?: Principal;
      request?: RequestInfo;
      /** The Worker's span, in the session object: the parent of this request's span. */
      traceparent?: string;
      /** The lane's own Durable Object requests before dispatch (a `confirm`). */
      doRequests?: number;
      meter?: Meter;
    }
  | {
      era: "2026";
      envelope: RequestEnvelope;
      supportedVersions: readonly string[];
      channel?: Channel;
      tasks?: TaskLane;
      /** The hub is served and bound (src/kernel/kernel.ts `clientsHearHub`); absent: it is not. */
      hearsHub?: boolean;
      principal?: Principal;
      request?: RequestInfo;
      meter?: Meter;
    };

/**
 * The one builder of a dispatch context, for every lane (the Worker's 2025 and 2026 lanes, the
 * session object). What differs by era is decided here: the revision, the session, and whose
 * capabilities an ask reads (the request's own on 2026-07-28, the session's on 2025).
 */
export function dispatchContext<Env>(server: McpServer<Env>, env: Env, lane: LaneContext): DispatchContext<Env> {
  if (lane.era === "2026") {
    return {
      server,
      env,
      era: "2026",
      sessions: false,
      session: undefined,
      protocolVersion: lane.envelope.protocolVersion as AnyVersion,
      envelope: lane.envelope,
      supportedVersions: lane.supportedVersions,
      clientCapabilities: lane.envelope.clientCapabilities,
      channel: lane.channel,
      ops: undefined,
      principal: lane.principal,
      tasks: lane.tasks,
      hearsHub: lane.hearsHub,
      request: lane.request,
      meter: lane.meter,
    };
  }
  return {
    server,
    env,
    era: "2025",
    sessions: lane.sessions,
    session: lane.session,
    protocolVersion: lane.protocolVersion,
    clientCapabilities: lane.session?.clientCapabilities,
    channel: lane.channel,
    ops: lane.ops,
    principal: lane.principal,
    request: lane.request,
    traceparent: lane.traceparent,
    unbilledDoRequests: lane.doRequests ? { count: lane.doRequests } : undefined,
    meter: lane.meter,
  };
}

export type MethodHandler = <Env>(params: Params, dispatch: DispatchContext<Env>, handlerContext: HandlerContext<Env>) => Promise<Params>;
