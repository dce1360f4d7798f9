/**
 * Deployment mistakes caught where they first matter, before or instead of any MCP work: a
 * Durable Object binding that is missing (MCP_SESSION, MCP_HUB, MCP_TASK, MCP_USER), or present without
 * its migration (the class is then not SQLite-backed, and workerd refuses its first SQL call).
 * Each one answers with a message naming the fix (the wrangler.toml lines to add) and is logged
 * once per isolate, so neither the developer nor the client is left with a bare "Internal error".
 */
import { INTERNAL_ERROR, RpcError } from "../jsonrpc/errors";
import type { Refusal } from "../wire/refusals";

/**
 * A Durable Object binding a feature needs, and how its misconfiguration message names the fix. One
 * value per binding, each its own constant: a Worker bundles only the ones its code requires.
 */
export interface DurableBinding {
  /** The binding's name in wrangler.toml, e.g. "MCP_SESSION". */
  name: string;
  className: string;
  /** The demo's migration tag for the class (any tag the project has not used yet works). */
  tag: string;
  /** What needs the binding, for the message (a caller may name something more precise). */
  neededBy: string;
  /** How the Worker entry exports the class. */
  exportLine: string;
  /** How to do without it, when there is a way. */
  alternative?: string;
}

export const SESSION_BINDING: DurableBinding = {
  name: "MCP_SESSION",
  className: "McpSession",
  tag: "v1",
  neededBy: "session mode",
  exportLine: "export const { McpSession } = edge.objects; (with sessions() in createMcpEdge's features)",
  alternative: "leave sessions() out of features (or pass { sessions: false }) for a stateless server",
};

export const HUB_BINDING: DurableBinding = {
  name: "MCP_HUB",
  className: "McpHub",
  tag: "v2",
  neededBy: "publish and subscriptions/listen",
  exportLine: "export const { McpHub } = edge.objects; (with hub() in createMcpEdge's features)",
};

export const TASK_BINDING: DurableBinding = {
  name: "MCP_TASK",
  className: "McpTask",
  tag: "v3",
  neededBy: "tools with `task` (the Tasks extension)",
  exportLine: "export const { McpTask } = edge.objects; (with tasks() in createMcpEdge's features)",
};

export const USER_BINDING: DurableBinding = {
  name: "MCP_USER",
  className: "McpUser",
  tag: "v4",
  neededBy: "ctx.user (the principal's own store)",
  exportLine: "export const { McpUser } = edge.objects; (with user() in createMcpEdge's features)",
};

export const EVENTS_BINDING: DurableBinding = {
  name: "MCP_EVENTS",
  className: "McpEvents",
  tag: "v5",
  neededBy: "emitted events (the events() feature of mcp-edge/events)",
  exportLine: "export const { McpEvents } = edge.objects;",
};

/** The migration lines of a binding's class. */
function migrationToml({ className, tag }: DurableBinding): string {
  return ["[[migrations]]", `tag = "${tag}"`, `new_sqlite_classes = ["${className}"]`].join("\n");
}

/** The lines a Worker needs in wrangler.toml for one binding: the binding and its migration. */
function bindingToml(binding: DurableBinding): string {
  const { name, className } = binding;
  return ["[[durable_objects.bindings]]", `name = "${name}"`, `class_name = "${className}"`, "", migrationToml(binding)].join("\n");
}

/**
 * A deployment mistake: an RpcError (-32603) the router answers with its refusal (500, the
 * request's id where readable). What a client reads depends on who it is (docs/errors.md
 * "Misconfiguration"): local development (a loopback request, see `disclosingEnv`) reads the fix,
 * the wrangler.toml lines to add; a deployed Worker's clients read a generic message and the
 * reference of the log line that has the fix. The log always has it.
 */
export class MisconfiguredError extends RpcError {
  constructor(readonly refusal: Refusal & { reason: "misconfigured" }) {
    super(INTERNAL_ERROR, refusal.message, refusal.data);
    this.name = "MisconfiguredError";
  }
}

/** Marks an env as local development's: misconfiguration messages made with it name the fix. */
const DISCLOSE = Symbol("mcp-edge.disclose-misconfiguration");
const disclosing = new WeakMap<object, object>();

/**
 * The env a local request (`isLocalRequest`) runs with: the same bindings (a Proxy, so spreading or
 * listing it is unchanged), marked so that a misconfiguration error names the binding, the class
 * and the wrangler.toml lines. One per env, so its identity is as stable as the env's.
 */
export function disclosingEnv<E>(env: E): E {
  if (typeof env !== "object" || env === null) return env;
  let marked = disclosing.get(env);
  if (!marked) {
    marked = new Proxy(env, {
      get(target, prop, receiver) {
        return prop === DISCLOSE ? true : Reflect.get(target, prop, receiver);
      },
    });
    disclosing.set(env, marked);
  }
  return marked as E;
}

function discloses(env: unknown): boolean {
  return typeof env === "object" && env !== null && (env as Record<symbol, unknown>)[DISCLOSE] === true;
}

/** Per isolate, each mistake is logged once under one reference, which every later answer repeats. */
const references = new Map<string, string>();

/**
 * The error for one mistake: logged (with the fix) under its reference the first time in this
 * isolate; the answer names the fix only with a disclosing env.
 */
