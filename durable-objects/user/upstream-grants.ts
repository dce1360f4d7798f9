/**
 * The upstream grants of one principal (a GitHub sign-in, say), a part of McpUser: each stored
 * sealed (AES-GCM under a key derived with HKDF from the caller's secret, the principal's subject
 * and the upstream's name), handed out fresh, and refreshed by at most one request upstream at a
 * time. The object is the lock: every isolate's call for this principal reaches this one
 * instance, so concurrent callers of an expiring grant share the one refresh in `#refreshing`.
 * Storage: the SQLite table `upstream_grants` (name, iv, sealed JSON), apart from the key-value
 * store `ctx.user` writes, so no user key can read or overwrite a grant. Nothing here hands a
 * caller a token's text but the fresh access token it asked for, nor an upstream's own words.
 */
import { requestTokens, type UpstreamGrant } from "../../src/platform/upstream-token";
import type { UpstreamAccess, UpstreamPlan, UpstreamSealing } from "./contract";

const SALT = new TextEncoder().encode("mcp-edge upstream grant v1");
/** Upstream error codes meaning the refresh token is dead (RFC 6749 §5.2; GitHub answers 200 with its own code). */
const DEAD_GRANT = new Set(["invalid_grant", "bad_refresh_token"]);

/** A row of `upstream_grants`: the sealed grant and its IV. */
interface SealedRecord {
  iv: Uint8Array;
  data: Uint8Array;
}

export class UpstreamGrants {
  readonly #refreshing = new Map<string, Promise<UpstreamAccess>>();
  #ready = false;

  constructor(private readonly sql: SqlStorage) {}

  /** The table, made on first use (an object that never signs anyone in upstream has none). */
  private table(): SqlStorage {
    if (!this.#ready) {
      this.sql.exec("CREATE TABLE IF NOT EXISTS upstream_grants (name TEXT PRIMARY KEY, iv BLOB NOT NULL, data BLOB NOT NULL)");
      this.#ready = true;
    }
    return this.sql;
  }

  async save(name: string, grant: UpstreamGrant, sealing: UpstreamSealing): Promise<void> {
    const { iv, data } = await seal(grant, name, sealing);
    this.table().exec("INSERT OR REPLACE INTO upstream_grants (name, iv, data) VALUES (?, ?, ?)", name, iv, data);
  }

  drop(name: string): boolean {
    return this.table().exec("DELETE FROM upstream_grants WHERE name = ?", name).rowsWritten > 0;
  }

  private read(name: string): SealedRecord | undefined {
    const row = this.table()
      .exec<{ iv: ArrayBuffer; data: ArrayBuffer }>("SELECT iv, data FROM upstream_grants WHERE name = ?", name)
      .toArray()[0];
    return row ? { iv: new Uint8Array(row.iv), data: new Uint8Array(row.data) } : undefined;
  }

  /** A usable access token: the stored one while fresh, else one refresh shared by every caller waiting for it. */
  async access(name: string, plan: UpstreamPlan): Promise<UpstreamAccess> {
    const pending = this.#refreshing.get(name);
    if (pending) return pending;
    const record = this.read(name);
    if (!record) return { ok: false, reason: "none" };
    const grant = await unseal(record, name, plan);
    if (!grant) return { ok: false, reason: "unreadable" };
    if (grant.accessToken !== plan.rejected && isFresh(grant, plan.refreshBeforeSeconds))
      return { ok: true, accessToken: grant.accessToken, expiresAt: grant.expiresAt };
    // Checked again after the await above: another caller may have started a refresh meanwhile, or
    // finished one (then the stored record is new, and refreshing with the old refresh token, which
    // the provider rotated, would be refused as invalid_grant and lose the grant).
    const started = this.#refreshing.get(name);
    if (started) return started;
    if (!sameRecord(this.read(name), record)) return this.access(name, plan);
    if (!grant.refreshToken) {
      this.drop(name);
      return { ok: false, reason: "expired" };
    }
    const refresh = this.refresh(name, grant, plan).finally(() => this.#refreshing.delete(name));
    this.#refreshing.set(name, refresh);
    return refresh;
  }

  private async refresh(name: string, grant: UpstreamGrant, plan: UpstreamPlan): Promise<UpstreamAccess> {
    const answer = await requestTokens(plan, {
      grant_type: "refresh_token",
      refresh_token: grant.refreshToken as string,
    });
    switch (answer.kind) {
      case "tokens": {
        // RFC 6749 §6: without a new refresh token the old one stays valid.
        const next: UpstreamGrant = { ...answer.grant, refreshToken: answer.grant.refreshToken ?? grant.refreshToken };
        await this.save(name, next, plan);
        return { ok: true, accessToken: next.accessToken, expiresAt: next.expiresAt, refreshed: true };
      }
      case "refused":
        if (DEAD_GRANT.has(answer.error)) {
          this.drop(name);
          return { ok: false, reason: "revoked" };
        }
        return { ok: false, reason: "unavailable", detail: `the token endpoint refused the refresh (${answer.error})` };
      case "broken":
        return { ok: false, reason: "unavailable", detail: answer.detail };
    }
  }
}

/** Whether two reads found the same sealing (each seal draws a fresh IV). */
function sameRecord(current: SealedRecord | undefined, earlier: SealedRecord): boolean {
  return current?.iv.every((byte, i) => byte === earlier.iv[i]) === true;
}

function isFresh(grant: UpstreamGrant, refreshBeforeSeconds: number): boolean {
  return grant.expiresAt === undefined || grant.expiresAt - refreshBeforeSeconds > Date.now() / 1000;
}

/** One key per principal and upstream: a record copied to another principal's object does not open there. */
async function keyFor(name: string, sealing: UpstreamSealing): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(sealing.secret), "HKDF", false, ["deriveKey"]);
  const info = new TextEncoder().encode(`${sealing.subject}\u0000${name}`);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: SALT, info }, material, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
}

async function seal(grant: UpstreamGrant, name: string, sealing: UpstreamSealing): Promise<SealedRecord> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(grant));
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyFor(name, sealing), plain));
  return { iv, data };
}

/** The grant, or undefined when the record does not open (the secret changed, or it was not sealed for this principal). */
async function unseal(record: SealedRecord, name: string, sealing: UpstreamSealing): Promise<UpstreamGrant | undefined> {
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: record.iv }, await keyFor(name, sealing), record.data);
    return JSON.parse(new TextDecoder().decode(plain)) as UpstreamGrant;
  } catch {
    return undefined;
  }
}
