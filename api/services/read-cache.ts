// A small per-process cache for hot public reads (the marketplace listing, shared presets), kept
// per database handle so each app (and each test's app) has its own.
//
// Staleness bound: an entry lives READ_CACHE_TTL_MS (1 s, measured on the monotonic clock) after
// it was loaded. Writes made through this process clear the affected cache at once (the callers
// of clear()), so this process answers its own writes immediately; a write made by another API
// process on the same database shows here within READ_CACHE_TTL_MS. Concurrent misses for one key
// share a single load. Failed loads are not kept.

/** How long a cached read may be served after it was loaded (also the cross-process bound). */
export const READ_CACHE_TTL_MS = 1000;

interface Entry<V> {
  value: Promise<V>;
  loadedAt: number;
}

export class ReadCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Bumped by clear(), so a load that started before a write is not kept after it. */
  #generation = 0;

  constructor(opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.#ttlMs = opts.ttlMs ?? READ_CACHE_TTL_MS;
    this.#maxEntries = opts.maxEntries ?? 1000;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** The cached value of `key`, or `load()`'s (kept when `keep(value)` says so; default: always). */
  get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const now = this.#now();
    const hit = this.#entries.get(key);
    if (hit && now - hit.loadedAt < this.#ttlMs) return hit.value;
    if (hit) this.#entries.delete(key);
    const generation = this.#generation;
    const value = load();
    const entry = { value, loadedAt: now };
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, entry);
    value.then(
      (v) => {
        if (!keep(v) || generation !== this.#generation) this.#drop(key, entry);
      },
      () => this.#drop(key, entry),
    );
    return value;
  }

  /** Forgets everything (after a write this process made). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  #drop(key: string, entry: Entry<V>): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
  }
}

/** One cache per owner (a database handle) and purpose; dropped with the owner. */
export function cacheFor<V>(caches: WeakMap<object, ReadCache<V>>, owner: object): ReadCache<V> {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new ReadCache<V>();
    caches.set(owner, cache);
  }
  return cache;
}
