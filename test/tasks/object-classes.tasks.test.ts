/**
 * The object classes of a served server: one idiom for every class (`sessionObject(edge)`,
 * `hubObject(edge)`, `taskObject(edge)`, `userObject(edge)`), each only for what createMcpEdge
 * returned, and the deprecated forms still the same classes.
 */
import { describe, expect, it } from "vitest";
import { McpTaskObject } from "../../durable-objects/task/mcp-task";
import { taskObject } from "../../src/tasks/task-object";
import { McpSessionObject, sessionObject } from "../../durable-objects/session/mcp-session";
import { McpHub as HubClass, hubObject } from "../../durable-objects/hub/mcp-hub";
import { McpUser as UserClass, userObject } from "../../durable-objects/user/mcp-user";
import { createMcpEdge } from "../../src/edge";
import { McpHub, McpUser } from "../../src/index";
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

  it("keep the deprecated forms working: the bare McpHub and McpUser", () => {
    expect(McpHub).toBe(HubClass);
    expect(McpUser).toBe(UserClass);
  });
});
