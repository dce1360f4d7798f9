/**
 * `legacySse()`: the 2024-11-05 HTTP+SSE transport, for clients that speak only it (GET /sse opens a
 * session and its one stream, whose first event names the endpoint to POST to; each POST there is
 * answered 202 and its responses travel on the stream). The spec replaced it with Streamable HTTP in
 * 2025-03-26; the 2024-11-05 protocol revision stays served on the endpoint without it. Its Worker half
 * is legacy-sse-worker.ts, its half in the session object durable-objects/sessions/legacy-transport.ts;
 * both are reached through the kernel's `legacy` seam, so an edge without the feature bundles neither.
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { LegacySseSeam } from "../../kernel/legacy-sse-seam";
import { compileRoute } from "../../wire/route-pattern";
import { answerLegacy } from "../../../durable-objects/sessions/legacy-transport";
import { serveLegacy } from "./legacy-sse-worker";

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

/** The transport, both halves: what `legacySse()` and the deprecated session factories put in the `legacy` seam. */
export const LEGACY_SSE: LegacySseSeam = { serve: serveLegacy, answer: answerLegacy };
