/**
 * A map over another: its own entries first, then the base's it does not override, read live. An edge's
 * view of a server keeps the methods, notifications and extensions its features add in one of these over
 * the definition's own maps, so what the definition registers later (a `server.skill()` after
 * createMcpEdge ran) is served on that edge too, while what the features add stays on it alone.
 */
export class LayeredMap<K, V> extends Map<K, V> {
  constructor(private readonly base: ReadonlyMap<K, V>) {
    super();
  }

  override get(key: K): V | undefined {
    return super.has(key) ? super.get(key) : this.base.get(key);
  }

  override has(key: K): boolean {
    return super.has(key) || this.base.has(key);
  }

  override get size(): number {
    let size = super.size;
    for (const key of this.base.keys()) if (!super.has(key)) size++;
    return size;
  }

  override *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) if (!super.has(key)) yield [key, value];
    yield* super.entries();
  }

  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
