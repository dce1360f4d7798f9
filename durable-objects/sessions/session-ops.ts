/**
 * The session state changes only a session object can make (dispatch.ts `SessionOps`): the log
 * level, and subscribing to or unsubscribing from a resource, kept in step with the hub's
 * registrations (its hub link, the `hub()` feature's). Bounded by `maxSubscriptions`; a terminated
 * session subscribes to nothing, nor does a session without the hub (nothing could deliver an update).
 */
import { LIMIT_EXCEEDED, REQUEST_CANCELLED, RpcError } from "../../src/jsonrpc/errors";
import type { SessionOps } from "../../src/mcp/dispatch/dispatch";
import type { SessionHubLink } from "../../src/kernel/feature";
import { hubNotServed } from "../../src/platform/bindings";
import type { SessionCore } from "./core";

/** `hub`: the session's link to the hub; undefined without it (no `hub()` among the features, or no MCP_HUB binding). */
export function sessionOps(core: SessionCore, env: unknown, hub: SessionHubLink | undefined): SessionOps {
  return {
    async setLogLevel(level) {
      if (core.state) core.saveState({ ...core.state, logLevel: level });
    },
    async subscribe(uri) {
      const { record, options } = core;
      if (core.terminated) throw new RpcError(REQUEST_CANCELLED, "the session was terminated");
      // Its initialize offered no subscriptions: nothing could deliver an update.
      if (!hub) throw hubNotServed(env, "resources/subscribe");
      if (!record.isSubscribed(uri) && record.countSubscriptions() >= options.maxSubscriptions) {
        throw new RpcError(
          LIMIT_EXCEEDED,
          `Too many subscriptions on this session (limit ${options.maxSubscriptions}); unsubscribe from one first`,
        );
      }
      record.subscribe(uri);
      await hub.updateRegistry(uri, true);
    },
    async unsubscribe(uri) {
      const record = core.record;
      // Unsubscribing from what was never subscribed stores nothing, here or in any registry.
      if (!record.isSubscribed(uri)) return;
      record.unsubscribe(uri);
      await hub?.updateRegistry(uri, false);
    },
  };
}
