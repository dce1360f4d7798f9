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
import type { PublishReport } from "../durable-objects/hub/contract";
import type { EdgeEnv } from "./env";
import { publishAndCount, type PublishOptions } from "./publish";

/** Which hub: the server's one hub by default (`shard`, `shards`: as for publish). */
export type EndStreamsOptions = Pick<PublishOptions, "shard" | "shards">;

/**
 * Ends every stream `subject` holds (the principal's `subject`, the token's `sub`; the built-in
 * authorization server's `userId`): its listen streams and its 2025-era sessions' GET and `/sse`
 * streams, within one hop per shard. Call it when you revoke that principal's access (your own admin
 * page, a user signing out everywhere); the built-in authorization server calls it when a grant is
 * revoked at its token endpoint. Resolves once every shard holding anyone delivered it, with how
 * many listen streams and sessions were told. Needs the `MCP_HUB` binding (throws without it). The
 * client's next request with the revoked token is refused by your verifier as always: ending the
 * streams is what the token check alone cannot do.
 */
export function endStreamsOf(env: EdgeEnv, subject: string, options: EndStreamsOptions = {}): Promise<PublishReport> {
  return publishAndCount(env, { type: "authorizationEnded", subject }, { shard: options.shard, shards: options.shards });
}
