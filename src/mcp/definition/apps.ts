/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`): a tool names a `ui://` resource in
 * `_meta.ui.resourceUri`; the resource is an HTML page served as `text/html;profile=mcp-app`
 * whose `_meta.ui` carries the CSP origins and sandbox permissions the host should grant.
 * Only shapes definitions here; the resource itself is an ordinary resource of the server.
 */
import type { HandlerContext } from "./context";
import type { Awaitable, EnabledPredicate, ReadResult, ResourceConfig, ToolUi } from "./definitions";

/** The MIME type hosts render as an MCP App. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

export type { ToolUi, ToolVisibility } from "./definitions";

/** Origins the page may reach, each mapped by the host onto a CSP directive. Omitted: none beyond its own. */
export interface UiCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src`: nested iframes. */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** Browser capabilities the page asks for; hosts may grant them through the iframe's `allow`. */
export interface UiPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

export interface UiResourceConfig<Env> {
  name: string;
  title?: string;
  description?: string;
  csp?: UiCsp;
  permissions?: UiPermissions;
  /** A dedicated origin for the page, when the host supports one. */
  domain?: string;
  /** Whether the host should draw a border around the page. */
  prefersBorder?: boolean;
  enabled?: EnabledPredicate<Env>;
}

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSION_KEYS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;

function checkUiUri(owner: string, uri: string): void {
  if (!uri.startsWith("ui://") || uri.length <= "ui://".length)
    throw new TypeError(`${owner}: an MCP App resource URI starts with "ui://" (got "${uri}")`);
}

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

/** A tool's `_meta` with `ui` merged in. */
export function toolUiMeta(tool: string, ui: ToolUi, meta: Record<string, unknown> | undefined): Record<string, unknown> {
  checkUiUri(`tool "${tool}"`, ui.resourceUri);
  for (const v of ui.visibility ?? []) {
    if (v !== "model" && v !== "app") throw new TypeError(`tool "${tool}": ui.visibility holds "model" and/or "app"`);
  }
  const entry: Record<string, unknown> = { resourceUri: ui.resourceUri };
  if (ui.visibility) entry.visibility = ui.visibility;
  return { ...(meta ?? {}), ui: entry };
}

/** The resource config and read function `server.uiResource()` registers. */
export function uiResourceDefinition<Env>(
  uri: string,
  config: UiResourceConfig<Env>,
  html: (ctx: HandlerContext<Env>) => Awaitable<string>,
): { config: ResourceConfig<Env>; read: (uri: string, ctx: HandlerContext<Env>) => Promise<ReadResult> } {
  checkUiUri(`ui resource "${uri}"`, uri);
  const ui = uiMeta(uri, config);
  const _meta = Object.keys(ui).length > 0 ? { ui } : undefined;
  return {
    config: {
      name: config.name,
      title: config.title,
      description: config.description,
      mimeType: APP_MIME_TYPE,
      _meta,
      enabled: config.enabled,
    },
    async read(readUri, ctx) {
      return { uri: readUri, mimeType: APP_MIME_TYPE, text: await html(ctx), ...(_meta ? { _meta } : {}) };
    },
  };
}
