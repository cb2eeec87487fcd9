/**
 * Wire forms encoded once per source object (message, tool): a conversation's
 * history is append-only and its tools are reused, so every prompt after the
 * first only encodes what is new. `null` is a valid cached form.
 */
export class WireCache<K extends object, T> {
  private readonly cache = new WeakMap<K, T>();

  constructor(private readonly encode: (source: K) => T) {}

  get(source: K): T {
    let wire = this.cache.get(source);
    if (wire === undefined) {
      wire = this.encode(source);
      this.cache.set(source, wire);
    }
    return wire;
  }
}
