// A 2026-07-28 `subscriptions/listen` stream opened with fetch, as a client sends it (the SDK v2 client has
// no listen API yet): the e2e files read its JSON-RPC messages one at a time.

export interface ListenStream {
  /** The answer, for its status and headers. */
  readonly response: Response;
  /** The next JSON-RPC message on the stream; throws when the stream ended first. */
  next(): Promise<Record<string, unknown>>;
  /** Ends the stream from the client's side. */
  close(): Promise<void>;
}

/** Opens a listen stream (request id `id`) for updates of `uri`, declaring `clientName` in its envelope. */
export async function openListenStream(mcpUrl: string, id: string, uri: string, clientName: string): Promise<ListenStream> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: clientName, version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const abort = new AbortController();
  const response = await fetch(mcpUrl, {
    method: "POST",
    signal: abort.signal,
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "subscriptions/listen",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { _meta: meta, notifications: { resourceSubscriptions: [uri] } },
    }),
  });
  if (!response.body) throw new Error(`the listen request got ${response.status} without a body`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const next = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const end = buffered.indexOf("\n\n");
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim())
          .join("\n");
        if (data) return JSON.parse(data) as Record<string, unknown>;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the listen stream ended");
      buffered += value;
    }
  };
  const close = async () => {
    abort.abort();
    await reader.cancel().catch(() => undefined);
  };
  return { response, next, close };
}
