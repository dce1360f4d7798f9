/**
 * The server definition: what a developer registers (tools, resources, templates, prompts,
 * completions) and the derived, precomputed views the dispatcher serves (list entries,
 * compiled schemas, capabilities). Nothing here knows about HTTP, streams or storage.
 */
import { checkScopeRequirement } from "./authorization";
import type { JsonSchemaCompiler } from "../json-schema/types";
import { compileSchema, EMPTY_OBJECT_SCHEMA, type JsonSchemaConverter, type SchemaInput } from "./schema";
import { compileUriTemplate } from "./uri-template";
import type { HandlerContext, InteractiveContext, SessionInfo, UserStores } from "./context";
import { resolveCacheHint, type ResolvedCacheHint } from "./caching";
import { declareExtension, extensionsCapability, TASKS_EXTENSION, type DeclaredExtension, type ExtensionSettings } from "./extensions";
import { toolUiMeta, type UiResourceConfig } from "./apps";
import { resolveTaskOption } from "./task-tools";
import type { ErrorHook, Middleware } from "./context";
import type { GetPromptResult, Implementation } from "./types";
import { checkIcons, checkWebsiteUrl, type Icon } from "./icons";
import { hasObjectRoot, wrapOutputSchema } from "./output-schema";
import type { MethodDefinition, NotificationDefinition } from "./methods";

import { headerParamsOf, NAME_PATTERN, withoutUndefined } from "./definitions";
import type {
  Awaitable,
  EnabledPredicate,
  PromptArgs,
  PromptArgument,
  PromptConfig,
  PromptDefinition,
  ReadResult,
  ResourceConfig,
  ServerConfig,
  ToolArgs,
  ResourceDefinition,
  ResourceTemplateConfig,
  ResourceTemplateDefinition,
  ToolConfig,
  ToolDefinition,
  ToolHandler,
} from "./definitions";

export * from "./definitions";

/**
 * What `server.add` takes besides an extension's methods and notifications: a value that brings
 * its own registration, such as a page made by `uiResource` (mcp-edge/apps) or a skill made by
 * `defineSkill` (mcp-edge/skills). A server that adds none bundles none of their code.
 */
export interface Addable<Env = unknown> {
  addTo(server: ServerDefinition<Env>): void;
}

/** A value that brings its own registration (`Addable`), whatever else it carries. */
function isAddable<Env>(value: unknown): value is Addable<Env> {
  return typeof (value as Partial<Addable<Env>> | null | undefined)?.addTo === "function";
}

/** A method or notification made by defineMethod, defineInteractiveMethod or defineNotification. */
function isMethodOrNotification<Env>(value: unknown): value is MethodDefinition<Env> | NotificationDefinition<Env> {
  const kind = (value as { kind?: unknown } | null | undefined)?.kind;
  return kind === "method" || kind === "notification";
}

/**
 * A server's definitions (what `defineServer` returns). Register everything at module load:
 * lists are computed once per definition. Named apart from the MCP SDK's `McpServer`, which is
 * a different thing (a server bound to one transport).
 */
export class ServerDefinition<Env = unknown> {
  /** The server's full info (initialize's serverInfo, server/discover, the Server Card): icons and website included. */
  readonly info: Implementation;
  /** name, version and title only: what every other 2026 result carries in `_meta`, kept small. */
  readonly identity: Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly listChanged: boolean;
  /** The caching hint of `server/discover` (2026-07-28). */
  readonly cache: ResolvedCacheHint;
  readonly tools = new Map<string, ToolDefinition<Env>>();
  readonly resources = new Map<string, ResourceDefinition<Env>>();
  readonly templates: ResourceTemplateDefinition<Env>[] = [];
  readonly prompts = new Map<string, PromptDefinition<Env>>();
  /** Declared extensions (`capabilities.extensions`); task tools and UI resources declare theirs. */
  readonly extensions = new Map<string, DeclaredExtension>();
  /** Request methods of extensions (`add()`): this server's own, served in both eras. */
  readonly methods = new Map<string, MethodDefinition<Env>>();
  /** Client notifications of extensions (`add()`). */
  readonly notifications = new Map<string, NotificationDefinition<Env>>();
  /** `use()`: wraps every request, in registration order (middleware.ts). */
  readonly middleware: Middleware<Env>[] = [];
  /** `onError()`: hears every unexpected exception with the reference the client got. */
  errorHook: ErrorHook<Env> | undefined;
  /** zod's converter for zod schemas that cannot produce JSON Schema by themselves (ServerConfig's toJSONSchema). */
  readonly toJSONSchema: JsonSchemaConverter | undefined;
  /** What compiles raw JSON Schema (ServerConfig's jsonSchema); undefined: the core validator. */
  readonly jsonSchema: JsonSchemaCompiler | undefined;
  /** `ctx.user`'s stores, as the edge serving this server fills them (the kernel sets it on its view); none: unserved. */
  users: UserStores | undefined;
  /** Called in the session object when the client sends notifications/roots/list_changed. */
  rootsChangedHandler: ((session: SessionInfo, env: Env) => Awaitable<void>) | undefined;

