/**
 * An extension's own methods and client notifications as values (defineMethod, defineInteractiveMethod,
 * defineNotification; their shapes: definition/methods.ts), checked once at definition and run as a tool
 * is: the gate on the client's declaration (the refusal table's row), params checked by their schema
 * (-32602 naming the field), then the handler. Only a server that defines one bundles this module.
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { isObject } from "../../jsonrpc/parse";
import { errorOf, refusalRow, type Refusal } from "../../wire/refusals";
import { clientDeclares, declareExtension } from "../definition/extensions";
import { compileSchema, type CompiledSchema, type SchemaInput } from "../definition/schema";
import type { Awaitable } from "../definition/definitions";
import type { Channel, HandlerContext, InteractiveContext } from "../definition/context";
import type {
  MethodConfig,
  MethodDefinition,
  MethodParams,
  MethodResult,
  NotificationConfig,
  NotificationContext,
  NotificationDefinition,
} from "../definition/methods";
import { createInteractiveContext } from "../asks/interactive-context";
import { reportUnexpected } from "../operations/unexpected";

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

/** What in a request's params is the protocol's, not the method's: `_meta` (ctx.meta) and an MRTR retry's fields. */
const PROTOCOL_FIELDS = ["_meta", "inputResponses", "requestState"] as const;

/** A definition as checked: its name, extension and compiled params schema. */
interface Checked {
  method: string;
  extension: string | undefined;
  params: CompiledSchema | undefined;
}

function check(kind: "method" | "notification", method: string, config: MethodConfig<SchemaInput | undefined>, handler: unknown): Checked {
  if (typeof method !== "string" || !METHOD_NAME.test(method))
    throw new TypeError(`${kind} "${method}": names are 1-128 characters of A-Z a-z 0-9 _ - . / (e.g. "com.example/search")`);
  if (RESERVED.has(method)) throw new TypeError(`${kind} "${method}": mcp-edge serves this method itself; pick a name of your extension's`);
  if (typeof handler !== "function") throw new TypeError(`${kind} "${method}": the handler is a function (params, ctx) => …`);
  if (config.jsonSchema !== undefined && typeof config.jsonSchema !== "function")
    throw new TypeError(`${kind} "${method}": jsonSchema is a JSON Schema compiler, such as fullJsonSchema from "mcp-edge/json-schema"`);
  const extension = config.extension;
  if (extension !== undefined) {
    try {
      declareExtension(extension);
    } catch (error) {
      throw new TypeError(`${kind} "${method}": ${(error as Error).message}`);
    }
  }
  const params = config.params === undefined ? undefined : compileSchema(config.params, "input", `${kind} "${method}" params`, config);
  if (params && params.json.type !== "object") throw new TypeError(`${kind} "${method}": the params schema must have type "object"`);
  return { method, extension, params };
}

/**
 * The refusal for a definition of an extension the request's client did not declare (the request's own
 * capabilities on 2026-07-28, the session's on 2025), else undefined.
 */
function undeclared(checked: Checked, ctx: Pick<HandlerContext<unknown>, "era" | "clientCapabilities">): RpcError | undefined {
  const extension = checked.extension;
  if (extension === undefined || clientDeclares(ctx.clientCapabilities, extension)) return undefined;
  const refusal: Refusal =
    ctx.era === "2026"
      ? {
          reason: "missing-client-capability",
          required: { extensions: { [extension]: {} } },
          detail: `${checked.method} belongs to the "${extension}" extension; declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
        }
      : { reason: "extension-not-negotiated", method: checked.method, extension };
  const error = errorOf(refusalRow(refusal));
  return new RpcError(error.code, error.message, error.data);
}

/** The params a handler gets: without the protocol's fields, checked by the schema (its parsed value) when there is one. */
async function paramsFor(checked: Checked, params: Params): Promise<unknown> {
  let own = params;
  if (PROTOCOL_FIELDS.some((field) => Object.hasOwn(params, field))) {
    own = { ...params };
    for (const field of PROTOCOL_FIELDS) delete own[field];
  }
  if (!checked.params) return own;
  const result = await checked.params.validate(own);
  if (!result.ok) throw new RpcError(INVALID_PARAMS, `Invalid params for ${checked.method}: ${result.message}`);
  return result.value;
}

function methodOf<Env>(
  method: string,
  config: MethodConfig<SchemaInput | undefined>,
  interactive: boolean,
  handler: (params: never, ctx: InteractiveContext<Env>) => Awaitable<MethodResult>,
): MethodDefinition<Env> {
  const checked = check("method", method, config, handler);
  return {
    kind: "method",
    method,
    description: config.description,
    extension: checked.extension,
    interactive,
    async run(params: Params, ctx: HandlerContext<Env>, channel: Channel | undefined): Promise<Params> {
      const refused = undeclared(checked, ctx);
      if (refused) throw refused;
      const value = await paramsFor(checked, params);
      // A routing mistake, not a client error: interactive methods always get a channel (routing.ts).
      if (interactive && !channel) throw new Error(`interactive method "${method}" reached a lane without a channel`);
      const handlerContext = channel ? createInteractiveContext(ctx, channel) : ctx;
      const result: unknown = await handler(value as never, handlerContext as InteractiveContext<Env>);
      if (!isObject(result)) throw new Error(`method "${method}" returned ${typeof result}, not a result object`);
      return result;
    },
  };
}

/** A request method whose handler answers in the Worker (2025 sessions included); its context cannot ask the client anything. */
export function defineMethod<Env = unknown, I extends SchemaInput | undefined = undefined>(
  method: string,
  config: MethodConfig<I>,
  handler: (params: MethodParams<I>, ctx: HandlerContext<Env>) => Awaitable<MethodResult>,
): MethodDefinition<Env> {
  return methodOf<Env>(method, config, false, handler as (params: never, ctx: InteractiveContext<Env>) => Awaitable<MethodResult>);
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
  return methodOf<Env>(method, config, true, handler as (params: never, ctx: InteractiveContext<Env>) => Awaitable<MethodResult>);
}

/**
 * A notification the client sends: on 2025-era sessions run in the session object, stateless
 * and on 2026-07-28 in the Worker, before the 202 answers it. Nothing answers a notification, so
 * one the gate or its params schema refuses is dropped with a log line naming why, and a failing
 * handler is logged (and told to the server's error hook).
 */
export function defineNotification<Env = unknown, I extends SchemaInput | undefined = undefined>(
  method: string,
  config: NotificationConfig<I>,
  handler: (params: MethodParams<I>, ctx: NotificationContext<Env>) => Awaitable<void>,
): NotificationDefinition<Env> {
  const checked = check("notification", method, config, handler);
  return {
    kind: "notification",
    method,
    description: config.description,
    extension: checked.extension,
    async hear(params, ctx, hook) {
      try {
        const refused = undeclared(checked, ctx);
        if (refused) throw refused;
        await handler((await paramsFor(checked, params)) as MethodParams<I>, ctx);
      } catch (error) {
        if (error instanceof RpcError) console.warn(`mcp-edge: notification ${method} dropped: ${error.message}`);
        else reportUnexpected(`notification ${method}`, error, hook ? { hook, call: undefined } : undefined);
      }
    },
  };
}
