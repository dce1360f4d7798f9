/**
 * What a session object reports of its own, where no operation of the Worker's covers it: an
 * operation event with its span for `initialize` (the Worker's event counts the request) and the
 * alarm (a billed request no one else made), and a hub delivery as the child span of the hub's
 * span for the event. The rows come from the object's metered storage (core.takeRows).
 */
import type { Params } from "../../src/jsonrpc/messages";
import { newMeter, type Observer } from "../../src/mcp/operations/observe";
import type { UpdateDelivery } from "../hub/contract";
import type { SessionCore } from "./core";

/** What the reports need from their session object. */
export interface OwnEventsHost {
  readonly core: SessionCore;
  readonly observer: Observer | undefined;
  readonly env: unknown;
  readonly sessionId: string;
}

/** An operation event of this object's own, with its span: `doRequests` it received that no one else counts. */
export function observeOwn(host: OwnEventsHost, method: string, doRequests: number): void {
  const { observer, core } = host;
  if (!observer) return;
  const span = observer.start({ method, params: {}, sessionId: host.sessionId }, "session", host.env);
  span.countDoRequests(doRequests);
  span.measure({ ...newMeter(core.live.count()), rows: () => core.takeRows() });
  span.end();
}

/** A hub delivery's event: the child of the hub's span for it (a notification the server initiates: kind client). */
export interface Delivery {
  readonly method: string;
  readonly params: Params;
  /** The hub's span; without one (or without tracing) the delivery has no span. */
  readonly parent: string | undefined;
}

/** Runs `deliver` inside the delivery's span, and returns what it delivered. */
export function traceDelivery(host: OwnEventsHost, delivery: Delivery, deliver: () => UpdateDelivery): UpdateDelivery {
  const { method, params, parent } = delivery;
  const tracing = parent === undefined ? undefined : host.observer?.tracing;
  const span = tracing?.start({ method, params, parent, sessionId: host.sessionId }, "client");
  span?.attribute("mcp_edge.place", "session");
  try {
    const delivered = deliver();
    span?.attribute("mcp_edge.delivery", delivered);
    return delivered;
  } catch (error) {
    span?.threw(error);
    throw error;
  } finally {
    span?.end();
  }
}