  constructor(config: ServerConfig) {
    if (!config.name || !config.version) throw new TypeError("defineServer: name and version are required");
    const info: Implementation = { name: config.name, version: config.version };
    if (config.title !== undefined) info.title = config.title;
    this.identity = { ...info };
    if (config.description !== undefined) info.description = config.description;
    if (config.icons !== undefined) info.icons = checkIcons(config.icons, "defineServer");
    if (config.websiteUrl !== undefined) info.websiteUrl = checkWebsiteUrl(config.websiteUrl, "defineServer");
    this.info = info;
    this.instructions = config.instructions;
    this.pageSize = config.pageSize ?? 100;
    this.listChanged = config.listChanged ?? false;
    this.cache = resolveCacheHint(config.cache, "defineServer");
    if (config.toJSONSchema !== undefined && typeof config.toJSONSchema !== "function")
      throw new TypeError('defineServer: toJSONSchema must be zod\'s converter, z.toJSONSchema with z from "zod/v4"');
    this.toJSONSchema = config.toJSONSchema;
    if (config.jsonSchema !== undefined && typeof config.jsonSchema !== "function")
      throw new TypeError('defineServer: jsonSchema must be a JSON Schema compiler, such as fullJsonSchema from "mcp-edge/json-schema"');
    this.jsonSchema = config.jsonSchema;
    if (!Number.isSafeInteger(this.pageSize) || this.pageSize < 1) throw new TypeError("defineServer: pageSize must be a positive integer");
    for (const [id, settings] of Object.entries(config.extensions ?? {})) this.extension(id, settings);
  }

  /** Declares an extension (reverse-DNS identifier) with its settings; its methods exist only once declared. */
  extension(id: string, settings: ExtensionSettings = {}): this {
    this.extensions.set(id, declareExtension(id, settings));
    return this;
  }

  /**
   * @deprecated MCP Apps pages moved to their own entry, so a server without one bundles none of
   * that code: `import { uiResource } from "mcp-edge/apps"` and `server.add(uiResource(uri, config, html))`.
   * Throws a TypeError that says so.
   */
  uiResource(_uri: string, _config: UiResourceConfig<Env>, _html: (ctx: HandlerContext<Env>) => Awaitable<string>): this {
    throw new TypeError(
      'server.uiResource() moved: import { uiResource } from "mcp-edge/apps" and call server.add(uiResource(uri, config, html))',
    );
  }

  /**
   * Skills (SEP-2640): serves a skill made by `defineSkill({ skillMd, files })` as `skill://`
   * resources with skills/list, skills/get and resources/directory/read; declares the extension.
   */
  skill(definition: Addable<Env>): this {
    return this.add(definition);
  }

