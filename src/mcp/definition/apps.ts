/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`), the part every server keeps: a tool names a
 * `ui://` resource in `_meta.ui.resourceUri` (`ui` on `server.tool`), and the types of a page's
 * config. The page itself is made by `uiResource` in the Apps wing (src/features/apps/), so a
 * server without pages bundles none of that code.
 */
import type { EnabledPredicate, ToolUi } from "./definitions";

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

/** Refuses a URI that is not `ui://…`; `owner` names what declared it. */
export function checkUiUri(owner: string, uri: string): void {
  if (!uri.startsWith("ui://") || uri.length <= "ui://".length)
    throw new TypeError(`${owner}: an MCP App resource URI starts with "ui://" (got "${uri}")`);
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
