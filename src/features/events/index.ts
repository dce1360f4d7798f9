/**
 * mcp-edge/events: the Events extension (io.modelcontextprotocol/events) as a feature. Define event
 * types with `defineEvent`, pass `events({ types })` to createMcpEdge, export its McpEvents class,
 * and `emit` from anywhere in the Worker (docs/events.md).
 */
export { defineEvent } from "./define";
export type { DeliveryMode, EventConfig, EventDefinition, UpstreamEvent, UpstreamPollContext, UpstreamPollResult } from "./define";
export { events } from "./feature";
export type { EventsFeature, EventsOptions } from "./feature";
export type { EmitOptions } from "./emit";
export { EVENTS_EXTENSION } from "./registry";
export { webhooks } from "./webhooks";
export type { WebhookOptions } from "./webhooks";
export type { EventRegistry, EventsWebhooks } from "./registry";
export type { EmitOutcome } from "../../../durable-objects/events/contract";
