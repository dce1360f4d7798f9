/** Response constructors: JSON bodies, 202, and JSON-RPC errors at the HTTP layer. */
import type { RequestId } from "../jsonrpc/messages";

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** 2025-06-18 Streamable HTTP: notifications and responses only -> 202 with no body. */
export function accepted(): Response {
  return new Response(null, { status: 202 });
}

export function rpcErrorResponse(status: number, code: number, message: string, id: RequestId | null = null, headers: Record<string, string> = {}): Response {
  return json({ jsonrpc: "2.0", id, error: { code, message } }, status, headers);
}
