/**
 * `mcp-edge/apps`: MCP Apps pages (the `io.modelcontextprotocol/ui` extension).
 * `server.add(uiResource("ui://…", config, html))` serves one; a tool names it with `ui` on
 * `server.tool`. docs/apps.md.
 */
export { uiResource, APP_MIME_TYPE, type UiResourceDefinition } from "./ui-resource";
export type { UiResourceConfig, UiCsp, UiPermissions, ToolUi, ToolVisibility } from "../../mcp/definition/apps";
