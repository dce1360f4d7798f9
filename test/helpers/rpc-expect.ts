/**
 * Assertions on JSON-RPC answers read through the front door: status, Content-Type, id and
 * code checked together, so a test states one expectation per HTTP answer. Also the session
 * namespace, typed, for tests that count Durable Objects.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { post, STATELESS, type PostOptions } from "./mcp";

export type RpcId = string | number | null;

export interface RpcReply {
  jsonrpc: string;
  id: RpcId;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** Asserts a JSON-RPC error answer (HTTP status, JSON body, code, id) and returns the body. */
export async function expectRpcError(res: Response, status: number, code: number, id: RpcId = null): Promise<RpcReply> {
  const body = (await res.json()) as RpcReply;
  expect({ status: res.status, type: res.headers.get("Content-Type"), jsonrpc: body.jsonrpc, id: body.id, code: body.error?.code }).toEqual(
    { status, type: "application/json", jsonrpc: "2.0", id, code },
  );
  expect(body.error?.message).toEqual(expect.any(String));
  expect(body).not.toHaveProperty("result");
  return body;
}

/** Asserts a 200 JSON result for request `id` and returns the result object. */
export async function expectResult(res: Response, id: RpcId = 1): Promise<Record<string, unknown>> {
  const body = (await res.json()) as RpcReply;
  expect({ status: res.status, type: res.headers.get("Content-Type"), jsonrpc: body.jsonrpc, id: body.id, error: body.error }).toEqual({
    status: 200,
    type: "application/json",
    jsonrpc: "2.0",
    id,
    error: undefined,
  });
  return body.result as Record<string, unknown>;
}

/** Asserts 202 Accepted with an empty body (notifications and responses only). */
export async function expectAccepted(res: Response): Promise<void> {
  expect(res.status).toBe(202);
  expect(await res.text()).toBe("");
}

/** POSTs to the stateless endpoint (/stateless/mcp). */
export function postStateless(body: unknown, opts: PostOptions = {}): Promise<Response> {
  return post(body, { ...opts, url: STATELESS });
}

/** A request body in the stateless lane. */
export function statelessCall(
  method: string,
  params: Record<string, unknown> = {},
  opts: PostOptions = {},
  id: number | string = 1,
): Promise<Response> {
  return postStateless({ jsonrpc: "2.0", id, method, params }, opts);
}

/** The MCP_SESSION Durable Object namespace the demo Worker is bound to. */
export function sessionNamespace(): DurableObjectNamespace {
  const namespace = (env as unknown as { MCP_SESSION?: DurableObjectNamespace }).MCP_SESSION;
  if (!namespace) throw new Error("the test Worker has no MCP_SESSION binding");
  return namespace;
}
