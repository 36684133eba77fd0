// A small per-process cache for hot public reads (the marketplace listing, shared presets), kept
// per database handle so each app (and each test's app) has its own.
//
// Staleness bound: an entry lives READ_CACHE_TTL_MS (1 s, measured on the monotonic clock) after
// it was loaded. Writes made through this process clear the affected cache at once (the callers
// of clear()), so this process answers its own writes immediately; a write made by another API
// process on the same database shows here within READ_CACHE_TTL_MS. Concurrent misses for one key
// share a single load. Failed loads are not kept.

import type { Kysely } from "kysely";
import { tableChangesOf } from "../db/changes";
import type { Database } from "../db/schema";

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

// ---- exact ----------------------------------------------------------------------------------
// For reads that must never be stale (who a session belongs to, what a user may do): an entry is
// used only while the tables it was read from are unchanged, by this process or any other
// (db/changes.ts: the driver's write counts, and SQLite's data_version or PostgreSQL's
// notifications; on PostgreSQL another process's commit counts when its notification arrives, a
// p99 of 0.05-2.1 ms after the commit on one host: db/changes-postgres.ts). Where that cannot be
// told (a transaction's handle, PostgreSQL while its notification connection is down) every get()
// loads. Values that depend on the clock must be checked against it by the caller on every use,
// not filtered in the cached query.

export class ExactReadCache<V> {
  readonly #entries = new Map<string, { stamp: string; value: V }>();
  readonly #tables: readonly string[];
  readonly #maxEntries: number;

  /** `tables`: every table the loads read. */
  constructor(tables: readonly string[], maxEntries = 10_000) {
    this.#tables = tables;
    this.#maxEntries = maxEntries;
  }

  /** The cached value of `key` while its tables are unchanged, else `load()`'s over `db`. */
  async get(db: Kysely<Database>, key: string, load: () => Promise<V>): Promise<V> {
    // Stamped before the load: a write that lands during it makes the entry unusable at once.
    const stamp = tableChangesOf(db)?.stamp(this.#tables);
    if (stamp === undefined || stamp === null) return load();
    const hit = this.#entries.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = await load();
    if (!hit && this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { stamp, value });
    return value;
  }
}

/** One exact cache per database handle and purpose (so each app, and each test's app, has its own). */
export function exactCacheFor<V>(caches: WeakMap<object, ExactReadCache<V>>, db: Kysely<Database>, tables: readonly string[]): ExactReadCache<V> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new ExactReadCache<V>(tables);
    caches.set(db, cache);
  }
  return cache;
}