export function misconfigured(key: string, message: string, data: Record<string, unknown>, env: unknown): MisconfiguredError {
  let reference = references.get(key);
  if (reference === undefined) {
    reference = `misconfigured-${crypto.randomUUID().slice(0, 8)}`;
    references.set(key, reference);
    console.error(`mcp-edge: [${reference}] ${message}`);
  }
  if (discloses(env)) return new MisconfiguredError({ reason: "misconfigured", message, data: { ...data, reference } });
  const generic = `Server misconfigured: this deployment lacks something this request needs. The server's log has the details under reference ${reference}.`;
  return new MisconfiguredError({ reason: "misconfigured", message: generic, data: { reference } });
}

/** The error for a missing binding, naming the wrangler.toml lines to add. */
function missingBinding(spec: DurableBinding, env: unknown, neededBy = spec.neededBy): MisconfiguredError {
  const { name } = spec;
  const toml = bindingToml(spec);
  const message =
    `Server misconfigured: ${neededBy} needs the ${name} Durable Object binding. Add to wrangler.toml:\n\n${toml}\n\n` +
    `and export the class from the Worker entry: ${spec.exportLine}` +
    (spec.alternative ? ` (or ${spec.alternative}).` : "");
  return misconfigured(`binding:${name}`, message, { missingBinding: name, wranglerToml: toml }, env);
}

/** The error for a binding whose class has no (SQLite) migration, naming the lines to add. */
function missingMigration(binding: DurableBinding, env: unknown): MisconfiguredError {
  const { name, className } = binding;
  const toml = migrationToml(binding);
  // workerd logs its own errors for this mistake first, at length: the message names them, so a reader of
  // `wrangler dev`'s output knows they are this one mistake with this one fix.
  const message =
    `Server misconfigured: the ${name} Durable Object binding has no migration, so ${className} is not a SQLite-backed class. ` +
    `Add to wrangler.toml (with a tag this project has not used yet):\n\n${toml}\n\n` +
    `A class already deployed without SQLite cannot be converted: deploy it under a new class_name with this migration. ` +
    `workerd reports this same mistake as "The storage.kv (synchronous KV) API is only available for SQLite-backed Durable Objects" ` +
    `or "SQL is not enabled for this Durable Object class": the migration above is the whole fix.`;
  return misconfigured(`migration:${name}`, message, { missingMigration: className, binding: name, wranglerToml: toml }, env);
}

/**
 * workerd's errors when a class bound without `new_sqlite_classes` first touches `ctx.storage.sql`,
 * or `ctx.storage.kv` (the session keeps its state there).
 */
const NO_SQL = /SQL is not enabled for this Durable Object class|storage\.kv \(synchronous KV\) API is only available for SQLite-backed/;

function translate(error: unknown, binding: DurableBinding, env: unknown): unknown {
  return error instanceof Error && NO_SQL.test(error.message) ? missingMigration(binding, env) : error;
}

/** A stub whose calls turn workerd's missing-migration error into the error that names the fix. */
function guardStub<S extends object>(stub: S, binding: DurableBinding, env: unknown): S {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== "function" || prop === "then") return value;
      return (...args: unknown[]) => {
        try {
          const result = Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
          if (typeof (result as { then?: unknown } | null)?.then !== "function") return result;
          // Workers RPC promises take functions only: Promise.resolve adopts it as a plain promise.
          return Promise.resolve(result).catch((error: unknown) => {
            throw translate(error, binding, env);
          });
        } catch (error) {
          throw translate(error, binding, env);
        }
      };
    },
  });
}

function isNamespace(value: unknown): value is DurableObjectNamespace {
  return typeof value === "object" && value !== null && typeof (value as { idFromString?: unknown }).idFromString === "function";
}

/** The guarded namespaces, one per bound namespace; the second for a disclosing env's requests. */
const guarded = new WeakMap<object, object>();
const guardedDisclosing = new WeakMap<object, object>();

/**
 * The namespace bound as `binding.name`, or a MisconfiguredError naming the wrangler.toml lines to add.
 * Its stubs report a missing migration the same way, at the first call that reaches the object.
 */
export function requireNamespace<N extends object>(env: unknown, binding: DurableBinding, neededBy?: string): N {
  const value = (env as Record<string, unknown> | undefined)?.[binding.name];
  if (!isNamespace(value)) throw missingBinding(binding, env, neededBy);
  const cache = discloses(env) ? guardedDisclosing : guarded;
  let namespace = cache.get(value);
  if (!namespace) {
    namespace = new Proxy(value, {
      get(target, prop) {
        const member = Reflect.get(target, prop) as unknown;
        if (typeof member !== "function") return member;
        if (prop === "get" || prop === "getByName") {
          return (...args: unknown[]) => guardStub(Reflect.apply(member as (...a: unknown[]) => object, target, args), binding, env);
        }
        return (member as (...a: unknown[]) => unknown).bind(target);
      },
    });
    cache.set(value, namespace);
  }
  return namespace as N;
}

/**
 * `neededBy` on an edge that does not serve the hub (no `hub()` among its features): the error naming the
 * MCP_HUB lines where the binding is missing too, else the feature to pass (the binding alone delivers nothing).
 */
export function hubNotServed(env: unknown, neededBy: string): MisconfiguredError {
  requireNamespace(env, HUB_BINDING, neededBy);
  return misconfigured(
    `hub-feature:${neededBy}`,
    `Server misconfigured: ${neededBy} needs the hub: pass hub() (mcp-edge/hub) in createMcpEdge's features and export McpHub from edge.objects.`,
    {},
    env,
  );
}
