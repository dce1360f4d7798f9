/**
 * The shapes of a server definition: the config a developer writes for each tool, resource,
 * template and prompt, and the resolved definitions the dispatcher serves. server.ts holds the
 * class that builds them; this file only describes them (plus the name and header-parameter checks).
 */
import type { JsonSchemaCompiler } from "../json-schema/types";
import type { CompiledSchema, InferSchema, JsonSchemaConverter, SchemaInput } from "./schema";
import type { UriTemplate } from "./uri-template";
import type { HandlerContext, InteractiveContext } from "./context";
import type { CacheHint, ResolvedCacheHint } from "./caching";
import type { ExtensionSettings } from "./extensions";
import type { TaskSupport, TaskToolOptions, TaskToolSettings } from "./task-tools";
import type { CallToolResult, GetPromptResult, ResourceContents, ToolAnnotations } from "./types";
import type { Icon } from "./icons";
import type { ScopeRequirement } from "./authorization";

export type Awaitable<T> = T | Promise<T>;

export interface ServerConfig {
  name: string;
  version: string;
  title?: string;
  /** What this server does, for people choosing it (server info, Server Card). */
  description?: string;
  /** Icons a client may show for this server (SEP-973), in initialize, server/discover and the Server Card. */
  icons?: Icon[];
  /** The server's website (SEP-973 `websiteUrl`), an absolute http(s) URL. */
  websiteUrl?: string;
  /** Sent in the initialize result: how a model should use this server. */
  instructions?: string;
  /** Items per page on every list method (default 100). */
  pageSize?: number;
  /**
   * Declare `listChanged` for tools, resources and prompts: sessions register so that
   * `notifyListChanged(env, kind)` reaches them (use with `enabled` predicates). Default false.
   */
  listChanged?: boolean;
  /** 2026-07-28 caching hint of `server/discover` (default: ttlMs 0, private). */
  cache?: CacheHint;
  /** Extensions this server supports, by identifier, with their settings (`{}` for none). Also `server.extension()`. */
  extensions?: Record<string, ExtensionSettings>;
  /**
   * zod's converter, `z.toJSONSchema` with `z` from "zod/v4": needed only for zod schemas that cannot produce JSON
   * Schema by themselves (zod 3.25's "zod/v4", zod 4.0 and 4.1); zod 4.2+, valibot and arktype schemas convert themselves.
   */
  toJSONSchema?: JsonSchemaConverter;
  /**
   * What validates raw JSON Schema (tool input and output, elicitation forms). Default: the core validator, in
   * every Worker (types, enum, const, properties, required, additionalProperties, items, bounds, pattern,
   * uniqueItems; any other keyword is a TypeError at definition). `fullJsonSchema` from "mcp-edge/json-schema"
   * checks all of JSON Schema 2020-12 (anyOf, $ref, format, …); any function of the same shape fits.
   */
  jsonSchema?: JsonSchemaCompiler;
}

/**
 * Decides per request whether a definition exists for this caller (a feature flag, the
 * principal, the session). A disabled definition is absent from lists and unknown to calls.
 */
export type EnabledPredicate<Env> = (ctx: HandlerContext<Env>) => Awaitable<boolean>;

export interface ToolConfig<I extends SchemaInput | undefined, O extends SchemaInput | undefined, Env = unknown> {
  title?: string;
  description: string;
  /** Icons a client may show beside the tool (SEP-973). */
  icons?: Icon[];
  /** JSON Schema 2020-12 (kept verbatim in tools/list) or a Standard Schema such as zod. */
  input?: I;
  /**
   * Declares `outputSchema` (any JSON Schema: an object, an array, a primitive; SEP-2106); results
   * must then carry matching `structuredContent`. A non-object one reaches 2025-era clients wrapped as `{ result }`.
   */
  output?: O;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  enabled?: EnabledPredicate<Env>;
  /** 2026-07-28 caching hint for `tools/list` (the list takes the least cacheable of its tools). */
  cache?: CacheHint;
  /**
   * Tasks extension: the tool may answer with a task ("optional": when the client declared the
   * extension; "required": only as a task, -32021 otherwise). The handler then runs in its own
   * task Durable Object and its `ctx.elicit`/`ctx.sample` become the task's `input_required`.
   */
  task?: TaskSupport | TaskToolOptions;
  /** MCP Apps: the `ui://` resource the host renders for this tool (`_meta.ui`). */
  ui?: ToolUi;
  /**
   * OAuth scopes a call needs besides `auth.requiredScopes`, checked before it runs (403
   * insufficient_scope naming the complete set): a list, or a function of the call (its arguments,
   * the principal, the route). Ignored without `auth`.
   */
  scopes?: ScopeRequirement<Env>;
}

