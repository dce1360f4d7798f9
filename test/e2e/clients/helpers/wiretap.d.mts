// Types for wiretap.mjs (no Node type definitions needed).

export interface Exchange {
  method: string;
  /** Path and query. */
  path: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  requestBody: string;
  /** 0 while no answer has come. */
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  /** What has arrived so far (the first 256 KiB). */
  responseBody: string;
  error?: string;
}

export interface Wiretap {
  /** Origin of the proxy, e.g. "http://127.0.0.1:40111"; use `${url}/mcp` as the client's server URL. */
  url: string;
  /** Every request so far, in arrival order. */
  exchanges: Exchange[];
  close(): Promise<void>;
}

export function startWiretap(target: string): Promise<Wiretap>;
/** A JSON-RPC message as it crossed the wire: nothing is checked, so every member is optional. */
export interface WireMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export function jsonRpcMessages(body: string, contentType?: string | string[]): WireMessage[];
export interface Handshake {
  /** Index of the initialize exchange in `exchanges`. */
  index: number;
  clientName: string | undefined;
  requested: string | undefined;
  negotiated: string | undefined;
  sessionId: string | undefined;
}

/** Every initialize seen, in order; requested/negotiated/sessionId are the last handshake's. */
export function summarise(exchanges: Exchange[]): {
  handshakes: Handshake[];
  requested: string | undefined;
  negotiated: string | undefined;
  sessionId: string | undefined;
  methods: string[];
};
