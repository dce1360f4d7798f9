/**
 * The deprecated object factories of the idiom before features (`sessionObject(edge)`,
 * `hubObject(edge)`, `taskObject(edge)`, `userObject(edge)`), kept one release: each still makes
 * its class, only for what createMcpEdge returned.
 */
import { describe, expect, it } from "vitest";
import { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import { taskObject } from "../../src/features/tasks/task-object";
import { McpSessionObject } from "../../durable-objects/sessions/mcp-session";
import { sessionObject } from "../../src/features/sessions/session-object";
import { McpHub as HubClass } from "../../durable-objects/hub/mcp-hub";
import { hubObject } from "../../src/features/hub/hub-object";
import { McpUser as UserClass } from "../../durable-objects/user/mcp-user";
import { userObject } from "../../src/features/user/user-object";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";

const edge = createMcpEdge(defineServer({ name: "t", version: "1.0.0" }));

describe("the object class factories", () => {
  it("make each class from the object createMcpEdge returned", () => {
    expect(sessionObject(edge).prototype).toBeInstanceOf(McpSessionObject);
    expect(hubObject(edge).prototype).toBeInstanceOf(HubClass);
    expect(taskObject(edge).prototype).toBeInstanceOf(McpTaskObject);
    expect(userObject(edge)).toBe(UserClass);
  });

  it("take only what createMcpEdge returned (else the class would have no server to run)", () => {
    for (const [name, factory] of Object.entries({ sessionObject, hubObject, taskObject, userObject })) {
      expect(() => factory({ worker: {} } as never)).toThrow(`mcp-edge ${name}(edge): pass the object createMcpEdge returned`);
    }
  });

  it("make a hub that traces nothing without an edge (a Worker that only hosts the hub)", () => {
    expect(hubObject().prototype).toBeInstanceOf(HubClass);
  });
});
