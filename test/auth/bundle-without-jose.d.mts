// Types for bundle-without-jose.mjs (the Worker-side TypeScript has no Node types).
export function bundleWithoutJose(entry: string): Promise<string>;
export function jwtVerifierWithoutJose(): Promise<string>;
