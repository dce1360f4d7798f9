/** Sends `lines` (request line and headers) and `body` to 127.0.0.1:`port`; resolves the status and body. */
export function rawRequest(port: number, lines: readonly string[], body?: string): Promise<{ status: number; body: string }>;
