/**
 * `legacySse()`: the 2024-11-05 HTTP+SSE transport, for clients that speak only it (GET /sse opens a
 * session and its one stream, whose first event names the endpoint to POST to; each POST there is
 * answered 202 and its responses travel on the stream). The spec replaced it with Streamable HTTP in
 * 2025-03-26; the 2024-11-05 protocol revision stays served on the endpoint without it. This module is
 * the transport's Worker half; its session half is durable-objects/sessions/legacy-transport.ts. Both
 * are reached through the kernel's `legacy` seam, so an edge without the feature bundles neither.
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { LegacySseCall, LegacySseSeam } from "../../kernel/legacy-sse-seam";
import { sessionObjectId } from "../../platform/addresses";
import { upgradeInit } from "../../platform/held-stream";
import { compileRoute } from "../../wire/route-pattern";
import { refuse } from "../../wire/refusals";
import type { Principal } from "../../auth/principal";
import {
  encodePrincipal,
  HEADER_LEGACY_ENDPOINT,
  HEADER_PRINCIPAL,
  LEGACY_OPEN_URL,
  LEGACY_POST_URL,
} from "../../../durable-objects/sessions/contract";
import { answerLegacy } from "../../../durable-objects/sessions/legacy-transport";

export interface LegacySseOptions {
  /** The GET path that opens a session and its stream (default "/sse"). */
  ssePath?: string;
  /** The POST endpoint the stream's `endpoint` event announces (default "/messages"). */
  messagesPath?: string;
}

/**
 * The 2024-11-05 HTTP+SSE transport at `ssePath` and `messagesPath`, served by the session objects of
 * `sessions()` (or `deferredSessions()`), which it needs: without it createMcpEdge throws.
 */
export function legacySse<Env = unknown>(options: LegacySseOptions = {}): Feature<Env> {
  const { ssePath = "/sse", messagesPath = "/messages" } = options;
  for (const [name, value] of [
    ["ssePath", ssePath],
    ["messagesPath", messagesPath],
  ] as const) {
    if (compileRoute(`legacySse({ ${name} })`, value).names.length > 0)
      throw new TypeError(
        `mcp-edge legacySse({ ${name}: "${value}" }): the 2024-11-05 transport is served at fixed paths, without route parameters`,
      );
  }
  return {
    name: "legacy-sse",
    seams: { legacy: LEGACY_SSE },
    [CORE_OPTIONS]: { legacySsePath: ssePath, legacyMessagesPath: messagesPath },
  };
}

/** Auth: the principal header for the session object (these internal requests never carry client headers). */
function principalHeaders(principal: Principal | undefined): Record<string, string> {
  return principal ? { [HEADER_PRINCIPAL]: encodePrincipal(principal) } : {};
}

/** GET /sse: a new session and its one stream, whose first event names `messagesPath` to POST to. */
async function openLegacyStream(call: LegacySseCall, messagesPath: string): Promise<Response> {
  const namespace = call.sessions();
  const id = namespace.newUniqueId();
  const endpoint = `${messagesPath}?sessionId=${id.toString()}`;
  // The stream is held in the Worker; the session object sleeps behind its socket between messages (src/platform/held-stream.ts).
  const headers = { [HEADER_LEGACY_ENDPOINT]: endpoint, ...principalHeaders(call.principal) };
  const answer = await namespace.get(id).fetch(new Request(LEGACY_OPEN_URL, upgradeInit({ method: "GET", headers })));
  return call.hold(answer);
}

/** POST /messages?sessionId=…: one message for the session's object, answered 202 there; its responses go on the stream. */
async function postLegacyMessage(call: LegacySseCall): Promise<Response> {
  const sessionId = new URL(call.request.url).searchParams.get("sessionId");
  if (sessionId === null) return refuse({ reason: "legacy-session-id-required" });
  const namespace = call.sessions();
  const id = sessionObjectId(namespace, sessionId);
  if (!id) return refuse({ reason: "session-not-found", legacy: true });
  // Scopes and rate limits are HTTP answers: checked before the 202 and before the session object is reached.
  const body = await call.body();
  if (!body.ok) return body.response;
  return namespace.get(id).fetch(
    new Request(LEGACY_POST_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...principalHeaders(call.principal) },
      body: body.text,
    }),
  );
}

/** The transport, both halves: what `legacySse()` and the deprecated session factories put in the `legacy` seam. */
export const LEGACY_SSE: LegacySseSeam = { open: openLegacyStream, post: postLegacyMessage, answer: answerLegacy };
