/**
 * The object classes of a served server: one idiom for every class (`sessionObject(edge)`,
 * `hubObject(edge)`, `taskObject(edge)`, `userObject(edge)`), each only for what createMcpEdge
 * returned, and the deprecated forms still the same classes.
 */
import { describe, expect, it } from "vitest";
import { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import { taskObject } from "../../src/tasks/task-object";
import { McpSessionObject } from "../../durable-objects/sessions/mcp-session";
import { sessionObject } from "../../durable-objects/sessions/classes";
import { McpHub as HubClass, hubObject } from "../../durable-objects/hub/mcp-hub";
import { McpUser as UserClass, userObject } from "../../durable-objects/user/mcp-user";
import { createMcpEdge } from "../../src/edge";
import { McpHub, McpUser } from "../../src/index";
import { defineServer } from "../../src/mcp/definition/server";
import { EdgeObject } from "../../durable-objects/kit/edge-object";
import { deferredSessionObject } from "../../durable-objects/sessions/deferred";

const edge = createMcpEdge(defineServer({ name: "t", version: "1.0.0" }));

describe("the object class factories", () => {
  it("make each class from the object createMcpEdge returned", () => {
    expect(sessionObject(edge).prototype).toBeInstanceOf(McpSessionObject);
    expect(hubObject(edge).prototype).toBeInstanceOf(HubClass);
    expect(taskObject(edge).prototype).toBeInstanceOf(McpTaskObject);
    expect(userObject(edge)).toBe(UserClass);
  });

  it("make every class on the one object kit (bound, restored, metered and routed the same way)", () => {
    const edgeForDeferred = createMcpEdge(defineServer({ name: "d", version: "1.0.0" }));
    for (const made of [
      sessionObject(edge),
      deferredSessionObject(edgeForDeferred),
      hubObject(edge),
      hubObject(),
      taskObject(edge),
      userObject(edge),
    ]) {
      expect(made.prototype).toBeInstanceOf(EdgeObject);
    }
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
