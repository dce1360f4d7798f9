/**
 * Ending a principal's streams when its grant is revoked. A long-lived stream (a 2026-07-28 listen
 * stream, a 2025 GET or 2024-11-05 `/sse` stream) is held by a Worker invocation, connected to a
 * sleeping object (a hub shard, a session) by a hibernatable socket (src/platform/held-stream.ts).
 * Revocation travels the way a published event does: to shard 0 of the hub, which hands it to every
 * shard that holds anyone; each shard tells the Workers holding that subject's listen streams, and
 * the sessions registered under that subject (one hub row per session, written at its first held
 * stream) tell the Workers holding theirs. Each Worker ends its stream at once with the
 * authorization's ending (docs/auth.md "Streams end with their token"). Nothing waits for a
 * revocation: no timer, no object awake, no re-check of the token at each keep-alive.
 */
import { DEFAULT_HUB_SHARD, DEFAULT_HUB_SHARDS, hubObjectId } from "./addresses";
import { requireNamespace, HUB_BINDING } from "./bindings";

/** Which hub: the server's one hub by default (as for publish: its name, and `listen.shards` when not 16). */
export interface EndStreamsOptions {
  shard?: string;
  shards?: number;
}

/** How many of the principal's streams were told to end: listen streams, and 2025 sessions holding GET or /sse streams. */
export interface EndStreamsReport {
  listenStreams: number;
  sessions: number;
}

/**
 * Shard 0's `publish`, as much of the hub's contract (durable-objects/hub/contract.ts HubRpc) as this
 * needs: the built-in authorization server (src/auth) calls endStreamsOf, and the hub's own imports
 * reach src/auth, so this file names the call rather than import the contract.
 */
interface HubPublish extends Rpc.DurableObjectBranded {
  publish(
    events: { type: "authorizationEnded"; subject: string }[],
    fanout: { name: string; shards: number },
    wait: true,
  ): Promise<{ listenStreams: number[]; sessions: number[] } | undefined>;
}

/**
 * Ends every stream `subject` holds (the principal's `subject`, the token's `sub`; the built-in
 * authorization server's `userId`): its listen streams and its 2025-era sessions' GET and `/sse`
 * streams, within one hop per shard. Call it when you revoke that principal's access (your own admin
 * page, a user signing out everywhere); the built-in authorization server calls it when a token is
 * revoked at its token endpoint. Resolves once every shard holding anyone delivered it, with how
 * many listen streams and sessions were told. Needs the `MCP_HUB` binding (throws without it). The
 * client's next request with the revoked token is refused by your verifier as always: ending the
 * streams is what the token check alone cannot do.
 */
export async function endStreamsOf(env: object, subject: string, options: EndStreamsOptions = {}): Promise<EndStreamsReport> {
  if (typeof subject !== "string" || subject.length === 0)
    throw new TypeError("mcp-edge endStreamsOf: the subject must be a non-empty string (the principal's subject)");
  const namespace = requireNamespace<DurableObjectNamespace<HubPublish>>(env, HUB_BINDING, "endStreamsOf");
  const fanout = { name: options.shard ?? DEFAULT_HUB_SHARD, shards: options.shards ?? DEFAULT_HUB_SHARDS };
  const report = await namespace.get(hubObjectId(namespace, fanout.name)).publish([{ type: "authorizationEnded", subject }], fanout, true);
  return { listenStreams: report?.listenStreams[0] ?? 0, sessions: report?.sessions[0] ?? 0 };
}
