// Types for step-up-authorization-server.mjs (the e2e TypeScript has no Node types).
export interface MintRequest {
  subject: string;
  scopes: string[];
  audience: string | undefined;
  claims: Record<string, unknown>;
}
export function startAuthorizationServer(options: {
  mint: (request: MintRequest) => Promise<string>;
  clients?: Record<string, string>;
}): Promise<{
  readonly issuer: string;
  authorizeRequests: { scope: string | null; resource: string | null }[];
  tokenRequests: { grantType: string | null; scope: string | null; resource: string | null }[];
  setExtraClaims(claims: Record<string, unknown>): void;
  stop(): Promise<void>;
}>;
