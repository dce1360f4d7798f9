/**
 * McpHub: the subscription hub, one per server (or per shard). It serves 2026-07-28
 * `subscriptions/listen` streams (listeners.ts, memory only) and remembers which 2025-era
 * sessions subscribed to what (registrations.ts, the only storage). `publish` fans an event
 * out to both: listen streams get it directly, sessions through their own object. Exported as is
 * it traces nothing; `hubObject(edge)` is the same class with the server's tracer (tracing.ts).
 */
import { DurableObject } from "cloudflare:workers";
import type { SessionObjectRpc } from "../session/contract";
import type { EdgeEnv } from "../../src/env";
import {
  HUB_LISTEN_URL,
  hubObjectId,
  type HubRpc,
  type HubTopic,
  type ListenOpen,
  type PublishEvent,
  type PublishReport,
  type ShardPlace,
  type ShardReport,
  type UpdateDelivery,
} from "./contract";
import { ActiveShards, ShardPresence } from "./shards";
import { ListenStreams } from "./listeners";
import { Registrations, topicKey } from "./registrations";
import { refuse } from "../../src/wire/refusals";
import type { Tracing } from "../../src/mcp/tracing";
import { tracingOfEdge } from "../../src/mcp/observe";
import { endListenSpan, listenSpan, tracedDelivery } from "./tracing";

export class McpHub extends DurableObject<EdgeEnv> implements HubRpc {
  private readonly listeners = new ListenStreams();
  private readonly registrations: Registrations;
  /** As shard 0: which other shards hold anyone. */
  private readonly active = new ActiveShards();
  /** As another shard: tells shard 0 when it starts holding someone. */
  private readonly presence = new ShardPresence((place) => this.shard(place.name, 0));

  constructor(
    ctx: DurableObjectState,
    env: EdgeEnv,
    /** The server's tracer (createMcpEdge's `tracing`), when the class is `hubObject(edge)`. */
    private readonly tracing?: Tracing,
  ) {
    super(ctx, env);
    this.registrations = new Registrations(ctx.storage);
  }

  private shard(name: string, index: number): DurableObjectStub<HubRpc> {
    const namespace = this.env.MCP_HUB as DurableObjectNamespace<HubRpc>;
    return namespace.get(hubObjectId(namespace, name, index));
  }

  /** Opens a listen stream (the Worker's serveListen validated the request and computed the filter). */
  override async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST" || request.url !== HUB_LISTEN_URL) return refuse({ reason: "not-found" });
    const open = (await request.json()) as ListenOpen;
    const span = this.tracing && listenSpan(this.tracing, open);
    await this.presence.hold(open.at);
    const outcome = await this.listeners.open(open);
    if (outcome.ok) {
      if (span) endListenSpan(span, undefined);
      return outcome.response;
    }
    const refusal = { reason: "too-many-listen-streams", limit: outcome.limit, perClient: outcome.reason === "client-limit" } as const;
    if (span) endListenSpan(span, refusal);
    return refuse(refusal, open.id);
  }

  // ---- RPC from session objects ------------------------------------------------------------

  async register(sessionId: string, topic: HubTopic, at?: ShardPlace): Promise<void> {
    await this.presence.hold(at);
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

  /**
   * Delivers an event to the listen streams that opted in and to the sessions registered for
   * it; as shard 0 with `fanout`, also has every other shard that holds anyone do the same.
   * `trace`: the publishing call's span (W3C traceparent), which a traced hub's span continues.
   */
  async publish(event: PublishEvent, fanout?: { name: string; shards: number }, trace?: string): Promise<PublishReport> {
    if (!this.tracing) return this.fanOut(event, fanout);
    return tracedDelivery(this.tracing, event, trace, 0, (traceparent) => this.fanOut(event, fanout, traceparent));
  }

  private async fanOut(event: PublishEvent, fanout?: { name: string; shards: number }, trace?: string): Promise<PublishReport> {
    const own = this.deliverHere(event);
    if (!fanout || fanout.shards <= 1) return own;
    const answers = await Promise.all(
      this.active
        .targets(fanout.shards)
        .map(async (index): Promise<[number, ShardReport]> => [index, await this.shard(fanout.name, index).deliver(event, trace)]),
    );
    this.active.learn(fanout.shards, answers);
    const mine = await own;
    return answers.reduce(
      (sum, [, r]) => ({ listenStreams: sum.listenStreams + r.listenStreams, sessions: sum.sessions + r.sessions }),
      mine,
    );
  }

  async activate(index: number, epoch: number): Promise<void> {
    this.active.announce(index, epoch);
  }

  /** Shard 0's call: deliver here and say whether this shard still holds anyone; `trace`: shard 0's span. */
  async deliver(event: PublishEvent, trace?: string): Promise<ShardReport> {
    if (!this.tracing) return this.deliverShard(event);
    return tracedDelivery(this.tracing, event, trace, undefined, () => this.deliverShard(event));
  }

  private async deliverShard(event: PublishEvent): Promise<ShardReport> {
    const delivered = await this.deliverHere(event);
    return this.presence.report(delivered, this.listeners.count() === 0 && !this.registrations.any());
  }

  private async deliverHere(event: PublishEvent): Promise<PublishReport> {
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

const McpHubBase = McpHub;

/**
 * The hub class of a served server: `export const McpHub = hubObject(edge)`, with the tracer of
 * `createMcpEdge(server, { tracing })`, so a trace continues into listen streams and publishes.
 */
export function hubObject(edge: object): typeof McpHub {
  const tracing = tracingOfEdge(edge);
  return class McpHub extends McpHubBase {
    constructor(ctx: DurableObjectState, env: EdgeEnv) {
      super(ctx, env, tracing);
    }
  };
}
