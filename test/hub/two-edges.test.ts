/**
 * Two servers in one Worker (two createMcpEdge calls with different `listen.shards`) do not
 * change each other's publishes: no count is kept per isolate, and a publish that names no
 * count reaches every shard that holds a stream, whichever server was created last.
 */
import { describe, expect, it } from "vitest";
import { demoServer } from "../../src/demo/server";
import { createMcpEdge } from "../../src/edge";
import { publishAndCount } from "../../src/features/hub/publish";
import { shardOf } from "../../src/platform/addresses";
import { edgeEnv, openListen, SUBSCRIPTION_ID } from "../helpers/listen";

const SHARDS = 32;

/** A client whose streams land on a shard past the default count (16) of a hub of SHARDS shards. */
function clientPastDefault(): string {
  for (let i = 0; i < 1000; i++) {
    const client = `ip:10.6.${i >> 8}.${i & 255}`;
    if (shardOf(client, SHARDS) >= 16) return client;
  }
  throw new Error("no client past shard 15");
}

describe("two createMcpEdge calls in one isolate", () => {
  it("a publish without a count reaches a stream on shard 16+ of a 32-shard server, though a 1-shard server was created after it", async () => {
    const hub = `two-edges-${crypto.randomUUID()}`;
    const uri = `test://two-edges/${crypto.randomUUID()}`;
    createMcpEdge(demoServer, { listen: { shards: SHARDS } });
    const { stream } = await openListen({
      server: demoServer,
      id: "wide",
      notifications: { resourceSubscriptions: [uri] },
      options: { shards: SHARDS },
      features: { shard: hub, client: clientPastDefault() },
    });
    // The second server: before, its count replaced the first one's for every publish in the isolate.
    createMcpEdge(demoServer, { listen: { shards: 1 } });

    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub })).toEqual({ listenStreams: 1, sessions: 0 });
    expect((await stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { _meta: { [SUBSCRIPTION_ID]: "wide" }, uri },
    });
    await stream.cancel();
  });
});
