/** `taskObject(edge)`: the task object class of a served server, and only of one. */
import { describe, expect, it } from "vitest";
import { McpTaskObject, taskObject } from "../../durable-objects/task/mcp-task";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";

describe("taskObject", () => {
  it("is a task object class for the object createMcpEdge returned", () => {
    const edge = createMcpEdge(defineServer({ name: "t", version: "1.0.0" }));
    expect(taskObject(edge).prototype).toBeInstanceOf(McpTaskObject);
  });

  it("takes only what createMcpEdge returned (else the class would have no server to run)", () => {
    expect(() => taskObject({ worker: {} } as never)).toThrow(/mcp-edge taskObject\(edge\): pass the object createMcpEdge returned/);
  });
});
