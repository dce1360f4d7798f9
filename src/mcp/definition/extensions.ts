/**
 * Extension negotiation (2026-07-28 "Extensions" > Negotiation; SEP-2133): which extensions a
 * server declares, which ones a request's client declared, and the gate that makes an
 * extension's methods exist only when both did. Knows nothing about HTTP or storage.
 */
import { METHOD_NOT_FOUND, MISSING_CLIENT_CAPABILITY, RpcError } from "../../jsonrpc/errors";
import { isObject } from "../../jsonrpc/parse";

/** The Tasks extension (ext-tasks): `tools/call` may answer `resultType: "task"`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** MCP Apps: tools name `ui://` resources the host renders as sandboxed HTML. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** Skills (SEP-2640): skills/list, skills/get, `skill://` resources and, declared, resources/directory/read. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** Identifiers are `{vendor-prefix}/{name}`: a reverse-DNS prefix, a slash, a name (the `_meta` key rules). */
const EXTENSION_ID =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

export type ExtensionSettings = Record<string, unknown>;

/** A declared extension: its settings, and whether 2025-era `initialize` advertises it too. */
export interface DeclaredExtension {
  settings: ExtensionSettings;
  /** False for extensions only defined on 2026-07-28 per-request negotiation (Tasks). */
  inInitialize: boolean;
}

/** Methods that belong to an extension: they exist only when the server and the request's client declared it. */
const EXTENSION_METHODS: Readonly<Record<string, string>> = {
  "tasks/get": TASKS_EXTENSION,
  "tasks/update": TASKS_EXTENSION,
  "tasks/cancel": TASKS_EXTENSION,
};

/** Extensions whose wire rules exist only on 2026-07-28 (never put in a 2025-era `initialize` result). */
const ONLY_2026 = new Set([TASKS_EXTENSION]);

function isExtensionId(value: string): boolean {
  return EXTENSION_ID.test(value);
}

/** Checks an author's declaration at definition time; throws TypeError with what to fix. */
export function declareExtension(id: string, settings: ExtensionSettings = {}): DeclaredExtension {
  if (!isExtensionId(id))
    throw new TypeError(`extension "${id}": identifiers look like "com.example/name" (a reverse-DNS prefix, "/", a name)`);
  if (!isObject(settings)) throw new TypeError(`extension "${id}": settings must be an object ({} for none)`);
  return { settings, inInitialize: !ONLY_2026.has(id) };
}

/** The extension a method belongs to, or undefined for core methods. */
function extensionOfMethod(method: string): string | undefined {
  return Object.hasOwn(EXTENSION_METHODS, method) ? EXTENSION_METHODS[method] : undefined;
}

/**
 * The client's settings for extension `id` from a capabilities object (the request's
 * `io.modelcontextprotocol/clientCapabilities`, or a 2025 session's), or undefined when it
 * did not declare it. `{}` is a declaration with no settings.
 */
export function clientExtension(clientCapabilities: unknown, id: string): ExtensionSettings | undefined {
  if (!isObject(clientCapabilities)) return undefined;
  const extensions = clientCapabilities.extensions;
  if (!isObject(extensions) || !Object.hasOwn(extensions, id)) return undefined;
  const settings = extensions[id];
  return isObject(settings) ? settings : undefined;
}

/** Whether this request's client declared extension `id`. */
export function clientDeclares(clientCapabilities: unknown, id: string): boolean {
  return clientExtension(clientCapabilities, id) !== undefined;
}

/** -32021 naming the extension the request needed, in the shape ext-tasks gives. */
export function missingExtensionError(id: string, why = `this request needs the "${id}" extension`): RpcError {
  return new RpcError(
    MISSING_CLIENT_CAPABILITY,
    `Missing required client capability: ${why}; declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
    {
      requiredCapabilities: { extensions: { [id]: {} } },
    },
  );
}

/**
 * The gate for an extension's methods: undefined for core methods and negotiated ones;
 * -32601 when the server does not declare the extension; -32021 when this request's client
 * did not declare it.
 */
export function checkExtensionMethod(
  serverExtensions: ReadonlyMap<string, DeclaredExtension>,
  method: string,
  clientCapabilities: unknown,
): RpcError | undefined {
  const id = extensionOfMethod(method);
  if (id === undefined) return undefined;
  if (!serverExtensions.has(id)) return new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`);
  if (!clientDeclares(clientCapabilities, id)) return missingExtensionError(id, `${method} belongs to the "${id}" extension`);
  return undefined;
}

/**
 * `capabilities.extensions` for a result: every declared extension on 2026-07-28 (`server/discover`);
 * on a 2025-era `initialize`, those the client declared too, leaving out 2026-only ones.
 * Undefined when there is nothing to advertise (the key is then omitted).
 */
export function extensionsCapability(
  serverExtensions: ReadonlyMap<string, DeclaredExtension>,
  era: "2025" | "2026",
  clientCapabilities?: unknown,
): Record<string, ExtensionSettings> | undefined {
  const out: Record<string, ExtensionSettings> = {};
  for (const [id, declared] of serverExtensions) {
    if (era === "2025" && (!declared.inInitialize || !clientDeclares(clientCapabilities, id))) continue;
    out[id] = declared.settings;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