export type ToolArgs<I> = I extends SchemaInput ? InferSchema<I> : Record<string, never>;

export type ToolHandler<Args, Ctx> = (args: Args, ctx: Ctx) => Awaitable<CallToolResult>;

/** A tool parameter mirrored into an `Mcp-Param-<header>` HTTP header (2026-07-28 `x-mcp-header`). */
export interface HeaderParam {
  path: readonly string[];
  header: string;
}

/** Finds `x-mcp-header` annotations along `properties` chains; a malformed one is refused at definition. */
export function headerParamsOf(schema: Record<string, unknown>, what: string, path: string[] = []): HeaderParam[] {
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return [];
  const found: HeaderParam[] = [];
  for (const [key, child] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof child !== "object" || child === null) continue;
    const header = (child as Record<string, unknown>)["x-mcp-header"];
    if (header !== undefined) {
      if (typeof header !== "string" || !/^[A-Za-z0-9-]{1,64}$/.test(header))
        throw new TypeError(`${what}: x-mcp-header of "${key}" must be 1-64 letters, digits or hyphens`);
      found.push({ path: [...path, key], header });
    }
    found.push(...headerParamsOf(child as Record<string, unknown>, what, [...path, key]));
  }
  return found;
}

export interface ToolDefinition<Env> {
  name: string;
  interactive: boolean;
  /** The tools/list entry, computed once. */
  listing: Record<string, unknown>;
  /** The entry 2025-era clients get: `listing`, or a copy whose non-object outputSchema is wrapped as `{ result }`. */
  listing2025: Record<string, unknown>;
  /** Whether the output schema is wrapped toward 2025-era clients (their structuredContent is then `{ result }`). */
  outputWrapped: boolean;
  input: CompiledSchema;
  output: CompiledSchema | undefined;
  handler: (args: unknown, ctx: InteractiveContext<Env>) => Awaitable<CallToolResult>;
  enabled: EnabledPredicate<Env> | undefined;
  cache: ResolvedCacheHint;
  /** Parameters mirrored into `Mcp-Param-*` headers (validated against the body on 2026-07-28). */
  headerParams: readonly HeaderParam[];
  /** Set when the tool may run as a task (Tasks extension). */
  task: TaskToolSettings | undefined;
  scopes: ScopeRequirement<Env> | undefined;
}

export type Completer<Env> = (value: string, ctx: CompletionContext<Env>) => Awaitable<readonly string[]>;
export interface CompletionContext<Env> extends HandlerContext<Env> {
  /** Values of other arguments the client already resolved (`context.arguments`). */
  arguments: Record<string, string>;
}

