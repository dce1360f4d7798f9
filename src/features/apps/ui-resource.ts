/**
 * MCP Apps pages (extension `io.modelcontextprotocol/ui`): an HTML page at a `ui://` URI, served
 * as `text/html;profile=mcp-app` whose `_meta.ui` carries the CSP origins and sandbox permissions
 * the host should grant. `uiResource` checks the config once and returns a value that registers
 * itself (`server.add(uiResource(…))`); the page is an ordinary resource of the server.
 */
import type { HandlerContext } from "../../mcp/definition/context";
import type { Awaitable, ReadResult, ResourceConfig } from "../../mcp/definition/definitions";
import { checkUiUri, type UiCsp, type UiResourceConfig } from "../../mcp/definition/apps";
import { UI_EXTENSION } from "../../mcp/definition/extensions";
import type { Addable, ServerDefinition } from "../../mcp/definition/server";

/** The MIME type hosts render as an MCP App. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSION_KEYS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;

/** The resource's `_meta.ui`, checked once at definition. */
function uiMeta<Env>(uri: string, config: UiResourceConfig<Env>): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  if (config.csp) {
    for (const key of Object.keys(config.csp)) {
      const list = config.csp[key as keyof UiCsp];
      if (
        !(CSP_KEYS as readonly string[]).includes(key) ||
        !Array.isArray(list) ||
        !list.every((d) => typeof d === "string" && d.length > 0)
      ) {
        throw new TypeError(`ui resource "${uri}": csp.${key} is not one of ${CSP_KEYS.join(", ")} with a list of origins`);
      }
    }
    ui.csp = config.csp;
  }
  if (config.permissions) {
    for (const key of Object.keys(config.permissions)) {
      if (!(PERMISSION_KEYS as readonly string[]).includes(key))
        throw new TypeError(`ui resource "${uri}": unknown permission "${key}" (${PERMISSION_KEYS.join(", ")})`);
    }
    ui.permissions = config.permissions;
  }
  if (config.domain !== undefined) ui.domain = config.domain;
  if (config.prefersBorder !== undefined) ui.prefersBorder = config.prefersBorder;
  return ui;
}

/** An MCP App page, checked; `server.add(page)` serves it and declares the extension. */
export class UiResourceDefinition<Env> implements Addable<Env> {
  readonly uri: string;
  readonly config: ResourceConfig<Env>;
  private readonly html: (ctx: HandlerContext<Env>) => Awaitable<string>;

  constructor(uri: string, config: UiResourceConfig<Env>, html: (ctx: HandlerContext<Env>) => Awaitable<string>) {
    checkUiUri(`ui resource "${uri}"`, uri);
    const ui = uiMeta(uri, config);
    this.uri = uri;
    this.config = {
      name: config.name,
      title: config.title,
      description: config.description,
      mimeType: APP_MIME_TYPE,
      _meta: Object.keys(ui).length > 0 ? { ui } : undefined,
      enabled: config.enabled,
    };
    this.html = html;
  }

  /**
   * What `server.add(this)` does. Typed with the server's `Env`, so inside `server.add(uiResource(…))`
   * the handlers' `ctx.env` is the server's; a page made apart names it: `uiResource<Env>(…)`.
   */
  addTo(server: ServerDefinition<Env>): void {
    if (!server.extensions.has(UI_EXTENSION)) server.extension(UI_EXTENSION);
    server.resource(this.uri, this.config, (uri, ctx) => this.read(uri, ctx));
  }

  private async read(uri: string, ctx: HandlerContext<Env>): Promise<ReadResult> {
    const { _meta } = this.config;
    return { uri, mimeType: APP_MIME_TYPE, text: await this.html(ctx), ...(_meta ? { _meta } : {}) };
  }
}

/**
 * MCP Apps: an HTML page at a `ui://` URI, served as `text/html;profile=mcp-app` with its CSP,
 * permissions, domain and border preference; `server.add(uiResource(uri, config, html))`.
 * Everything is checked here, so a bad page fails at startup, not per request.
 */
export function uiResource<Env = unknown>(
  uri: string,
  config: UiResourceConfig<Env>,
  html: (ctx: HandlerContext<Env>) => Awaitable<string>,
): UiResourceDefinition<Env> {
  return new UiResourceDefinition(uri, config, html);
}
