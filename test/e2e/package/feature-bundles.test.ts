/**
 * A Worker bundles only the features it passes: the bundle `wrangler deploy` would upload for a
 * one-tool Worker with `features: [sessions()]` holds none of deferred sessions' (`deferredSessions()`), the auth gate's, the hub's listen lane's,
 * its sessions' link to the hub and what the hub's deliveries do to a session, the user store's, discovery's, rate
 * limits', the observer's (its Worker half and its object half: metered storage, an object's own events) or the 2024-11-05
 * HTTP+SSE transport's (`legacySse()`: its Worker half and its session half) code, and the bundles of Workers that
 * pass them do (each searched for a string only that feature's code writes, minified as the scaffold builds).
 */
import { describe, expect, it } from "vitest";
import { bundleContains } from "../helpers/dry-run-bundle.mjs";

/**
 * Strings only one feature's code holds: the gate's refusal of a malformed header, the listen lane's
 * env override warning, the session hub link's failure to leave the hub, the user store's anonymous refusal, the Server Card type, a misconfiguration
 * key, a span attribute, the metered storage's count of what deleteAll removes, a session's hub delivery span attribute,
 * a session's answer to an update for another route, the endpoint the 2024-11-05 stream announces, that transport's refusal of a request before initialize,
 * the key derivation label of deferred sessions' sealed ids.
 */
const MARKERS = {
  auth: "malformed Authorization header",
  hubListen: "MCP_LISTEN_MAX_PER_CLIENT=",
  hubLink: "leaving the hub failed",
  userStore: "ctx.user needs an authenticated user",
  discovery: "application/mcp-server-card+json",
  rateLimits: "the rate limit rule names the binding",
  observe: "mcp_edge.do_requests",
  observeObjectStorage: "NOT LIKE '_cf_%'",
  observeOwnEvents: "mcp_edge.delivery",
  hubDeliveries: '"other-route"',
  legacySseWorker: "?sessionId=",
  legacySseSession: "Invalid Request: send initialize first",
  deferredSessions: "mcp-edge session seal",
};

describe("a Worker bundles only the features it passes", () => {
  it("a sessions-only Worker holds none of deferred sessions, auth, the hub's listen lane or session link, the user store, discovery, rate limits, the observer or the 2024-11-05 transport", () => {
    for (const [feature, marker] of Object.entries(MARKERS))
      expect(bundleContains("test/servers/sessions-only/wrangler.toml", marker, { minify: true }), feature).toBe(false);
  }, 120_000);

  it("Workers that pass them hold their code", () => {
    // The demo passes deferredSessions(), discovery(), hub(), user() and legacySse(); the step-up server auth(); the routes server rateLimits(); the operate server observe().
    expect(bundleContains("wrangler.toml", MARKERS.discovery, { minify: true })).toBe(true);
    expect(bundleContains("wrangler.toml", MARKERS.hubListen, { minify: true })).toBe(true);
    expect(bundleContains("wrangler.toml", MARKERS.hubLink, { minify: true })).toBe(true);
    expect(bundleContains("wrangler.toml", MARKERS.hubDeliveries, { minify: true })).toBe(true);
    expect(bundleContains("wrangler.toml", MARKERS.userStore, { minify: true })).toBe(true);
    expect(bundleContains("wrangler.toml", MARKERS.legacySseWorker, { minify: true })).toBe(true);
    expect(bundleContains("wrangler.toml", MARKERS.legacySseSession, { minify: true })).toBe(true);
    expect(bundleContains("wrangler.toml", MARKERS.deferredSessions, { minify: true })).toBe(true);
    expect(bundleContains("test/servers/step-up/wrangler.toml", MARKERS.auth, { minify: true })).toBe(true);
    expect(bundleContains("test/servers/routes/wrangler.toml", MARKERS.rateLimits, { minify: true })).toBe(true);
    expect(bundleContains("test/servers/operate/wrangler.toml", MARKERS.observe, { minify: true })).toBe(true);
    expect(bundleContains("test/servers/operate/wrangler.toml", MARKERS.observeObjectStorage, { minify: true })).toBe(true);
    expect(bundleContains("test/servers/operate/wrangler.toml", MARKERS.observeOwnEvents, { minify: true })).toBe(true);
  }, 420_000);
});