/** What a resource (or template) says about itself in `resources/list`, however it is defined. */
interface ResourceDescription {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  /** Icons a client may show beside the resource or template (SEP-973). */
  icons?: Icon[];
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface ResourceConfig<Env> extends ResourceDescription {
  /** Completions for template variables (templates only). */
  complete?: Record<string, Completer<Env>>;
  enabled?: EnabledPredicate<Env>;
  /** 2026-07-28 caching hint for lists and `resources/read` of this resource. */
  cache?: CacheHint;
  /**
   * OAuth scopes a read (or a subscription) needs besides `auth.requiredScopes` (403
   * insufficient_scope naming the complete set): a list, or a function of the call (a template's
   * `variables`, the principal, the route). Ignored without `auth`.
   */
  scopes?: ScopeRequirement<Env>;
}

/** A resource a template's `list` names (a `resources/list` entry); `uri` must match the template. */
export interface ListedResource extends ResourceDescription {
  uri: string;
  /** Defaults to the template's mimeType. */
  mimeType?: string;
}

/** What a template's `list` gets: the request's context, its own cursor from the page before, and the page size. */
export interface TemplateListContext<Env> extends HandlerContext<Env> {
  /** The `nextCursor` this callback returned for the previous page; undefined for its first page. */
  cursor: string | undefined;
  /** How many entries the current page still has room for (a hint: a longer page is served whole). */
  pageSize: number;
}

/** A page of a template's resources: `nextCursor` (opaque, at most 1024 characters) when it has more. */
export interface TemplateListPage {
  resources: ListedResource[];
  nextCursor?: string;
}

export interface ResourceTemplateConfig<Env> extends ResourceConfig<Env> {
  /**
   * The resources this template currently names, listed in `resources/list` after the static
   * resources: all of them (an array, paginated by mcp-edge) or one page at a time (`nextCursor`).
   */
  list?: (ctx: TemplateListContext<Env>) => Awaitable<ListedResource[] | TemplateListPage>;
}

/** What a read handler returns: one or more contents; `blob` may be bytes (sent as base64). */
export type ReadResult = ResourceContentsInput | ResourceContentsInput[];
export type ResourceContentsInput =
  | ResourceContents
  | { uri?: string; mimeType?: string; blob: Uint8Array; _meta?: Record<string, unknown> }
  | { uri?: string; mimeType?: string; text: string; _meta?: Record<string, unknown> };

export interface ResourceDefinition<Env> {
  uri: string;
  listing: Record<string, unknown>;
  enabled: EnabledPredicate<Env> | undefined;
  cache: ResolvedCacheHint;
  /** Interactive reads may elicit, sample and list roots (MRTR on 2026-07-28, the session object on 2025). */
  interactive: boolean;
  read: (uri: string, ctx: InteractiveContext<Env>) => Awaitable<ReadResult>;
  scopes: ScopeRequirement<Env> | undefined;
}

export interface ResourceTemplateDefinition<Env> {
  template: UriTemplate;
  listing: Record<string, unknown>;
  mimeType: string | undefined;
  complete: Record<string, Completer<Env>>;
  enabled: EnabledPredicate<Env> | undefined;
  cache: ResolvedCacheHint;
  read: (uri: string, variables: Record<string, string>, ctx: HandlerContext<Env>) => Awaitable<ReadResult>;
  /** Feeds `resources/list` with the resources the template names. */
  list: ResourceTemplateConfig<Env>["list"];
  scopes: ScopeRequirement<Env> | undefined;
}

export interface PromptArgument<Env> {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  complete?: Completer<Env>;
}

export interface PromptConfig<Env, A extends readonly PromptArgument<Env>[]> {
  title?: string;
  description: string;
  /** Icons a client may show beside the prompt (SEP-973). */
  icons?: Icon[];
  arguments?: A;
  _meta?: Record<string, unknown>;
  enabled?: EnabledPredicate<Env>;
  /** 2026-07-28 caching hint for `prompts/list`. */
  cache?: CacheHint;
  /**
   * OAuth scopes a call needs besides `auth.requiredScopes`, checked before it runs (403
   * insufficient_scope naming the complete set): a list, or a function of the call (its arguments,
   * the principal, the route). Ignored without `auth`.
   */
  scopes?: ScopeRequirement<Env>;
}

export type PromptArgs<A extends readonly { name: string; required?: boolean }[]> = {
  [K in A[number] as K["name"]]: K["required"] extends true ? string : string | undefined;
};

export interface PromptDefinition<Env> {
  name: string;
  listing: Record<string, unknown>;
  arguments: readonly PromptArgument<Env>[];
  enabled: EnabledPredicate<Env> | undefined;
  cache: ResolvedCacheHint;
  /** Interactive prompts may elicit, sample and list roots (MRTR on 2026-07-28, the session object on 2025). */
  interactive: boolean;
  get: (args: Record<string, string>, ctx: InteractiveContext<Env>) => Awaitable<GetPromptResult>;
  scopes: ScopeRequirement<Env> | undefined;
}

export const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

export function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

/** MCP Apps: who may call the tool: the model, the app (its page, through the host), or both (default). */
export type ToolVisibility = "model" | "app";

/** MCP Apps: the `ui://` page a tool names (`_meta.ui`). */
export interface ToolUi {
  /** A `ui://` URI of a resource declared with `server.uiResource()`. */
  resourceUri: string;
  visibility?: ToolVisibility[];
}
