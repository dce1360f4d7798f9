/**
 * Shard 0 keeps two kinds of state: its own 2025 registrations and the list of other shards that
 * hold listeners (durable-objects/hub/shards.ts). The last registration leaving must take only its
 * table: before, it deleted all of the shard's storage, so a shard 0 that slept afterwards no longer
 * handed publishes to the shards holding listen streams.
 */
import { describe, expect, it } from "vitest";
import { hubStubOf, hubTables } from "../helpers/listen";

describe("a hub shard's registrations and shard 0's list of active shards", () => {
  it("the last registration leaving keeps the list of active shards", async () => {
    const shard0 = hubStubOf("registrations-keep-list", 0);
    await shard0.activate(3, 1);
    await shard0.register("session-a", { uri: "test://kept" });
    expect(Object.keys(await hubTables("registrations-keep-list", 0)).sort()).toEqual(["hub_active_shards", "hub_registrations"]);
    await shard0.unregister("session-a", { uri: "test://kept" });
    const tables = await hubTables("registrations-keep-list", 0);
    expect(tables.hub_registrations).toBeUndefined();
    expect(tables.hub_active_shards).toEqual([{ idx: 3, epoch: 1 }]);
  });

  it("a shard with nothing else stored is empty again once its last registration leaves", async () => {
    const shard = hubStubOf("registrations-empty", 2);
    await shard.register("session-b", { uri: "test://gone" });
    await shard.forget("session-b");
    expect(await hubTables("registrations-empty", 2)).toEqual({});
  });
});
