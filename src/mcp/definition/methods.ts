/**
 * An extension's own request methods and client notifications, as plain typed values: what
 * `defineMethod` / `defineNotification` make, what `server.method()` / `server.notification()` store
 * per server, and what a feature can carry as is. Checked here, once, at definition.
 */
import { compileSchema, type CompiledSchema, type InferSchema, type SchemaInput } from "./schema";
import { declareExtension } from "./extensions";
import type { Awaitable } from "./definitions";
import type { HandlerContext, InteractiveContext } from "./context";

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
}

export interface NotificationConfig<I extends SchemaInput | undefined = undefined> {
  description?: string;
  /** As a method's: params that do not match are dropped, with a log line naming the field. */
  params?: I;
  /** As a method's: a client that did not declare the extension is not heard (the notification is dropped). */
  extension?: string;
}

/** A request method as defined: add it with `server.add(definition)`, or make it with `server.method()`. */
export interface MethodDefinition<Env = unknown> {
  readonly kind: "method";
  readonly method: string;
  readonly description: string | undefined;
  readonly extension: string | undefined;
  /** Whether its context can ask the client and send notifications (`server.interactiveMethod`). */
  readonly interactive: boolean;
  readonly params: CompiledSchema | undefined;
  readonly handler: (params: never, ctx: InteractiveContext<Env>) => Awaitable<MethodResult>;
}

/** What a client notification's handler gets: a request's context without an id or a signal (nothing answers it). */
export type NotificationContext<Env = unknown> = Omit<HandlerContext<Env>, "requestId" | "signal">;

/** A client notification as defined: add it with `server.add(definition)`, or make it with `server.notification()`. */
export interface NotificationDefinition<Env = unknown> {
  readonly kind: "notification";
  readonly method: string;
  readonly description: string | undefined;
  readonly extension: string | undefined;
  readonly params: CompiledSchema | undefined;
  readonly handler: (params: never, ctx: NotificationContext<Env>) => Awaitable<void>;
}

/** What mcp-edge itself serves in either era: a custom method or notification may not take these names. */
const RESERVED: ReadonlySet<string> = new Set([
  "initialize",
  "ping",
  "server/discover",
  "subscriptions/listen",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
]);

/** Method names: 1-128 of A-Z a-z 0-9 and `_ - . /`, starting with a letter or digit (they travel in the Mcp-Method header). */
const METHOD_NAME = /^[A-Za-z0-9][A-Za-z0-9_./-]{0,127}$/;

function checkName(kind: string, method: string): void {
  if (typeof method !== "string" || !METHOD_NAME.test(method))
    throw new TypeError(`${kind} "${method}": names are 1-128 characters of A-Z a-z 0-9 _ - . / (e.g. "com.example/search")`);
  if (RESERVED.has(method)) throw new TypeError(`${kind} "${method}": mcp-edge serves this method itself; pick a name of your extension's`);
}

function compileParams(kind: string, method: string, schema: SchemaInput | undefined): CompiledSchema | undefined {
  if (schema === undefined) return undefined;
  const compiled = compileSchema(schema, "input", `${kind} "${method}" params`);
  if (compiled.json.type !== "object") throw new TypeError(`${kind} "${method}": the params schema must have type "object"`);
  return compiled;
}

function checkExtension(kind: string, method: string, extension: string | undefined): string | undefined {
  if (extension === undefined) return undefined;
  try {
    declareExtension(extension);
  } catch (error) {
    throw new TypeError(`${kind} "${method}": ${(error as Error).message}`);
  }
  return extension;
}

function methodOf<Env>(
  method: string,
  config: MethodConfig<SchemaInput | undefined>,
  interactive: boolean,
  handler: MethodDefinition<Env>["handler"],
): MethodDefinition<Env> {
  checkName("method", method);
  if (typeof handler !== "function") throw new TypeError(`method "${method}": the handler is a function (params, ctx) => result`);
  return {
    kind: "method",
    method,
    description: config.description,
    extension: checkExtension("method", method, config.extension),
    interactive,
    params: compileParams("method", method, config.params),
    handler,
  };
}

/** A request method whose handler answers in the Worker (2025 sessions included); its context cannot ask the client anything. */
export function defineMethod<Env = unknown, I extends SchemaInput | undefined = undefined>(
  method: string,
  config: MethodConfig<I>,
  handler: (params: MethodParams<I>, ctx: HandlerContext<Env>) => Awaitable<MethodResult>,
): MethodDefinition<Env> {
  return methodOf(method, config, false, handler as MethodDefinition<Env>["handler"]);
}

/**
 * A request method whose handler may elicit, sample, list roots, send notifications and ask the
 * client custom requests: on 2026-07-28 by multi round-trip requests, on 2025-era sessions in the
 * session object (like an interactive tool).
 */
export function defineInteractiveMethod<Env = unknown, I extends SchemaInput | undefined = undefined>(
  method: string,
  config: MethodConfig<I>,
  handler: (params: MethodParams<I>, ctx: InteractiveContext<Env>) => Awaitable<MethodResult>,
): MethodDefinition<Env> {
  return methodOf(method, config, true, handler as MethodDefinition<Env>["handler"]);
}

/**
 * A notification the client sends: on 2025-era sessions run in the session object, stateless
 * and on 2026-07-28 in the Worker, before the 202 answers it. Its failures are logged, never sent.
 */
export function defineNotification<Env = unknown, I extends SchemaInput | undefined = undefined>(
  method: string,
  config: NotificationConfig<I>,
  handler: (params: MethodParams<I>, ctx: NotificationContext<Env>) => Awaitable<void>,
): NotificationDefinition<Env> {
  checkName("notification", method);
  if (typeof handler !== "function") throw new TypeError(`notification "${method}": the handler is a function (params, ctx) => void`);
  return {
    kind: "notification",
    method,
    description: config.description,
    extension: checkExtension("notification", method, config.extension),
    params: compileParams("notification", method, config.params),
    handler: handler as NotificationDefinition<Env>["handler"],
  };
}
