/**
 * 2026-07-28 caching hints (server/utilities/caching.mdx): `ttlMs` and `cacheScope` on
 * discover, lists and resources/read. Authors set a hint per definition (or per server for
 * discover); the default is the safe one, `ttlMs: 0` and `"private"`. A list is as cacheable
 * as its least cacheable entry, and a definition with an `enabled` predicate makes it private.
 */

/** A definition's caching hint, as an author writes it. */
export interface CacheHint {
  /** How long a client may reuse the result, in ms (non-negative integer; default 0 = always refetch). */
  ttlMs?: number;
  /** "public": no caller-specific data, shareable across authorization contexts. Default "private". */
  scope?: "public" | "private";
}

export interface ResolvedCacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
}

export const NO_CACHE: ResolvedCacheHint = { ttlMs: 0, cacheScope: "private" };

/** Checks an author's hint once, at definition. */
export function resolveCacheHint(hint: CacheHint | undefined, what: string): ResolvedCacheHint {
  if (hint === undefined) return NO_CACHE;
  const ttlMs = hint.ttlMs ?? 0;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0) throw new TypeError(`${what}: cache.ttlMs must be a non-negative integer`);
  if (hint.scope !== undefined && hint.scope !== "public" && hint.scope !== "private")
    throw new TypeError(`${what}: cache.scope must be "public" or "private"`);
  return { ttlMs, cacheScope: hint.scope ?? "private" };
}

/** The hint of a result built from several definitions: the shortest ttl; public only if every one is public and unconditional. */
export function combineHints(items: Iterable<{ cache: ResolvedCacheHint; enabled: unknown }>, empty: ResolvedCacheHint): ResolvedCacheHint {
  let ttlMs = Infinity;
  let cacheScope: ResolvedCacheHint["cacheScope"] = "public";
  for (const item of items) {
    ttlMs = Math.min(ttlMs, item.cache.ttlMs);
    if (item.cache.cacheScope === "private" || item.enabled !== undefined) cacheScope = "private";
  }
  return ttlMs === Infinity ? empty : { ttlMs, cacheScope };
}
