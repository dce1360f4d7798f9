// Types for dpop-authorization-server.mjs (the e2e TypeScript has no Node types).
export interface TokenRequest {
  grantType: string | null;
  resource: string | null;
  dpop: boolean;
}
export function startAuthorizationServer(options: { clients: Record<string, string> }): Promise<{
  issuer: string;
  tokenRequests: TokenRequest[];
  stop(): Promise<void>;
}>;
