/**
 * The Worker's streaming answer in stateless mode: an SSE response that carries the related
 * notifications of the exchange's requests and then their responses. It is not resumable
 * (no event ids, nothing stored) and it cannot carry server-to-client requests: there is no
 * session to receive the client's answer.
 */
import { notification, toWire, type Params, type RequestMessage, type ResponseMessage } from "../jsonrpc/messages";
import type { Channel } from "../mcp/context";
import { encodeSseEvent, sseResponse } from "../wire/sse";

const STATELESS_REASON = "this server runs in stateless mode, so there is no session to carry the client's answer";

export function streamReply(
  requests: RequestMessage[],
  prelude: ResponseMessage[],
  run: (request: RequestMessage, channel: Channel) => Promise<ResponseMessage>,
  headers: Record<string, string>,
): Response {
  // A native byte pipe (no JavaScript transform step), as for the session object's streams.
  const { readable, writable } = new IdentityTransformStream();
  const writer = writable.getWriter() as WritableStreamDefaultWriter<Uint8Array>;
  let open = true;
  const send = (message: Record<string, unknown>): Promise<void> =>
    open
      ? writer.write(encodeSseEvent(JSON.stringify(message))).catch(() => {
          open = false;
        })
      : Promise.resolve();

  const channel: Channel = {
    notify: (method: string, params: Params) => send(toWire(notification(method, params))),
    request: () => Promise.reject(new Error(STATELESS_REASON)),
    closeStream: () => undefined,
    logLevel: () => undefined,
    requestUnavailable: STATELESS_REASON,
  };

  const work = (async () => {
    for (const response of prelude) await send(toWire(response));
    await Promise.all(requests.map(async (request) => send(toWire(await run(request, channel)))));
    if (open) await writer.close().catch(() => undefined);
  })();
  work.catch((error) => console.error("mcp-edge: stateless stream failed", error));
  return sseResponse(readable, headers);
}
