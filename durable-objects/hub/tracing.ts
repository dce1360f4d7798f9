/**
 * The hub's spans, with tracing on (the class `hubObject(edge)` carries the server's tracer; the
 * plain `McpHub` has none and runs none of this). Opening a listen stream is a SERVER span
 * `subscriptions/listen`, the child of the Worker's span for the request (its traceparent travels
 * in the ListenOpen). Delivering a published event is a CLIENT span named by the notification's
 * method (`notifications/resources/updated`, `notifications/tools/list_changed`,
 * `notifications/tasks`): the server initiates it (OpenTelemetry MCP semantic conventions), the
 * child of the publishing call's span when `publish` was given one, and on shard 0 the parent
 * of each other shard's delivery span. Each has `mcp_edge.place: "hub"`, the shard index where
 * known (a listen stream's, shard 0's), and a delivery what it delivered.
 */
import type { OperationSpan, Tracing } from "../../src/mcp/tracing";
import { refusalRow, type Refusal } from "../../src/wire/refusals";
import type { ListenOpen, PublishEvent, PublishReport } from "./contract";

/** The notification method an event is delivered as. */
function methodOf(event: PublishEvent): string {
  switch (event.type) {
    case "resourceUpdated":
      return "notifications/resources/updated";
    case "listChanged":
      return `notifications/${event.list}/list_changed`;
    case "taskStatus":
      return "notifications/tasks";
  }
}

/**
 * Runs one delivery of `event` (shard 0's publish or another shard's deliver) inside its span;
 * `run` gets the span's traceparent for the hops it makes (shard 0 to the other shards).
 */
export async function tracedDelivery<R extends PublishReport>(
  tracing: Tracing,
  event: PublishEvent,
  parent: string | undefined,
  shard: number | undefined,
  run: (traceparent: string | undefined) => Promise<R>,
): Promise<R> {
  const params = event.type === "resourceUpdated" ? { uri: event.uri } : {};
  const span = tracing.start({ method: methodOf(event), params, parent }, "client");
  hubAttributes(span, shard);
  try {
    const report = await run(span.traceparent);
    span.attribute("mcp_edge.listen_streams", report.listenStreams);
    span.attribute("mcp_edge.sessions", report.sessions);
    return report;
  } catch (error) {
    span.threw(error);
    throw error;
  } finally {
    span.end();
  }
}

/** The span of a listen stream's opening in the hub; `end` it with the refusal, if it was refused. */
export function listenSpan(tracing: Tracing, open: ListenOpen): OperationSpan {
  const span = tracing.start({
    method: "subscriptions/listen",
    params: {},
    requestId: open.id,
    protocolVersion: "2026-07-28",
    parent: open.traceparent,
  });
  hubAttributes(span, open.at?.index ?? 0);
  return span;
}

/** Ends a listen opening's span: ok, or refused (a per-client or per-shard cap). */
export function endListenSpan(span: OperationSpan, refusal: Refusal | undefined): void {
  if (refusal) {
    const row = refusalRow(refusal);
    span.failed(row.code, row.message);
  }
  span.end();
}

function hubAttributes(span: OperationSpan, shard: number | undefined): void {
  span.attribute("mcp_edge.place", "hub");
  if (shard !== undefined) span.attribute("mcp_edge.hub_shard", shard);
}
