/**
 * The shapes of an extension's own request methods and client notifications: what `defineMethod` /
 * `defineNotification` (handlers/methods.ts) make, what `server.add()` stores per server, and what
 * a feature can carry as is. Types only: a server that defines none bundles none of their code.
 */
import type { Params } from "../../jsonrpc/messages";
import type { JsonSchemaCompiler } from "../json-schema/types";
import type { InferSchema, SchemaInput } from "./schema";
import type { Channel, ErrorHook, HandlerContext } from "./context";

/** A method's or notification's params as its handler gets them: typed by the schema, else a plain record. */
export type MethodParams<I> = I extends SchemaInput ? InferSchema<I> : Record<string, unknown>;

/** What a method handler returns: the JSON-RPC `result` object (on 2026-07-28 mcp-edge adds `resultType` and `_meta`). */
export type MethodResult = Record<string, unknown>;

export interface MethodConfig<I extends SchemaInput | undefined = undefined> {
  /** What the method does, for the people reading the server's code and logs. */
  description?: string;
  /**
   * The params' schema (zod or any Standard Schema, a zod shape, or JSON Schema with `type: "object"`):
   * params that do not match are refused with -32602 naming the field, before the handler runs.
   * The handler gets the params without `_meta` (that is `ctx.meta`) and without the MRTR fields.
   */
  params?: I;
  /**
   * The extension the method belongs to (`"com.example/name"`): it exists only for a client that
   * declared it (2026-07-28: in this request's capabilities; 2025: in `initialize`), and the server
   * declares it (with `{}` when not declared already).
   */
  extension?: string;
  /** What validates a raw JSON Schema `params` (defineServer's `jsonSchema`): the core validator without it, `fullJsonSchema` for all of 2020-12. */
  jsonSchema?: JsonSchemaCompiler;
}

export interface NotificationConfig<I extends SchemaInput | undefined = undefined> {
  description?: string;
  /** As a method's: params that do not match are dropped, with a log line naming the field. */
  params?: I;
  /** As a method's: a client that did not declare the extension is not heard (the notification is dropped). */
  extension?: string;
  /** As a method's: what validates a raw JSON Schema `params`. */
  jsonSchema?: JsonSchemaCompiler;
}

/** What a client notification's handler gets: a request's context without an id or a signal (nothing answers it). */
export type NotificationContext<Env = unknown> = Omit<HandlerContext<Env>, "requestId" | "signal">;

/** A request method as defined by `defineMethod` / `defineInteractiveMethod`: add it with `server.add(definition)`. */
export interface MethodDefinition<Env = unknown> {
  readonly kind: "method";
  readonly method: string;
  readonly description: string | undefined;
  readonly extension: string | undefined;
  /** Whether its context can ask the client and send notifications (defineInteractiveMethod). */
  readonly interactive: boolean;
  /**
   * Answers one request: the gate, the params, the handler (with an interactive context over `channel`
   * where the lane has one). Throws an RpcError for the client.
   */
  run(params: Params, ctx: HandlerContext<Env>, channel: Channel | undefined): Promise<Params>;
}

/** A client notification as defined by `defineNotification`: add it with `server.add(definition)`. */
export interface NotificationDefinition<Env = unknown> {
  readonly kind: "notification";
  readonly method: string;
  readonly description: string | undefined;
  readonly extension: string | undefined;
  /** Hears one notification; never throws (a refusal or a failure is logged, and told to `hook`). */
  hear(params: Params, ctx: NotificationContext<Env>, hook: ErrorHook<Env> | undefined): Promise<void>;
}
