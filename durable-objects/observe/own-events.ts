/**
 * What an object reports of its own, where no operation of the Worker's covers it (a session
 * object's): an operation event with its span for `initialize` (the Worker's event counts the
 * request) and the alarm (a billed request no one else made), and a hub delivery as the child span
 * of the hub's span for the event. The rows come from the object's metered storage. The observe
 * wing's: an observed object's part (observed-object.ts) runs them.
 */
import { type Delivery, newMeter, type Observer, type Place, type RowCounter } from "../../src/mcp/operations/observe";

/** What the reports need from their object. */
export interface OwnEventsHost {
  readonly observer: Observer;
  readonly place: Place;
  readonly env: unknown;
  /** The session they are about (a session object's id). */
  readonly sessionId: string | undefined;
  readonly rows: RowCounter;
}

/** An operation event of this object's own, with its span: `doRequests` it received that no one else counts. */
export function observeOwn(host: OwnEventsHost, method: string, doRequests: number, openStreams: number): void {
  const { observer, rows } = host;
  const span = observer.start({ method, params: {}, sessionId: host.sessionId }, host.place, host.env);
  span.countDoRequests(doRequests);
  span.measure({ ...newMeter(openStreams), rows: () => rows.takeRows() });
  span.end();
}

/** Runs `deliver` inside the delivery's span, and returns what it delivered. */
export function traceDelivery<T extends string>(host: OwnEventsHost, delivery: Delivery, deliver: () => T): T {
  const { method, params, parent } = delivery;
  const tracing = parent === undefined ? undefined : host.observer.tracing;
  const span = tracing?.start({ method, params, parent, sessionId: host.sessionId }, "client");
  span?.attribute("mcp_edge.place", host.place);
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
