/**
 * Path patterns are checked when createMcpEdge runs: a bad one throws a TypeError that names the
 * option, the pattern and the problem, before any request.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";
import type { EdgeOptions } from "../../src/kernel/options";
import { discovery } from "../../src/features/discovery/index";
import { auth } from "../../src/features/auth/index";

const server = defineServer({ name: "com.example/patterns", version: "1.0.0", description: "patterns" });
const verify = async () => null;

function create(options: EdgeOptions): unknown {
  return createMcpEdge(server, options);
}

describe("route patterns refused at createMcpEdge", () => {
  it.each([
    [{ path: "/mcp/:" }, /option path "\/mcp\/:" has ":" without a parameter name/],
    [{ path: "/mcp/:a/x/:a" }, /option path "\/mcp\/:a\/x\/:a" names the parameter ":a" twice/],
    [{ path: "/mcp/*" }, /option path "\/mcp\/\*" has a wildcard/],
    [{ path: "/mcp/:tenant*" }, /has a wildcard/],
    [{ path: "/mcp/t:x" }, /has ":" inside the segment "t:x": a parameter is a whole segment/],
    [
      { path: "/mcp/:tenant?" },
      /option path "\/mcp\/:tenant\?" has the optional parameter ":tenant\?": optional parameters are not supported. Use "\/mcp\/:tenant" and give the URL without it a value of its own \(e.g. "\/mcp\/default" for the default tenant\)$/,
    ],
    [
      { path: "/mcp/:path+" },
      /has the repeated parameter ":path\+": a parameter takes exactly one segment. Name each segment \("\/mcp\/:path\/:more"\)/,
    ],
    [{ path: "/mcp/:1st" }, /not starting with a digit/],
    [{ path: "mcp/:tenant" }, /option path "mcp\/:tenant" must start with "\/"/],
    [{ statelessPath: "/s/:" }, /option statelessPath "\/s\/:" has ":" without a parameter name/],
    [{ legacySsePath: "/sse/:tenant" }, /option legacySsePath "\/sse\/:tenant" cannot take route parameters: the 2024-11-05 transport/],
    [{ legacyMessagesPath: "messages" }, /option legacyMessagesPath "messages" must start with "\/"/],
    [{ path: 42 as unknown as string }, /option path must be a string path, e.g. "\/mcp"/],
  ] as [EdgeOptions, RegExp][])("%o", (options, message) => {
    expect(() => create(options)).toThrow(message);
    expect(() => create(options)).toThrow(TypeError);
  });

  it("refuses an auth.resource whose parameters the endpoints do not name", () => {
    const gate = () =>
      auth({ resource: "https://mcp.example.com/mcp/:tenant", authorizationServers: ["https://auth.example.com"], verify });
    expect(() => create({ path: "/mcp/:org", features: [gate()] })).toThrow(
      /option path "\/mcp\/:org" must name the parameters of auth.resource: :tenant/,
    );
    expect(() => create({ path: "/mcp/:tenant", statelessPath: "/stateless", features: [gate()] })).toThrow(
      /option statelessPath "\/stateless" must name the parameters of auth.resource/,
    );
    expect(() => create({ path: "/mcp/:tenant", features: [gate()] })).not.toThrow();
  });

  it("refuses an AI Catalog for a path with parameters", () => {
    expect(() => create({ path: "/mcp/:tenant", features: [discovery({ catalog: true })] })).toThrow(
      /discovery.catalog: a path with route parameters has a Server Card per route/,
    );
    expect(() => create({ path: "/mcp/:tenant", features: [discovery()] })).not.toThrow();
  });

  it("accepts literal paths and patterns of several parameters", () => {
    expect(() => create({ path: "/v1/:org/mcp/:key", statelessPath: "/s/:org/:key" })).not.toThrow();
    expect(() => create({ path: "/mcp" })).not.toThrow();
  });
});

describe("paths a pattern does not match go to your own routes", () => {
  it("handle() resolves undefined for them, untouched, and answers the routes it matches", async () => {
    const edge = createMcpEdge(server, { path: "/mcp/:tenant", sessions: false });
    const at = (path: string) =>
      edge.handle(
        new Request(`http://127.0.0.1:8787${path}`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }),
        {},
        createExecutionContext(),
      );
    expect(await at("/health")).toBeUndefined();
    expect(await at("/mcp")).toBeUndefined();
    expect(await at("/mcp/acme/extra")).toBeUndefined();
    const served = await at("/mcp/acme");
    expect(await served?.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});