  /**
   * Serves an extension's method or client notification, made by `defineMethod`, `defineInteractiveMethod`
   * or `defineNotification` (mcp-edge/extensions), as this server's own and declares its extension when
   * needed; or adds any value that brings its own registration (`Addable`: `uiResource` from mcp-edge/apps,
   * `defineSkill` from mcp-edge/skills).
   */
  add(definition: MethodDefinition<Env> | NotificationDefinition<Env> | Addable<Env>): this {
    // An Addable registers itself, so a server that adds none bundles none of its code.
    if (isAddable<Env>(definition)) {
      definition.addTo(this);
      return this;
    }
    if (!isMethodOrNotification<Env>(definition))
      throw new TypeError("server.add takes a definition made by defineMethod, defineNotification, uiResource or defineSkill");
    const table: Map<string, unknown> = definition.kind === "method" ? this.methods : this.notifications;
    if (table.has(definition.method)) throw new TypeError(`${definition.kind} "${definition.method}" is already defined`);
    table.set(definition.method, definition);
    if (definition.extension !== undefined && !this.extensions.has(definition.extension)) this.extension(definition.extension);
    return this;
  }

  /** A simple tool: answered in the Worker, its context cannot send messages to the client. */
  tool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O, Env>,
    handler: ToolHandler<ToolArgs<I>, HandlerContext<Env>>,
  ): this {
    return this.addTool(name, config, false, handler as ToolDefinition<Env>["handler"]);
  }

  /**
   * An interactive tool: runs in the session's Durable Object and answers over SSE, so it can
   * report progress, log, sample, elicit and list roots.
   */
  interactiveTool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O, Env>,
    handler: ToolHandler<ToolArgs<I>, InteractiveContext<Env>>,
  ): this {
    return this.addTool(name, config, true, handler as ToolDefinition<Env>["handler"]);
  }

  private addTool(
    name: string,
    config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined, Env>,
    interactive: boolean,
    handler: ToolDefinition<Env>["handler"],
  ): this {
    if (!NAME_PATTERN.test(name)) throw new TypeError(`tool "${name}": names are 1-128 characters of A-Z a-z 0-9 _ - .`);
    if (this.tools.has(name)) throw new TypeError(`tool "${name}" is already defined`);
    if (!config.description) throw new TypeError(`tool "${name}": a description is required`);
    const input = compileSchema(config.input ?? EMPTY_OBJECT_SCHEMA, "input", `tool "${name}" input`, this);
    if (input.json.type !== "object") throw new TypeError(`tool "${name}": the input schema must have type "object"`);
    const output = config.output ? compileSchema(config.output, "output", `tool "${name}" output`, this) : undefined;
    const task = resolveTaskOption(name, config.task);
    const listing = withoutUndefined({
      name,
      title: config.title,
      description: config.description,
      icons: iconsOf(config.icons, `tool "${name}"`),
      inputSchema: input.json,
      outputSchema: output?.json,
      annotations: config.annotations,
      _meta: config.ui ? toolUiMeta(name, config.ui, config._meta) : config._meta,
    });
    // SEP-2106: any output schema on 2026-07-28; the 2025 wire needs an object root.
    const outputWrapped = output !== undefined && !hasObjectRoot(output.json);
    const listing2025 = output && outputWrapped ? { ...listing, outputSchema: wrapOutputSchema(output.json) } : listing;
    const cache = resolveCacheHint(config.cache, `tool "${name}"`);
    const headerParams = headerParamsOf(input.json, `tool "${name}"`);
    if (task && !this.extensions.has(TASKS_EXTENSION)) this.extension(TASKS_EXTENSION);
    this.tools.set(name, {
      name,
      interactive,
      listing,
      listing2025,
      outputWrapped,
      input,
      output,
      handler,
      enabled: config.enabled,
      cache,
      headerParams,
      task,
      scopes: checkScopeRequirement<Env>(config.scopes, `tool "${name}"`),
    });
    return this;
  }

  /** A static resource at a fixed URI. */
  resource(uri: string, config: ResourceConfig<Env>, read: (uri: string, ctx: HandlerContext<Env>) => Awaitable<ReadResult>): this {
    return this.addResource(uri, config, false, read);
  }

  /** A static resource whose read may elicit, sample or list roots, like an interactive tool. */
  interactiveResource(
    uri: string,
    config: ResourceConfig<Env>,
    read: (uri: string, ctx: InteractiveContext<Env>) => Awaitable<ReadResult>,
  ): this {
    return this.addResource(uri, config, true, read);
  }

  private addResource(uri: string, config: ResourceConfig<Env>, interactive: boolean, read: ResourceDefinition<Env>["read"]): this {
    if (this.resources.has(uri)) throw new TypeError(`resource "${uri}" is already defined`);
    if (!config.name) throw new TypeError(`resource "${uri}": a name is required`);
    const listing = withoutUndefined({
      uri,
      name: config.name,
      title: config.title,
      description: config.description,
      mimeType: config.mimeType,
      size: config.size,
      icons: iconsOf(config.icons, `resource "${uri}"`),
      annotations: config.annotations,
      _meta: config._meta,
    });
    this.resources.set(uri, {
      uri,
      listing,
      enabled: config.enabled,
      cache: resolveCacheHint(config.cache, `resource "${uri}"`),
      interactive,
      read,
      scopes: checkScopeRequirement<Env>(config.scopes, `resource "${uri}"`),
    });
    return this;
  }

  /**
   * A family of resources named by an RFC 6570 template, e.g. `notes://{id}`; with `list`, the
   * resources it currently names also appear in `resources/list`.
   */
  resourceTemplate(uriTemplate: string, config: ResourceTemplateConfig<Env>, read: ResourceTemplateDefinition<Env>["read"]): this {
    if (!config.name) throw new TypeError(`resource template "${uriTemplate}": a name is required`);
    if (config.list !== undefined && typeof config.list !== "function")
      throw new TypeError(`resource template "${uriTemplate}": list must be a function`);
    const template = compileUriTemplate(uriTemplate);
    if (template.variables.length === 0) throw new TypeError(`resource template "${uriTemplate}" has no {variables}; use resource()`);
    for (const variable of Object.keys(config.complete ?? {})) {
      if (!template.variables.includes(variable))
        throw new TypeError(`resource template "${uriTemplate}": no variable "${variable}" to complete`);
    }
    const listing = withoutUndefined({
      uriTemplate,
      name: config.name,
      title: config.title,
      description: config.description,
      mimeType: config.mimeType,
      icons: iconsOf(config.icons, `resource template "${uriTemplate}"`),
      annotations: config.annotations,
      _meta: config._meta,
    });
    const cache = resolveCacheHint(config.cache, `resource template "${uriTemplate}"`);
    this.templates.push({
      template,
      listing,
      mimeType: config.mimeType,
      complete: config.complete ?? {},
      enabled: config.enabled,
      cache,
      read,
      list: config.list,
      scopes: checkScopeRequirement<Env>(config.scopes, `resource template "${uriTemplate}"`),
    });
    return this;
  }

  /** A prompt template with optional arguments. */
  prompt<const A extends readonly PromptArgument<Env>[] = []>(
    name: string,
    config: PromptConfig<Env, A>,
    get: (args: PromptArgs<A>, ctx: HandlerContext<Env>) => Awaitable<GetPromptResult>,
  ): this {
    return this.addPrompt(name, config, false, get as unknown as PromptDefinition<Env>["get"]);
  }

  /**
   * A prompt whose `get` may elicit, sample or list roots: on 2026-07-28 through multi
   * round-trip requests, on 2025-era sessions in the session object (like interactive tools).
   */
  interactivePrompt<const A extends readonly PromptArgument<Env>[] = []>(
    name: string,
    config: PromptConfig<Env, A>,
    get: (args: PromptArgs<A>, ctx: InteractiveContext<Env>) => Awaitable<GetPromptResult>,
  ): this {
    return this.addPrompt(name, config, true, get as unknown as PromptDefinition<Env>["get"]);
  }

  private addPrompt(
    name: string,
    config: PromptConfig<Env, readonly PromptArgument<Env>[]>,
    interactive: boolean,
    get: PromptDefinition<Env>["get"],
  ): this {
    if (!NAME_PATTERN.test(name)) throw new TypeError(`prompt "${name}": names are 1-128 characters of A-Z a-z 0-9 _ - .`);
    if (this.prompts.has(name)) throw new TypeError(`prompt "${name}" is already defined`);
    const args = config.arguments ?? [];
    const listing = withoutUndefined({
      name,
      title: config.title,
      description: config.description,
      icons: iconsOf(config.icons, `prompt "${name}"`),
      arguments:
        args.length > 0
          ? args.map((a) => withoutUndefined({ name: a.name, title: a.title, description: a.description, required: a.required ?? false }))
          : undefined,
      _meta: config._meta,
    });
    const cache = resolveCacheHint(config.cache, `prompt "${name}"`);
    const scopes = checkScopeRequirement<Env>(config.scopes, `prompt "${name}"`);
    this.prompts.set(name, { name, listing, arguments: args, enabled: config.enabled, cache, interactive, get, scopes });
    return this;
  }

  /**
   * Adds a middleware: `(call, next) => …` runs around every JSON-RPC request this server handles,
   * in both eras, in the Worker, the session object and task runs, first registered outermost.
   */
  use(middleware: Middleware<Env>): this {
    if (typeof middleware !== "function") throw new TypeError("server.use: a middleware is a function (call, next) => result");
    this.middleware.push(middleware);
    return this;
  }

  /** Hears every unexpected exception (what the client sees only as a reference), wherever it happened. */
  onError(hook: ErrorHook<Env>): this {
    if (typeof hook !== "function")
      throw new TypeError("server.onError: the hook is a function ({ error, reference, what, call }) => void");
    this.errorHook = hook;
    return this;
  }

  /** Runs `handler` when a session's client says its roots changed (notifications/roots/list_changed). */
  onRootsListChanged(handler: (session: SessionInfo, env: Env) => Awaitable<void>): this {
    this.rootsChangedHandler = handler;
    return this;
  }

  /** True when any prompt argument or template variable offers completions. */
  hasCompletions(): boolean {
    for (const p of this.prompts.values()) if (p.arguments.some((a) => a.complete)) return true;
    return this.templates.some((t) => Object.keys(t.complete).length > 0);
  }

  /**
   * Capabilities derived from what is registered; `updates` says whether resource updates and list
   * changes can reach the client (a 2025 session, or a 2026 listen, with the hub bound). With the
   * client's `initialize` capabilities, `extensions` lists those both sides declared.
   */
  capabilities(updates: boolean, clientCapabilities?: unknown): Record<string, unknown> {
    const caps: Record<string, unknown> = { logging: {} };
    const listChanged = this.listChanged && updates;
    if (this.tools.size > 0) caps.tools = { listChanged };
    if (this.resources.size > 0 || this.templates.length > 0) caps.resources = { subscribe: updates, listChanged };
    if (this.prompts.size > 0) caps.prompts = { listChanged };
    if (this.hasCompletions()) caps.completions = {};
    const extensions = extensionsCapability(this.extensions, "2025", clientCapabilities);
    if (extensions) caps.extensions = extensions;
    return caps;
  }
}

