// The official SDK v2 client (@modelcontextprotocol/client) as the e2e files that speak through it
// connect it: one client declaring the extensions under test, connected over real HTTP, closed after use.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export interface SdkV2ClientOptions {
  /** The clientInfo name the server sees ("e2e-sdk-v2-events"). */
  readonly name: string;
  /** The client's negotiation mode: pinned to a revision, or `legacy` (initialize, a 2025-11-25 session). */
  readonly mode: "auto" | "legacy" | { pin: string };
  /** Extension identifiers the client declares in its capabilities. */
  readonly extensions?: readonly string[];
  /** Headers sent with every request (an `Authorization` bearer). */
  readonly headers?: Record<string, string>;
}

/** The client capabilities that declare these extensions, each with empty settings. */
export function extensionCapabilities(extensions: readonly string[]): { extensions: Record<string, Record<string, never>> } {
  return { extensions: Object.fromEntries(extensions.map((id): [string, Record<string, never>] => [id, {}])) };
}

/** Connects an SDK v2 client to `mcpUrl`, hands it to `use`, and closes it whatever `use` did. */
export async function withSdkV2Client<T>(mcpUrl: string, options: SdkV2ClientOptions, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(
    { name: options.name, version: "1.0.0" },
    { capabilities: extensionCapabilities(options.extensions ?? []), versionNegotiation: { mode: options.mode } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), options.headers && { requestInit: { headers: options.headers } });
  try {
    await client.connect(transport);
    return await use(client);
  } finally {
    await client.close();
  }
}
