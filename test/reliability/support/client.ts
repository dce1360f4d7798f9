/** The session liveness check of the reliability suite, and raw POSTs of bytes. */
import { expect } from "vitest";
import { toolText, type Session } from "../../helpers/session";
import { call, callOnStream, post } from "./direct";

/** POSTs raw bytes in session `s` with correct MCP headers. */
export function postBytes(s: Session, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  return post(bytes, s, headers);
}

let probes = 0;

/**
 * The session still works: ping answers in the Worker lane and, when `interactive`, a streaming
 * call answers in the session object (docs/reliability.md: the session keeps working after bad input).
 */
export async function expectSessionAlive(s: Session, interactive: boolean): Promise<void> {
  const n = ++probes;
  expect(await call(s, "ping", {}, `alive-${n}`)).toEqual({ jsonrpc: "2.0", id: `alive-${n}`, result: {} });
  if (!interactive) return;
  const events = await (await callOnStream(s, `alive-call-${n}`, "stream_progress", { count: 1 }, `alive-${n}`)).all();
  const last = events.at(-1);
  expect(last?.json?.id).toBe(`alive-call-${n}`);
  expect(toolText(last)).toBe("done 1");
}