function iconsOf(icons: unknown, what: string): Icon[] | undefined {
  return icons === undefined ? undefined : checkIcons(icons, what);
}

/** Whether a definition is enabled for this request (no predicate: always). */
export function isEnabled<Env>(
  definition: { enabled: EnabledPredicate<Env> | undefined },
  ctx: HandlerContext<Env>,
): boolean | Promise<boolean> {
  // Not an async function: docs/engine-notes.md "Microtask turns"
  return definition.enabled ? definition.enabled(ctx) : true;
}

/** The items whose definitions are enabled for this request, in order. */
export async function enabledOnly<Env, T extends { enabled: EnabledPredicate<Env> | undefined }>(
  items: Iterable<T>,
  ctx: HandlerContext<Env>,
): Promise<T[]> {
  const all = [...items];
  if (all.every((item) => item.enabled === undefined)) return all;
  const flags = await Promise.all(all.map((item) => isEnabled(item, ctx)));
  return all.filter((_, i) => flags[i]);
}

/** Starts a server definition. */
export function defineServer<Env = unknown>(config: ServerConfig): ServerDefinition<Env> {
  return new ServerDefinition<Env>(config);
}

/** The name the rest of the codebase uses for a server definition. */
export type McpServer<Env = unknown> = ServerDefinition<Env>;
