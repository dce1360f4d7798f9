/**
 * A session object's life after `initialize`: waking up (state from storage, and an error for
 * each request whose work a restart lost), termination (DELETE), and the alarm's housekeeping
 * and idle expiry. Termination is a state: the tombstone is written first, then the log
 * closes, so nothing still running reads or writes storage that is being deleted.
 */
import { REQUEST_CANCELLED, RpcError, SESSION_RESTARTED } from "../../src/jsonrpc/errors";
import { errorMessage, toWire, type RequestMessage } from "../../src/jsonrpc/messages";
import type { SessionCore } from "./core";

/** What termination and expiry need besides the core: the handlers still running. */
export interface LifecycleHost {
  readonly core: SessionCore;
  /** Handlers running now (an expiring session has none). */
  running(): number;
  /** Aborts every handler's signal and rejects every server request. */
  abortAll(reason: RpcError): void;
  /**
   * Removes this session's registrations from the hub. Call it before the log closes: whether
   * there is anything to remove is read synchronously, at the call.
   */
  leaveHub(): Promise<void>;
}

/** Waking up is idempotent: state comes from storage, and work lost in a restart gets its error. */
export function restoreSession(core: SessionCore): void {
  const log = core.log;
  const tombstone = core.record.getMeta("terminated");
  core.terminated = !!tombstone;
  // A deferred session's tombstone holds its time (true reads as 1: long past).
  core.rememberUntil = Number(tombstone ?? 0);
  if (core.terminated) core.tables.close();
  // Closed tables read as nothing: a terminated session's state stays null.
  core.loadState();
  for (const { stream, requestId } of log.inflight()) {
    const error = errorMessage(JSON.parse(requestId) as RequestMessage["id"], {
      code: SESSION_RESTARTED,
      message: "The session restarted while this request was in flight; its work was lost. Retry the request.",
    });
    log.append(stream, JSON.stringify(toWire(error)));
    log.removeInflight(stream, requestId);
    if (!log.hasInflight(stream)) log.markDone(stream, Date.now());
  }
}

/**
 * DELETE: the session ends now. With nothing still running its storage goes in this request
 * (deleteAll also removes the expiry alarm, compatibility date 2026-02-24 on), one object request
 * fewer per session; a call still running ends first, and the alarm (set for now) deletes it.
 */
export async function terminateSession(host: LifecycleHost): Promise<Response> {
  const core = host.core;
  // The tombstone first (a restart before the alarm must not revive the session), then the log closes.
  core.end(true);
  const left = host.leaveHub();
  core.tables.close();
  host.abortAll(new RpcError(REQUEST_CANCELLED, "the session was terminated"));
  core.closeStreams();
  await left;
  // A deferred session's tombstone stays while its sealed id would pass for a live one (core.rememberUntil).
  const now = Date.now();
  if (host.running() === 0 && now >= core.rememberUntil) await core.deleteAll();
  else await core.setAlarmAt(Math.max(now, core.rememberUntil));
  return new Response(null, { status: 204 });
}

/**
 * The alarm: deletes a terminated or idle session's storage; else trims finished streams and sets
 * the next alarm, always in the future (nextAlarmAt). An idle session that a stream or a running
 * handler still holds is not deleted: it is checked again one idle timeout later.
 */
export async function runAlarm(host: LifecycleHost): Promise<void> {
  const { core } = host;
  core.alarmFired();
  if (core.terminated || !core.state) {
    // Termination is durable: the tombstone was written first; now nothing is left (a deferred
    // session's tombstone once its sealed id can no longer pass for a live session).
    if (core.rememberUntil > Date.now()) await core.setAlarmAt(core.rememberUntil);
    else await core.deleteAll();
    return;
  }
  const now = Date.now();
  const { idleTimeoutMs, completedStreamGraceMs } = core.options;
  let lastActive = core.lastActiveAt();
  if (lastActive === 0) {
    // Stored by a version that kept a session's start only in memory, and asleep since: nothing says
    // when it was last used, so its idle time counts from now (written, so the next alarm knows).
    core.record.setMeta("last_active", now);
    lastActive = now;
  }
  const busy = core.openStreams() > 0 || host.running() > 0;
  // Expiry is accurate to the activity write interval anyway: a session due within it expires now,
  // so a call moments after initialize does not cost a second alarm.
  if (now - lastActive >= idleTimeoutMs - expirySlack(core.options) && !busy) {
    await expire(host, now);
    return;
  }
  core.log.deleteFinishedBefore(now - completedStreamGraceMs);
  await core.setAlarmAt(nextAlarmAt(now, lastActive, core.log.earliestDone(), core.options));
}

/**
 * Idle expiry. No tombstone: deleteAll removes the state in one step, and an object without state
 * is gone. Except for a deferred session whose sealed id would still pass for a live one (its
 * issuer's clock ahead of this object's, say): an empty object would adopt that id again as a new,
 * empty session, so it keeps a tombstone, as a DELETE's, until the id lapses.
 */
async function expire(host: LifecycleHost, now: number): Promise<void> {
  const core = host.core;
  const issuedAt = core.state?.issuedAt;
  core.rememberUntil = issuedAt === undefined ? 0 : sealedUntil(issuedAt, core.options);
  const remember = core.rememberUntil > now;
  core.end(remember);
  const left = host.leaveHub();
  core.tables.close();
  await left;
  if (remember) await core.setAlarmAt(core.rememberUntil);
  else await core.deleteAll();
}

/** How much earlier than its idle timeout a session may expire (accurate to the activity write interval anyway). */
function expirySlack(options: { idleTimeoutMs: number }): number {
  return Math.min(30_000, options.idleTimeoutMs / 10);
}

/**
 * Until when a deferred session's sealed id passes for a live session (durable-objects/sessions/deferred.ts):
 * its idle timeout from `initialize` (`issuedAt`), less the slack the alarm's idle expiry allows
 * itself, so a session the alarm expired never reads as one whose object was never made.
 */
export function sealedUntil(issuedAt: number, options: { idleTimeoutMs: number }): number {
  return issuedAt + options.idleTimeoutMs - expirySlack(options);
}

/**
 * When the alarm fires next: at the session's expiry (idle timeout after its last activity; one
 * timeout from now when that time has passed but a stream or handler holds the session), or
 * earlier when a finished stream's grace period ends first. Never now or in the past, so an alarm
 * can never fire again and again.
 */
function nextAlarmAt(
  now: number,
  lastActive: number,
  earliestDone: number | undefined,
  options: { idleTimeoutMs: number; completedStreamGraceMs: number },
): number {
  let at = lastActive + options.idleTimeoutMs;
  if (at <= now) at = now + options.idleTimeoutMs;
  if (earliestDone !== undefined) at = Math.min(at, earliestDone + options.completedStreamGraceMs + 1);
  return Math.max(at, now + 1);
}
