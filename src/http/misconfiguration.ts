/**
 * Deployment mistakes caught where they first matter, before or instead of any MCP work: a
 * Durable Object binding that is missing (MCP_SESSION, MCP_HUB, MCP_TASK, MCP_USER), or present without
 * its migration (the class is then not SQLite-backed, and workerd refuses its first SQL call).
 * Each one answers with a message naming the fix (the wrangler.toml lines to add) and is logged
 * once per isolate, so neither the developer nor the client is left with a bare "Internal error".
 */
import { INTERNAL_ERROR, RpcError } from "../jsonrpc/errors";
import type { Refusal } from "../wire/refusals";

export type BindingName = "MCP_SESSION" | "MCP_HUB" | "MCP_TASK" | "MCP_USER";

interface BindingSpec {
  className: string;
  /** The demo's migration tag for the class (any tag the project has not used yet works). */
  tag: string;
  /** What needs the binding, for the message. */
  neededBy: string;
  /** How the Worker entry exports the class. */
  exportLine: string;
  /** How to do without it, when there is a way. */
  alternative?: string;
}

const BINDINGS: Record<BindingName, BindingSpec> = {
  MCP_SESSION: {
    className: "McpSession",
    tag: "v1",
    neededBy: "session mode",
    exportLine: "export const McpSession = edge.SessionObject;",
    alternative: "pass { sessions: false } to createMcpEdge",
  },
  MCP_HUB: {
    className: "McpHub",
    tag: "v2",
    neededBy: "publish and subscriptions/listen",
    exportLine: 'export { McpHub } from "mcp-edge";',
  },
  MCP_TASK: {
    className: "McpTask",
    tag: "v3",
    neededBy: "tools with `task` (the Tasks extension)",
    exportLine: "export const McpTask = edge.TaskObject;",
  },
  MCP_USER: {
    className: "McpUser",
    tag: "v4",
    neededBy: "ctx.user (the principal's own store)",
    exportLine: 'export { McpUser } from "mcp-edge";',
  },
};

/** The migration lines of a binding's class. */
function migrationToml(name: BindingName): string {
  const { className, tag } = BINDINGS[name];
  return ["[[migrations]]", `tag = "${tag}"`, `new_sqlite_classes = ["${className}"]`].join("\n");
}

/** The lines a Worker needs in wrangler.toml for one binding: the binding and its migration. */
function bindingToml(name: BindingName): string {
  const { className } = BINDINGS[name];
  return ["[[durable_objects.bindings]]", `name = "${name}"`, `class_name = "${className}"`, "", migrationToml(name)].join("\n");
}

/**
 * A deployment mistake: an RpcError (-32603) whose message names the fix, so a handler that
 * meets it answers the client with the fix too; the router answers it with its refusal (500).
 */
export class MisconfiguredError extends RpcError {
  constructor(readonly refusal: Refusal & { reason: "misconfigured" }) {
    super(INTERNAL_ERROR, refusal.message, refusal.data);
    this.name = "MisconfiguredError";
  }
}

const logged = new Set<string>();

function misconfigured(key: string, message: string, data: Record<string, unknown>): MisconfiguredError {
  if (!logged.has(key)) {
    logged.add(key);
    console.error(`mcp-edge: ${message}`);
  }
  return new MisconfiguredError({ reason: "misconfigured", message, data });
}

/** The error for a missing binding, naming the wrangler.toml lines to add. */
function missingBinding(name: BindingName, neededBy = BINDINGS[name].neededBy): MisconfiguredError {
  const spec = BINDINGS[name];
  const toml = bindingToml(name);
  const message =
    `Server misconfigured: ${neededBy} needs the ${name} Durable Object binding. Add to wrangler.toml:\n\n${toml}\n\n` +
    `and export the class from the Worker entry: ${spec.exportLine}` +
    (spec.alternative ? ` (or ${spec.alternative}).` : "");
  return misconfigured(`binding:${name}`, message, { missingBinding: name, wranglerToml: toml });
}

/** The error for a binding whose class has no (SQLite) migration, naming the lines to add. */
function missingMigration(name: BindingName): MisconfiguredError {
  const { className } = BINDINGS[name];
  const toml = migrationToml(name);
  const message =
    `Server misconfigured: the ${name} Durable Object binding has no migration, so ${className} is not a SQLite-backed class. ` +
    `Add to wrangler.toml (with a tag this project has not used yet):\n\n${toml}\n\n` +
    `A class already deployed without SQLite cannot be converted: deploy it under a new class_name with this migration.`;
  return misconfigured(`migration:${name}`, message, { missingMigration: className, binding: name, wranglerToml: toml });
}

/** workerd's error when a class bound without `new_sqlite_classes` first touches `ctx.storage.sql`. */
const NO_SQL = /SQL is not enabled for this Durable Object class/;

function translate(error: unknown, name: BindingName): unknown {
  return error instanceof Error && NO_SQL.test(error.message) ? missingMigration(name) : error;
}

/** A stub whose calls turn workerd's missing-migration error into the error that names the fix. */
function guardStub<S extends object>(stub: S, name: BindingName): S {
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
            throw translate(error, name);
          });
        } catch (error) {
          throw translate(error, name);
        }
      };
    },
  });
}

function isNamespace(value: unknown): value is DurableObjectNamespace {
  return typeof value === "object" && value !== null && typeof (value as { idFromString?: unknown }).idFromString === "function";
}

const guarded = new WeakMap<object, object>();

/**
 * The namespace bound as `name`, or a MisconfiguredError naming the wrangler.toml lines to add.
 * Its stubs report a missing migration the same way, at the first call that reaches the object.
 */
export function requireNamespace<N extends object>(env: unknown, name: BindingName, neededBy?: string): N {
  const value = (env as Record<string, unknown> | undefined)?.[name];
  if (!isNamespace(value)) throw missingBinding(name, neededBy);
  let namespace = guarded.get(value);
  if (!namespace) {
    namespace = new Proxy(value, {
      get(target, prop) {
        const member = Reflect.get(target, prop) as unknown;
        if (typeof member !== "function") return member;
        if (prop === "get" || prop === "getByName") {
          return (...args: unknown[]) => guardStub(Reflect.apply(member as (...a: unknown[]) => object, target, args), name);
        }
        return (member as (...a: unknown[]) => unknown).bind(target);
      },
    });
    guarded.set(value, namespace);
  }
  return namespace as N;
}

/** The session namespace, or a MisconfiguredError naming the wrangler.toml lines to add. */
export function requireSessionNamespace<N extends object>(value: N | undefined): N {
  return requireNamespace<N>({ MCP_SESSION: value }, "MCP_SESSION");
}
