/**
 * An in-process map whose entries expire a fixed time after they were set. Insertion order is expiry
 * order, so pruning stops at the first live entry; past `maxEntries` the oldest entry goes, which
 * bounds the memory that a flood of unauthenticated sign-in attempts can take.
 */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    this.prune();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** Sets the key unless it is live, in one synchronous step; false when it was already there. */
  setIfAbsent(key: string, value: V): boolean {
    if (this.get(key) !== undefined) return false;
    this.set(key, value);
    return true;
  }

  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  private prune() {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
  }
}
