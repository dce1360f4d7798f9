/**
 * perOrigin (src/auth/per-origin.ts): the Worker is built for the public origin, the
 * MCP_PUBLIC_URL variable's when set (deployed), else the request's own (wrangler dev on any
 * port), once per origin; so the issuer and resource need no fixed string at module load.
 */
import { describe, expect, it } from "vitest";
import { perOrigin } from "../../src/auth/per-origin";

function recording() {
  const builds: string[] = [];
  const worker = perOrigin<Record<string, string | undefined>>((origin) => {
    builds.push(origin);
    return { fetch: () => new Response(origin) };
  });
  const call = async (url: string, env: Record<string, string | undefined> = {}) =>
    (await worker.fetch(new Request(url), env, {} as ExecutionContext)).text();
  return { builds, call };
}

describe("perOrigin", () => {
  it("builds for the request's origin without the variable, and once per origin", async () => {
    const { builds, call } = recording();
    expect(await call("http://127.0.0.1:8788/mcp")).toBe("http://127.0.0.1:8788");
    expect(await call("http://127.0.0.1:8788/authorize?x=1")).toBe("http://127.0.0.1:8788");
    expect(await call("http://localhost:9999/mcp")).toBe("http://localhost:9999");
    expect(builds).toEqual(["http://127.0.0.1:8788", "http://localhost:9999"]);
  });

  it("builds for MCP_PUBLIC_URL's origin when it is set, whatever the request's host", async () => {
    const { builds, call } = recording();
    const env = { MCP_PUBLIC_URL: "https://mcp.example.com/" };
    expect(await call("http://10.0.0.7:8080/mcp", env)).toBe("https://mcp.example.com");
    expect(builds).toEqual(["https://mcp.example.com"]);
  });
});
