/**
 * What each entry point offers at run time, as a user's `import … from` sees it: "mcp-edge" the
 * values that define and serve a server, each feature's subpath its factory and helpers,
 * "mcp-edge/types" the wire's constants, and
 * "mcp-edge/extensions" the extension plumbing and an extension's definitions (docs/server.md "Why a name is where it is"),
 * "mcp-edge/events" the Events extension as a feature (docs/events.md), and
 * "mcp-edge/json-schema" the full JSON Schema validator (docs/server.md "Raw JSON Schema validation").
 * A name added to or moved between them is a decision: change this list with the CHANGELOG.
 */
import { describe, expect, it } from "vitest";
import * as events from "../../src/features/events/index";
import * as extensions from "../../src/extensions";
import * as jsonSchema from "../../src/json-schema";
import * as face from "../../src/index";
import * as types from "../../src/types";
import * as sessionsEntry from "../../src/features/sessions/index";
import * as hubEntry from "../../src/features/hub/index";
import * as tasksEntry from "../../src/features/tasks/index";
import * as userEntry from "../../src/features/user/index";
import * as skillsEntry from "../../src/features/skills/index";
import * as appsEntry from "../../src/features/apps/index";
import * as discoveryEntry from "../../src/features/discovery/index";
import * as rateLimitsEntry from "../../src/features/rate-limits/index";
import * as observeEntry from "../../src/features/observe/index";

const names = (module: object) => Object.keys(module).sort();

describe("the package's entry points", () => {
  // The object factories of the idiom before features: deprecated, kept one release so such a project
  // still builds (test/servers/old-idiom), then removed. They are not among the values "." documents.
  const deprecatedFactories = ["sessionObject", "deferredSessionObject", "hubObject", "taskObject", "userObject"];

  it('"mcp-edge" offers what defining and serving a server needs, at most 15 values, and nothing of a feature, the wire or extensions', () => {
    const documented = names(face).filter((name) => !deprecatedFactories.includes(name));
    expect(documented).toEqual(
      [
        ...["defineServer", "createMcpEdge"],
        ...["text", "image", "audio", "resourceLink", "embeddedResource", "toolError", "ToolError", "RpcError"],
        ...["needScopes", "reauthenticate", "AuthorizationChallenge"],
      ].sort(),
    );
    expect(documented.length).toBeLessThanOrEqual(15);
    for (const name of deprecatedFactories) expect(face).toHaveProperty(name);
  });

  it('"mcp-edge/types" holds the protocol revisions and the JSON-RPC error codes', () => {
    expect(names(types)).toEqual([
      ...["LATEST_VERSION", "LOGGING_LEVELS", "SUPPORTED_VERSIONS", "VERSIONS_2026"],
      ...["errorCodes", "isLoggingLevel"],
    ]);
    expect(types.errorCodes.INVALID_PARAMS).toBe(-32602);
    expect(types.VERSIONS_2026).toContain("2026-07-28");
  });

  it('"mcp-edge/extensions" holds the extension identifiers, the checks of what a client declared and an extension\'s definitions', () => {
    expect(names(extensions)).toEqual(
      [
        ...["TASKS_EXTENSION", "UI_EXTENSION", "SKILLS_EXTENSION", "APP_MIME_TYPE"],
        ...["clientDeclares", "clientExtension", "checkExtensionMethod", "missingExtensionError"],
        ...["defineMethod", "defineInteractiveMethod", "defineNotification"],
      ].sort(),
    );
    const capabilities = { extensions: { "io.modelcontextprotocol/tasks": {} } };
    expect(extensions.clientDeclares(capabilities, extensions.TASKS_EXTENSION)).toBe(true);
    expect(extensions.clientDeclares(capabilities, extensions.UI_EXTENSION)).toBe(false);
  });

  it('"mcp-edge/json-schema" holds the full JSON Schema 2020-12 validator, a compiler defineServer\'s jsonSchema takes', () => {
    expect(names(jsonSchema)).toEqual(["fullJsonSchema"]);
    const validate = jsonSchema.fullJsonSchema({ anyOf: [{ type: "string" }, { type: "null" }] }, 'tool "t" input');
    expect(validate(null)).toEqual([]);
    expect(validate(1).map(({ at, message }) => ({ at, message }))).toEqual([{ at: "", message: "must be a string or null" }]);
  });

  it('"mcp-edge/events" holds the Events extension: event definitions, the feature and its identifier', () => {
    expect(names(events)).toEqual(["EVENTS_EXTENSION", "defineEvent", "events", "webhooks"]);
    expect(events.EVENTS_EXTENSION).toBe("io.modelcontextprotocol/events");
  });

  it("each feature is its own subpath, offering its factory: mcp-edge/sessions (with deferredSessions and legacySse), /tasks, /user, /discovery, /rate-limits, /observe", () => {
    expect(names(sessionsEntry)).toEqual(["deferredSessions", "legacySse", "sessions"]);
    expect(names(tasksEntry)).toEqual(["tasks"]);
    expect(names(userEntry)).toEqual(["user"]);
    expect(names(discoveryEntry)).toEqual(["discovery"]);
    expect(names(rateLimitsEntry)).toEqual(["rateLimits"]);
    expect(names(observeEntry)).toEqual(["observe"]);
  });

  it('"mcp-edge/hub" offers the hub and what a Worker sends through it: publish, the notify helpers, endStreamsOf', () => {
    expect(names(hubEntry)).toEqual(
      [
        ...["hub", "publish", "publishAndCount", "closeListenStreams"],
        ...["notifyListChanged", "notifyResourceUpdated", "endStreamsOf"],
      ].sort(),
    );
  });

  it('"mcp-edge/skills" offers defineSkill', () => {
    expect(names(skillsEntry)).toEqual(["defineSkill"]);
  });

  it('"mcp-edge/apps" offers uiResource and the MIME type of an App page', () => {
    expect(names(appsEntry)).toEqual(["APP_MIME_TYPE", "uiResource"]);
  });
});
