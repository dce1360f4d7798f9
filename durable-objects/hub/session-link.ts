/**
 * A 2025 session's registrations with the hub, the `hub()` feature's part of a session object (it fills
 * the kernel's `hubLink` seam, src/kernel/feature.ts): list changes when the server declares
 * `listChanged`, each resource the session subscribed to, and its principal's subject at its first held
 * stream (so `endStreamsOf` reaches it); and leaving the hub when the session ends. The hub keeps the
 * registrations; this part only knows which shard holds each (src/platform/hub-shards.ts). A session
 * without it (no `hub()` among the features) registers nothing: durable-objects/sessions/mcp-session.ts.
 * The hub's deliveries to the session run here too (session-updates.ts).
 */
import type { HubLinkHost, SessionHubLink } from "../../src/kernel/feature";
import type { HubRpc, UpdateDelivery } from "./contract";
import { authorizationEnd, listChange, resourceUpdate } from "./session-updates";
import { DEFAULT_HUB_SHARD, type HubTopic } from "../../src/platform/addresses";
import { allShards, hubFor, type HubShards } from "../../src/platform/hub-shards";

/** The hub feature's `hubLink` seam: a session's link to the hub, made by its session object. */
export function sessionHubLink(host: HubLinkHost): SessionHubLink {
  return new HubLink(host);
}

class HubLink implements SessionHubLink {
  constructor(private readonly host: HubLinkHost) {}

  /** With `listChanged` declared, each session registers with the hub so publish can reach it. */
  async registerForListChanges(): Promise<void> {
    if (this.host.listChanged) await this.register({ lists: true }, "listChanged");
  }

  /** Keeps the hub in step with this session's subscriptions (the hub calls resourceUpdated). */
  updateRegistry(uri: string, subscribed: boolean): Promise<void> {
    return this.register({ uri }, "resources/subscribe", subscribed);
  }

  /**
   * The first held stream of a principal's session registers it with the hub under its subject
   * (one row, once per session), so revoking that grant reaches the session (src/platform/end-streams.ts
   * `endStreamsOf`).
   */
  async registerSubject(subject: string | undefined): Promise<void> {
    const record = this.host.record;
    if (subject === undefined || record.getMeta("hub_subject") === subject) return;
    try {
      await this.register({ subject }, "endStreamsOf");
      record.setMeta("hub_subject", subject);
    } catch (error) {
      // The stream opens all the same: it ends at its token's expiry, and the next stream registers again.
      console.error(
        "mcp-edge: registering the session's principal with the hub failed; revoking it ends its streams at their expiry",
        error,
      );
    }
  }

  /** A terminated or expired session leaves the hub, so its registrations do not outlive it. */
  leaveHub(): Promise<void> {
    // Read now, synchronously: the caller closes the log right after this call.
    const hubs = this.registeredShards();
    if (hubs.length === 0) return Promise.resolve();
    const id = this.host.sessionId;
    return Promise.all(hubs.map((hub) => hub.forget(id)))
      .then(() => undefined)
      .catch((error: unknown) => {
        // The hub forgets a session it finds gone at its next update anyway.
        console.error("mcp-edge: leaving the hub failed", error);
      });
  }

  resourceUpdated(uri: string, route: string | undefined): UpdateDelivery {
    return resourceUpdate(this.host, uri, route);
  }

  listChanged(method: string, route: string | undefined): UpdateDelivery {
    return listChange(this.host, method, route);
  }

  authorizationEnded(subject: string): UpdateDelivery {
    return authorizationEnd(this.host, subject);
  }

  /** This session's shard of the hub for a topic (by its URI, list changes by session), which learns it holds someone. */
  private register(topic: HubTopic, needed: string, subscribed = true): Promise<void> {
    const sessionId = this.host.sessionId;
    const { stub, index } = hubFor<HubRpc>(this.host.env, { sessionId, topic }, this.shards(needed));
    return subscribed ? stub.register(sessionId, topic, { name: DEFAULT_HUB_SHARD, index }) : stub.unregister(sessionId, topic);
  }

  private shards(needed: string): HubShards {
    return { shards: this.host.shards, needed };
  }

  /** The shards that may hold this session's registrations: any (by URI), or only its subject's. */
  private registeredShards(): DurableObjectStub<HubRpc>[] {
    const { env, sessionId, record } = this.host;
    const shards = this.shards("resources/subscribe");
    // Its registrations may be on any shard (by URI): each forgets it (one without any reads nothing).
    if (this.host.listChanged || record.countSubscriptions() > 0) return allShards<HubRpc>(env, shards);
    const subject = record.getMeta("hub_subject");
    if (subject === undefined) return [];
    return [hubFor<HubRpc>(env, { sessionId, topic: { subject } }, shards).stub];
  }
}
