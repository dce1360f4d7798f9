// Types for fake-github.mjs (the e2e TypeScript has no Node types).
export interface FakeGitHub {
  url: string;
  user: { id: number; login: string; name: string };
  /** Refresh-token grants answered with new tokens so far. */
  readonly refreshes: number;
  setAccessTtl(seconds: number): void;
  expireAccessTokens(): void;
  revokeAll(): void;
  failNextTokenRequest(): void;
  stop(): Promise<void>;
}
export function startFakeGitHub(app: { clientId: string; clientSecret: string }): Promise<FakeGitHub>;
