/**
 * McpHub: the subscription hub, one per server (or per shard). It serves 2026-07-28
 * `subscriptions/listen` streams (listeners.ts, memory only) and remembers which 2025-era
 * sessions subscribed to what (registrations.ts, the only storage). `publish` fans an event
 * out to both: listen streams get it directly, sessions through their own object.
 */
import { DurableObject } from "cloudflare:workers";
import type { SessionObjectRpc } from "../session/contract";
import type { EdgeEnv } from "../../src/env";
import {
  HUB_LISTEN_URL,
  type HubRpc,
  type HubTopic,
  type ListenOpen,
  type PublishEvent,
  type PublishReport,
  type UpdateDelivery,
} from "./contract";
import { ListenStreams } from "./listeners";
import { Registrations, topicKey } from "./registrations";
import { refuse } from "../../src/wire/refusals";

export class McpHub extends DurableObject<EdgeEnv> implements HubRpc {
  private readonly listeners = new ListenStreams();
  private readonly registrations: Registrations;

  constructor(ctx: DurableObjectState, env: EdgeEnv) {
    super(ctx, env);
    this.registrations = new Registrations(ctx.storage);
  }

  /** Opens a listen stream (the Worker's serveListen validated the request and computed the filter). */
  override async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST" || request.url !== HUB_LISTEN_URL) return refuse({ reason: "not-found" });
    const open = (await request.json()) as ListenOpen;
    const outcome = this.listeners.open(open);
    if (outcome.ok) return outcome.response;
    return refuse({ reason: "too-many-listen-streams", limit: outcome.limit }, open.id);
  }

  // ---- RPC from session objects ------------------------------------------------------------

  async register(sessionId: string, topic: HubTopic): Promise<void> {
    this.registrations.add(topicKey(topic), sessionId);
  }

  async unregister(sessionId: string, topic: HubTopic): Promise<void> {
    await this.registrations.remove(topicKey(topic), sessionId);
  }

  /** A session was terminated or expired: it is no longer registered for anything. */
  async forget(sessionId: string): Promise<void> {
    await this.registrations.forget(sessionId);
  }

  // ---- RPC from publish() ----------------------------------------------------------------

  /** Delivers an event to the listen streams that opted in and to the sessions registered for it. */
  async publish(event: PublishEvent): Promise<PublishReport> {
    const listenStreams = this.listeners.deliver(event);
    const sessions = event.type === "taskStatus" ? 0 : await this.notifySessions(event);
    return { listenStreams, sessions };
  }

  /** Ends every listen stream with its `complete` result (server shutdown). Returns how many. */
  async closeListeners(): Promise<number> {
    return this.listeners.closeAll();
  }

  /** Calls each registered session; forgets those that are gone or no longer subscribed. */
  private async notifySessions(event: Exclude<PublishEvent, { type: "taskStatus" }>): Promise<number> {
    const topic = topicKey(event.type === "resourceUpdated" ? { uri: event.uri } : { lists: true });
    const ids = this.registrations.sessions(topic);
    if (ids.length === 0) return 0;
    const namespace = this.env.MCP_SESSION;
    if (!namespace) throw new Error("mcp-edge: the hub has 2025-era sessions registered but no MCP_SESSION binding");
    const stale: string[] = [];
    const delivered = await Promise.all(
      ids.map(async (sessionId) => {
        const stub: DurableObjectStub<SessionObjectRpc> = namespace.get(namespace.idFromString(sessionId));
        const call = event.type === "resourceUpdated" ? stub.resourceUpdated(event.uri) : stub.listChanged(event.list);
        const delivery: UpdateDelivery = await call.catch(() => "no-stream" as const);
        if (delivery === "gone" || delivery === "not-subscribed") stale.push(sessionId);
        return delivery === "sent" ? 1 : 0;
      }),
    );
    await this.registrations.removeMany(topic, stale);
    return delivered.reduce<number>((a, b) => a + b, 0);
  }
}
