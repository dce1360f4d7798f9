/**
 * jose is an optional peer dependency of mcp-edge/oauth (issue 43): a Worker using only the
 * built-in authorization server builds without it, and one whose jwtVerifier runs without it
 * hears which package to install. Bundled by esbuild (what wrangler uses) with "jose" aliased to
 * a package that does not exist, as in a project that never installed it, and run by a Node
 * process in a folder with no node_modules above it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const outdir = mkdtempSync(join(tmpdir(), "mcp-edge-peers-"));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Bundles one entry as wrangler would (its conditions), with jose missing; the output file. Throws when the build fails. */
async function bundleWithoutJose(entry: string, name: string): Promise<string> {
  const outfile = join(outdir, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    outfile,
    external: ["cloudflare:*"],
    alias: { jose: "jose-is-not-installed" },
    logLevel: "silent",
  });
  return outfile;
}

describe("mcp-edge/oauth without jose installed", () => {
  it("bundles: the built-in authorization server and upstream sign-in need no jose", async () => {
    const bundle = readFileSync(await bundleWithoutJose("src/auth/index.ts", "oauth"), "utf8");
    expect(bundle).toContain("createAuthorizationServer");
    expect(bundle).not.toContain("node_modules/jose/");
  });

  it("names the package to install at jwtVerifier's first token", async () => {
    const outfile = await bundleWithoutJose("src/auth/jwt.ts", "jwt");
    const script = `
      const { jwtVerifier } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
      const verify = jwtVerifier({ issuer: "https://issuer.example", jwks: { keys: [] } });
      await verify("a.b.c", { resource: "https://mcp.example.com/mcp", env: {} }).then(
        () => console.log("accepted"),
        (error) => console.log(error.message),
      );`;
    const said = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: outdir, encoding: "utf8" });
    expect(said.trim()).toBe('mcp-edge/oauth: jwtVerifier needs the package "jose" (an optional peer dependency): npm install jose');
  });
});
