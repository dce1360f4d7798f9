// Types for tls.mjs (no Node type definitions needed).

export interface TestCertificate {
  /** Temporary folder holding key.pem and cert.pem. */
  dir: string;
  keyPath: string;
  certPath: string;
  certPem: string;
  /** Deletes the folder. */
  remove(): void;
}

/** A self-signed certificate for 127.0.0.1 (and localhost), made with openssl. */
export function createCertificate(): TestCertificate;

/** A fetch that trusts only `caPem` (undici Agent with `connect.ca`); close() releases its sockets. */
export function fetchTrusting(caPem: string): { fetch: typeof globalThis.fetch; close(): Promise<void> };
