// For optional-peers.node.test.ts (Node APIs live here: the Worker-side tsconfig has no Node types).
// Bundles an entry of the repository the way wrangler does (esbuild, the workerd conditions) with
// "jose" aliased to a package that does not exist, as in a project that never installed it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..", "..");

/** The bundle's text; throws when the build fails. */
export async function bundleWithoutJose(entry) {
  const outdir = mkdtempSync(join(tmpdir(), "mcp-edge-peers-"));
  try {
    const outfile = join(outdir, "bundle.mjs");
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
    return readFileSync(outfile, "utf8");
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Bundles src/auth/jwt.ts without jose and, in a Node process whose folder has no node_modules
 * above it, checks one token with a jwtVerifier: what the verifier said (its error's message).
 */
export async function jwtVerifierWithoutJose() {
  const outdir = mkdtempSync(join(tmpdir(), "mcp-edge-peers-"));
  try {
    const outfile = join(outdir, "jwt.mjs");
    await build({
      entryPoints: [join(ROOT, "src/auth/jwt.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
      outfile,
      alias: { jose: "jose-is-not-installed" },
      logLevel: "silent",
    });
    const script = `
      const { jwtVerifier } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
      const verify = jwtVerifier({ issuer: "https://issuer.example", jwks: { keys: [] } });
      await verify("a.b.c", { resource: "https://mcp.example.com/mcp", env: {} }).then(
        () => console.log("accepted"),
        (error) => console.log(error.message),
      );`;
    return execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: outdir, encoding: "utf8" }).trim();
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
