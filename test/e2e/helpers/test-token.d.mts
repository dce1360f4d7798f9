// Types for test-token.mjs: mintTestToken from mcp-edge/testing.
export function mintTestToken(options: { subject: string; secret: string; scopes?: readonly string[] }): Promise<string>;
