/**
 * `jose`, an optional peer dependency, loaded on first use: a Worker that imports mcp-edge/oauth
 * for the built-in authorization server alone builds without it. The import sits in a `try`, so
 * bundlers (esbuild, wrangler's) bundle jose when it is installed and leave the import in place
 * when it is not; the first JWT or DPoP check then fails with an error naming the package.
 */
export type Jose = typeof import("jose");

/** jose, or an error saying which verifier needs it and how to install it. */
export async function loadJose(needer: "jwtVerifier" | "dpopVerifier"): Promise<Jose> {
  try {
    return await import("jose");
  } catch (cause) {
    throw new Error(`mcp-edge/oauth: ${needer} needs the package "jose" (an optional peer dependency): npm install jose`, { cause });
  }
}
