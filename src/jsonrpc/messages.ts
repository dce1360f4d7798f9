/**
 * JSON-RPC 2.0 messages as a discriminated union on `kind`. The wire form never carries
 * `kind`; `toWire` strips it. Only `parse.ts` turns untrusted input into these types.
 */

export type RequestId = string | number;
export type Params = Record<string, unknown>;

export interface RequestMessage {
  kind: "request";
  id: RequestId;
  method: string;
  params: Params | undefined;
}

export interface NotificationMessage {
  kind: "notification";
  method: string;
  params: Params | undefined;
}

export interface ResultMessage {
  kind: "result";
  id: RequestId;
  result: Params;
}

export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface ErrorMessage {
  kind: "error";
  id: RequestId | null;
  error: ErrorObject;
}

export type Message = RequestMessage | NotificationMessage | ResultMessage | ErrorMessage;
export type ResponseMessage = ResultMessage | ErrorMessage;

/** The JSON object sent on the wire for a message. */
export type WireMessage = Record<string, unknown>;

export function toWire(message: Message): WireMessage {
  switch (message.kind) {
    case "request":
      return message.params === undefined
        ? { jsonrpc: "2.0", id: message.id, method: message.method }
        : { jsonrpc: "2.0", id: message.id, method: message.method, params: message.params };
    case "notification":
      return message.params === undefined
        ? { jsonrpc: "2.0", method: message.method }
        : { jsonrpc: "2.0", method: message.method, params: message.params };
    case "result":
      return { jsonrpc: "2.0", id: message.id, result: message.result };
    case "error":
      return { jsonrpc: "2.0", id: message.id, error: message.error };
  }
}

export function resultMessage(id: RequestId, result: Params): ResultMessage {
  return { kind: "result", id, result };
}

export function errorMessage(id: RequestId | null, error: ErrorObject): ErrorMessage {
  return { kind: "error", id, error };
}

export function notification(method: string, params?: Params): NotificationMessage {
  return { kind: "notification", method, params };
}

export function isResponse(message: Message): message is ResponseMessage {
  return message.kind === "result" || message.kind === "error";
}
