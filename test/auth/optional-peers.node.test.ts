/**
 * jose is an optional peer dependency of mcp-edge/oauth (issue 43): a Worker using only the
 * built-in authorization server builds without it, and one whose jwtVerifier runs without it
 * hears which package to install. Bundled by esbuild (what wrangler uses) with jose missing, as
 * in a project that never installed it (bundle-without-jose.mjs).
 */
import { describe, expect, it } from "vitest";
import { bundleWithoutJose, jwtVerifierWithoutJose } from "./bundle-without-jose.mjs";

describe("mcp-edge/oauth without jose installed", () => {
  it("bundles: the built-in authorization server and upstream sign-in need no jose", async () => {
    const bundle = await bundleWithoutJose("src/auth/index.ts");
    expect(bundle).toContain("createAuthorizationServer");
    expect(bundle).not.toContain("node_modules/jose/");
  });

  it("names the package to install at jwtVerifier's first token", async () => {
    expect(await jwtVerifierWithoutJose()).toBe(
      'mcp-edge/oauth: jwtVerifier needs the package "jose" (an optional peer dependency): npm install jose',
    );
  });
});
