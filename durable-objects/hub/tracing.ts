/**
 * The hub's spans, with tracing on (the class `hubClass(kernel)` carries the server's tracer; the
 * plain `McpHub` has none and runs none of this). Opening a listen stream is a SERVER span
 * `subscriptions/listen`, the child of the Worker's span for the request (its traceparent travels
 * in the ListenOpen). Delivering a published event is a CLIENT span named by the notification's
 * method (`notifications/resources/updated`, `notifications/tools/list_changed`,
 * `notifications/tasks`): the server initiates it (OpenTelemetry MCP semantic conventions), the
 * child of the publishing call's span when `publish` was given one, and on shard 0 the parent
 * of the delivery span of each other shard it hands the event on to (a batch there mixes events
 * of several publishes: each keeps its own span and parent). Each has `mcp_edge.place: "hub"`,
 * the shard index where known (a listen stream's, shard 0's), and a delivery whose counts are
 * known (another shard's, or shard 0's under publishAndCount) what it delivered.
 */
import type { OperationSpan, Tracing } from "../../src/mcp/operations/tracing";
import type { RefusalRow } from "../../src/wire/refusals";
import type { BatchReport, ListenOpen, PublishEvent } from "./contract";

/** The notification method an event is delivered as. */
function methodOf(event: PublishEvent): string {
  switch (event.type) {
    case "resourceUpdated":
      return "notifications/resources/updated";
    case "listChanged":
      return `notifications/${event.list}/list_changed`;
    case "taskStatus":
      return "notifications/tasks";
    case "authorizationEnded":
      return "mcp-edge/authorizationEnded";
  }
}

/**
 * Runs one delivery of a batch (shard 0's publish or another shard's deliver) inside a span per
 * event, each the child of that event's parent (`batch.parents[i]`, when known); `run` gets the spans
 * for the hops it makes (shard 0 to the other shards). Counts are set when the report has them.
 */
export async function tracedBatch<R extends BatchReport | undefined>(
  tracing: Tracing,
  batch: { events: PublishEvent[]; parents: (string | undefined)[] | undefined; shard: number | undefined },
  run: (spans: OperationSpan[]) => Promise<R>,
): Promise<R> {
  const { events, parents, shard } = batch;
  const spans = events.map((event, i) => {
    const params = event.type === "resourceUpdated" ? { uri: event.uri } : {};
    const span = tracing.start({ method: methodOf(event), params, parent: parents?.[i] }, "client");
    hubAttributes(span, shard);
    return span;
  });
  try {
    const report = await run(spans);
    if (report) {
      for (const [i, span] of spans.entries()) {
        span.attribute("mcp_edge.listen_streams", report.listenStreams[i] ?? 0);
        span.attribute("mcp_edge.sessions", report.sessions[i] ?? 0);
      }
    }
    return report;
  } catch (error) {
    for (const span of spans) span.threw(error);
    throw error;
  } finally {
    for (const span of spans) span.end();
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
export function endListenSpan(span: OperationSpan, refusal: RefusalRow | undefined): void {
  if (refusal) span.failed(refusal.code, refusal.message);
  span.end();
}

function hubAttributes(span: OperationSpan, shard: number | undefined): void {
  span.attribute("mcp_edge.place", "hub");
  if (shard !== undefined) span.attribute("mcp_edge.hub_shard", shard);
}
