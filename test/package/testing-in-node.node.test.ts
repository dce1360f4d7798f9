/**
 * `mcp-edge/testing` in plain Node (docs/auth.md "A principal for local tests" mints a token from a
 * shell with it): it imports no object class and no `cloudflare:` module, so it loads outside workerd,
 * and a token it mints there is one testAuth() accepts. The test-only entry, which does import the
 * object classes, is the subpath `mcp-edge/testing/entry`.
 */
import { describe, expect, it } from "vitest";

const SECRET = "node-only-test-auth-secret-0123456789abcdef";

describe("mcp-edge/testing outside workerd", () => {
  it("loads in plain Node and mints a token testAuth() verifies", async () => {
    const testing = await import("../../src/testing/index");
    const token = await testing.mintTestToken({ subject: "ada", scopes: ["notes"], secret: SECRET });
    const verify = testing.testAuth({ secret: SECRET }).verify as (t: string, c: { resource: string; env: unknown }) => Promise<unknown>;
    await expect(verify(token, { resource: "http://localhost/mcp", env: {} })).resolves.toMatchObject({
      subject: "ada",
      scopes: ["notes"],
    });
  });
});
