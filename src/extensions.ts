/**
 * `mcp-edge/extensions`: the plumbing of MCP extensions, for a server that reads or checks them
 * itself. The identifiers of the extensions mcp-edge implements (Tasks, Apps, Skills), what a
 * client declared in its capabilities, the error for a method the client did not negotiate, the
 * MIME type of an Apps page (which `uiResource` from mcp-edge/apps sets for you), and an extension's methods
 * and notifications (`server.add(defineMethod(...))`; docs/extensions.md).
 */
export {
  TASKS_EXTENSION,
  UI_EXTENSION,
  SKILLS_EXTENSION,
  clientDeclares,
  clientExtension,
  checkExtensionMethod,
  missingExtensionError,
} from "./mcp/definition/extensions";
export { APP_MIME_TYPE } from "./features/apps/ui-resource";
export { defineMethod, defineInteractiveMethod, defineNotification } from "./mcp/handlers/methods";
export type { Addable } from "./mcp/definition/server";
export type {
  MethodConfig,
  MethodDefinition,
  MethodParams,
  MethodResult,
  NotificationConfig,
  NotificationContext,
  NotificationDefinition,
} from "./mcp/definition/methods";
export type { Feature, FeatureObject, Kernel, StreamCall, StreamLane, FeatureSeams } from "./kernel/feature";
