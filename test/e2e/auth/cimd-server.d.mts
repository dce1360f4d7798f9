// Types for cimd-server.mjs (the e2e TypeScript has no Node types).
export function startCimdServer(options: { port: number }): Promise<{ url: string; stop(): Promise<void> }>;
