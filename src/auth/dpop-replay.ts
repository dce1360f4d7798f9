/**
 * A DPoP replay store every isolate shares (RFC 9449 §11.1): one Durable Object per client key
 * (named by its thumbprint), which remembers that key's proof ids (`jti`) until their `iat`
 * window has passed and then forgets them (an alarm). A proof is recorded and checked in one
 * step of the object, so two isolates cannot both accept it. Costs one Durable Object round trip
 * per DPoP request; the default per-isolate store costs none (docs/auth.md "DPoP (sender-constrained tokens)").
 *
 * ```toml
 * [[durable_objects.bindings]]
 * name = "DPOP_REPLAY"
 * class_name = "DpopReplayObject"
 * [[migrations]]
 * tag = "dpop-replay-v1"
 * new_sqlite_classes = ["DpopReplayObject"]
 * ```
 */
import { DurableObject } from "cloudflare:workers";
import type { DpopReplayStore } from "./dpop";

/** Proof ids removed per storage call when the alarm forgets them (the storage API's batch limit). */
const DELETE_BATCH = 128;

/** Export it from your Worker's main module under this name (or any, matching `class_name`). */
export class DpopReplayObject extends DurableObject {
  /** Records `jti` until `expiresAt` (seconds); false when it is already recorded: a replay. */
  async use(jti: string, expiresAt: number): Promise<boolean> {
    const now = Math.floor(Date.now() / 1000);
    const until = await this.ctx.storage.get<number>(jti);
    if (until !== undefined && until > now) return false;
    await this.ctx.storage.put(jti, expiresAt);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm((expiresAt + 1) * 1000);
    return true;
  }

  /** Forgets the proof ids whose window has passed; wakes again for the next one. */
  override async alarm(): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const expired: string[] = [];
    let next: number | undefined;
    for (const [jti, until] of await this.ctx.storage.list<number>()) {
      if (until <= now) expired.push(jti);
      else next = next === undefined ? until : Math.min(next, until);
    }
    for (let i = 0; i < expired.length; i += DELETE_BATCH) await this.ctx.storage.delete(expired.slice(i, i + DELETE_BATCH));
    if (next !== undefined) await this.ctx.storage.setAlarm((next + 1) * 1000);
  }
}

/** `dpopVerifier({ replay: durableReplayStore((env) => env.DPOP_REPLAY) })`: replays refused across isolates. */
export function durableReplayStore<Env>(namespace: (env: Env) => DurableObjectNamespace<DpopReplayObject>): DpopReplayStore<Env> {
  return {
    use(key, expiresAt, env) {
      // Keys are `<jkt>:<jti>`; a thumbprint has no ":".
      const split = key.indexOf(":");
      const objects = namespace(env);
      return objects.get(objects.idFromName(key.slice(0, split))).use(key.slice(split + 1), expiresAt);
    },
  };
}
