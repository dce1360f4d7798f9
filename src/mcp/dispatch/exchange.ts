/**
 * One POST's worth of messages: the parsed entries sorted into requests, everything else the
 * client sent, and entries that were not valid messages; and the body that answers them (a
 * single response, or an array for a batch — JSON-RPC 2.0 §6).
 */
import { errorMessage, toWire, type Message, type RequestMessage, type ResponseMessage } from "../../jsonrpc/messages";
import type { ParsedBody, ParsedEntry } from "../../jsonrpc/parse";

export interface Exchange {
  batch: boolean;
  requests: RequestMessage[];
  /** Notifications and responses from the client. */
  others: Message[];
  /** Error responses for entries that were not valid messages. */
  invalid: ResponseMessage[];
}

export function toExchange(parsed: Extract<ParsedBody, { ok: true }>): Exchange {
  const entries: ParsedEntry[] = parsed.batch ? parsed.entries : [parsed.entry];
  const exchange: Exchange = { batch: parsed.batch, requests: [], others: [], invalid: [] };
  for (const entry of entries) {
    if (!entry.ok) exchange.invalid.push(errorMessage(entry.id, entry.error.toJSON()));
    else if (entry.message.kind === "request") exchange.requests.push(entry.message);
    else exchange.others.push(entry.message);
  }
  return exchange;
}

export function messagesOf(exchange: Exchange): Message[] {
  return [...exchange.requests, ...exchange.others];
}

/** The JSON body answering an exchange's requests. */
export function replyBody(exchange: Exchange, responses: ResponseMessage[]): unknown {
  const all = [...exchange.invalid, ...responses].map(toWire);
  return exchange.batch ? all : all[0];
}
