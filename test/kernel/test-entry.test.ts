/**
 * `testEntry` (mcp-edge/testing/entry) serves features as the production entry does: every built-in one
 * by default, or the list it is given, and hands back exactly their classes in `entry.objects`.
 */
import { describe, expect, it } from "vitest";
import { testEntry } from "../../src/testing/test-entry";
import { defineServer } from "../../src/mcp/definition/server";
import { deferredSessions, sessions } from "../../src/features/sessions/index";
import { hub } from "../../src/features/hub/index";
import { auth } from "../../src/features/auth/index";
import { EDGE_BINDING } from "../../durable-objects/shared/edge-binding";

const server = () => defineServer({ name: "entry-test", version: "1.0.0" });

describe("testEntry", () => {
  it("serves every built-in feature by default: the four classes a test wrangler config binds", () => {
    const entry = testEntry(server());
    expect(Object.keys(entry.objects).sort()).toEqual(["McpHub", "McpSession", "McpTask", "McpUser"]);
    expect(entry.McpSession).toBe(entry.objects.McpSession);
  });

  it("serves the production entry's features when given, and only their classes", () => {
    const entry = testEntry(server(), { features: [deferredSessions(), hub()] });
    expect(Object.keys(entry.objects).sort()).toEqual(["McpHub", "McpSession"]);
    expect(entry.McpTask).toBeUndefined();
  });

  it("takes the production entry's features with their auth(): the test verifier replaces it", () => {
    const production = auth({
      resource: "https://mcp.example.com/mcp",
      authorizationServers: ["https://login.example.com"],
      verify: async () => null,
    });
    const entry = testEntry(server(), { features: [sessions(), production] });
    const served = entry.edge[EDGE_BINDING].features;
    expect(served.filter((feature) => feature.name === "auth")).toHaveLength(1);
    expect(served).not.toContain(production);
  });
});
