/**
 * The 2025-era names of `publish` (src/publish.ts), kept for existing servers: each is one
 * publishAndCount call, so it waits until the hub delivered the event, and returns how many
 * 2025-era sessions had a GET stream to carry it. Listen streams (2026-07-28) get the same
 * event. Code that needs no count calls `publish`, which returns once the event is handed off.
 * `{ route }`: only that route's sessions and listen streams (src/publish.ts PublishOptions).
 */
import type { ListKind } from "../durable-objects/hub/contract";
import type { EdgeEnv } from "./kernel/env";
import { publishAndCount, type PublishOptions } from "./publish";

/** Sends `notifications/resources/updated` to each session (and listen stream) subscribed to `uri`. */
export async function notifyResourceUpdated(env: EdgeEnv, uri: string, options?: Pick<PublishOptions, "route">): Promise<number> {
  return (await publishAndCount(env, { type: "resourceUpdated", uri }, options)).sessions;
}

/**
 * Sends `notifications/<list>/list_changed` to every live session, for servers defined with
 * `listChanged: true` (e.g. after a feature flag read by an `enabled` predicate changed), and to
 * listen streams that opted in. Returns how many sessions had a GET stream to carry it.
 */
export async function notifyListChanged(env: EdgeEnv, list: ListKind, options?: Pick<PublishOptions, "route">): Promise<number> {
  return (await publishAndCount(env, { type: "listChanged", list }, options)).sessions;
}
