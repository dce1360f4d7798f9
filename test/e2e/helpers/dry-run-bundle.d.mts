// Types for dry-run-bundle.mjs (the e2e TypeScript has no Node types).

/** Whether the bundle `wrangler deploy --dry-run` writes for `config` (a path from the repository root) contains `needle`. */
export function bundleContains(config: string, needle: string, how: { minify: boolean }): boolean;
