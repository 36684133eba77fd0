// Sliding-window rate limits with an injectable clock, one limiter per rule; keys are client
// addresses, account e-mails or user ids. Two stores with the same behaviour and the same answers:
// - RateLimiter keeps the hits in this process's memory (SQLite: one process serves the file).
//   Memory stays bounded: expired keys are swept when the map grows, the oldest dropped past a cap.
// - SharedRateLimiter keeps them in the database's rate_limit_hits table (PostgreSQL: several
//   processes serve one database and must count together). Each hit runs a function (migration
//   009) that takes an advisory lock on (rule, key), so concurrent hits from any process are
//   counted exactly. The hits a process asks for during one turn of its event loop go to the
//   database together, as one statement (db/tick-batch.ts, migration 011): under load, one round
//   trip for several requests instead of one each.
import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { dialectOf } from "../db/dialect";
import { preparedQuery } from "../db/prepared";
import { batcherFor, type Settled, type TickBatcher } from "../db/tick-batch";
import type { Database } from "../db/schema";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import { UPLOADS_PER_HOUR } from "../rules/marketplace";
import { RECORDING_UPLOADS_PER_10_MINUTES } from "../rules/recordings";

export interface RateRule {
  limit: number;
  windowMs: number;
}

/** The limits of sign-in and the other credential checks (code exchange and password reset per
 *  client address, a signed-in password change per user), of billing (credentialed actions keyed
 *  by user id; the unauthenticated success-page call by client address), of shared presets (per
 *  user) and of the marketplace (uploads, purchases and ratings, per user). */
export const RATE_RULES = {
  // Sign-in: any account from one address; one account from one address; and, across every
  // address, the failed attempts at one account: a slow window that only wrong passwords fill, so
  // guessing from many addresses is slowed to 100 an hour while the owner, with the right
  // password from an address of their own, still signs in after a handful of others' failures.
  loginPerIp: { limit: 10, windowMs: 60_000 },
  loginPerAccountIp: { limit: 10, windowMs: 10 * 60_000 },
  loginFailuresPerAccount: { limit: 100, windowMs: 60 * 60_000 },
  // The other doors that open a session or set a password, at sign-in's pace: the exchange of an
  // e-mailed code and the reset with one.
  exchangePerIp: { limit: 10, windowMs: 60_000 },
  resetPerIp: { limit: 10, windowMs: 60_000 },
  registerPerIp: { limit: 5, windowMs: 10 * 60_000 },
  forgotPerIp: { limit: 5, windowMs: 10 * 60_000 },
  passwordChangePerUser: { limit: 10, windowMs: 10 * 60_000 },
  checkoutPerUser: { limit: 10, windowMs: 10 * 60_000 },
  portalPerUser: { limit: 10, windowMs: 10 * 60_000 },
  checkoutLookupPerIp: { limit: 30, windowMs: 60_000 },
  demoStartPerUser: { limit: 5, windowMs: 10 * 60_000 },
  presetCreatePerUser: { limit: 20, windowMs: 10 * 60_000 },
  marketplaceUploadPerUser: { limit: UPLOADS_PER_HOUR, windowMs: 60 * 60_000 },
  recordingUploadPerUser: { limit: RECORDING_UPLOADS_PER_10_MINUTES, windowMs: 10 * 60_000 },
  marketplacePurchasePerUser: { limit: 20, windowMs: 10 * 60_000 },
  marketplaceRatePerUser: { limit: 30, windowMs: 10 * 60_000 },
  adminActionPerUser: { limit: 120, windowMs: 10 * 60_000 },
  cspReportPerIp: { limit: 60, windowMs: 60_000 },
} as const satisfies Record<string, RateRule>;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** What the routes use: count a hit, or answer 429 with Retry-After when the window is full. */
export interface Limiter {
  hit(key: string): RateDecision | Promise<RateDecision>;
  /** Like hit(), but throws the API's 429 with Retry-After (and `message`, if given). */
  enforce(key: string, message?: string): Promise<void>;
  /** Throws that 429 when the window of `key` is full, without counting a hit (a rule whose hits
   *  are counted only for some outcomes: failed sign-ins). */
  check(key: string, message?: string): Promise<void>;
}

/** The decision for a window whose oldest hit is `oldest` (or null when there is room). */
function refusal(oldestInWindow: number, rule: RateRule, now: number): RateDecision {
  const retryMs = oldestInWindow + rule.windowMs - now;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(retryMs / 1000)) };
}

function throwIfRefused(decision: RateDecision, message: string | undefined): void {
  if (!decision.ok) {
    const s = decision.retryAfterSeconds;
    throw new ApiError(429, message ?? MSG.tooManyRequests(s), { "Retry-After": String(s) });
  }
}

export class RateLimiter implements Limiter {
  readonly #rule: RateRule;
  readonly #clock: () => Date;
  readonly #maxKeys: number;
  readonly #hits = new Map<string, number[]>();

  constructor(rule: RateRule, clock: () => Date, maxKeys = 50_000) {
    this.#rule = rule;
    this.#clock = clock;
    this.#maxKeys = maxKeys;
  }

  /** Counts one attempt for `key` unless the window is already full. */
  hit(key: string): RateDecision {
    const now = this.#clock().getTime();
    const since = now - this.#rule.windowMs;
    const times = (this.#hits.get(key) ?? []).filter((t) => t > since);
    if (times.length >= this.#rule.limit) {
      this.#hits.set(key, times);
      return refusal(times[0], this.#rule, now);
    }
    times.push(now);
    this.#hits.delete(key); // re-insert so Map order tracks recency
    this.#hits.set(key, times);
    if (this.#hits.size > this.#maxKeys) this.#sweep(since);
    return { ok: true };
  }

  async enforce(key: string, message?: string): Promise<void> {
    throwIfRefused(this.hit(key), message);
  }

  async check(key: string, message?: string): Promise<void> {
    const now = this.#clock().getTime();
    const since = now - this.#rule.windowMs;
    const times = (this.#hits.get(key) ?? []).filter((t) => t > since);
    throwIfRefused(times.length >= this.#rule.limit ? refusal(times[0], this.#rule, now) : { ok: true }, message);
  }

  get size(): number {
    return this.#hits.size;
  }

  #sweep(since: number): void {
    for (const [key, times] of this.#hits) {
      if (times[times.length - 1] <= since) this.#hits.delete(key);
    }
    for (const key of this.#hits.keys()) {
      if (this.#hits.size <= this.#maxKeys) break;
      this.#hits.delete(key);
    }
  }
}

/** Rows older than the longest window are deleted by whichever process hits this often. */
const SWEEP_EVERY_HITS = 1000;
const LONGEST_WINDOW_MS = Math.max(...Object.values(RATE_RULES as Record<string, RateRule>).map((r) => r.windowMs));

/** Keys are stored hashed: they may be e-mails (not stored in the clear) of any length (an index
 *  entry is not). */
function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}

export class SharedRateLimiter implements Limiter {
  readonly #name: string;
  readonly #rule: RateRule;
  readonly #clock: () => Date;
  readonly #db: Kysely<Database>;
  readonly #postgres: boolean;
  #hitsSinceSweep = 0;

  constructor(name: string, rule: RateRule, clock: () => Date, db: Kysely<Database>) {
    this.#name = name;
    this.#rule = rule;
    this.#clock = clock;
    this.#db = db;
    this.#postgres = dialectOf(db) === "postgres";
  }

  async hit(key: string): Promise<RateDecision> {
    const now = this.#clock().getTime();
    const since = now - this.#rule.windowMs;
    const keyHash = hashKey(key);
    const decision = this.#postgres ? await this.#hitPostgres(keyHash, now, since) : await this.#hitSqlite(keyHash, now, since);
    if (++this.#hitsSinceSweep >= SWEEP_EVERY_HITS) {
      this.#hitsSinceSweep = 0;
      await this.#db.deleteFrom("rate_limit_hits").where("at", "<=", now - LONGEST_WINDOW_MS).execute();
    }
    return decision;
  }

  async enforce(key: string, message?: string): Promise<void> {
    throwIfRefused(await this.hit(key), message);
  }

  async check(key: string, message?: string): Promise<void> {
    const now = this.#clock().getTime();
    const oldest = await this.#db
      .selectFrom("rate_limit_hits")
      .select("at")
      .where("rule", "=", this.#name)
      .where("key_hash", "=", hashKey(key))
      .where("at", ">", now - this.#rule.windowMs)
      .orderBy("at")
      .limit(this.#rule.limit)
      .execute();
    throwIfRefused(oldest.length >= this.#rule.limit ? refusal(Number(oldest[0].at), this.#rule, now) : { ok: true }, message);
  }

  /** PostgreSQL: the function of migration 009 (an advisory lock on rule and key, then sweep,
   *  count and insert), so concurrent hits from any process are counted exactly; batched with the
   *  other hits of this turn of the event loop. */
  async #hitPostgres(keyHash: string, now: number, since: number): Promise<RateDecision> {
    const oldest = await hitBatcherFor(this.#db).add({ rule: this.#name, keyHash, now, since, limit: this.#rule.limit });
    return oldest === null ? { ok: true } : refusal(oldest, this.#rule, now);
  }

  /** SQLite (tests of this class on one file): the same steps in one write transaction, which
   *  SQLite serialises by itself. */
  async #hitSqlite(keyHash: string, now: number, since: number): Promise<RateDecision> {
    return this.#db.transaction().execute(async (trx) => {
      const inWindow = trx.selectFrom("rate_limit_hits").where("rule", "=", this.#name).where("key_hash", "=", keyHash);
      await trx.deleteFrom("rate_limit_hits").where("rule", "=", this.#name).where("key_hash", "=", keyHash).where("at", "<=", since).execute();
      const oldest = await inWindow.select("at").orderBy("at").limit(this.#rule.limit).execute();
      if (oldest.length >= this.#rule.limit) return refusal(oldest[0].at, this.#rule, now);
      await trx.insertInto("rate_limit_hits").values({ rule: this.#name, key_hash: keyHash, at: now }).execute();
      return { ok: true } as const;
    });
  }
}

interface Hit {
  rule: string;
  keyHash: string;
  now: number;
  since: number;
  limit: number;
}

/** The PostgreSQL hits of one turn of the event loop as one statement (db/tick-batch.ts):
 *  rate_limit_hit for a single hit, rate_limit_hits (migration 011) for several, whose rows come
 *  back in the order asked. Each answers the oldest hit in the window when refused, else null. */
async function runHits(db: Kysely<Database>, hits: Hit[]): Promise<Settled<number | null>[]> {
  const asNumber = (v: string | number | null | undefined) => ({ ok: true as const, value: v === null || v === undefined ? null : Number(v) });
  if (hits.length === 1) return [asNumber((await rateLimitHit(db, hits[0])).rows[0]?.oldest)];
  const { rows } = await rateLimitHits(db, {
    rules: hits.map((h) => h.rule),
    keyHashes: hits.map((h) => h.keyHash),
    nows: hits.map((h) => h.now),
    sinces: hits.map((h) => h.since),
    limits: hits.map((h) => h.limit),
  });
  if (rows.length !== hits.length) throw new Error(`rate_limit_hits answered ${rows.length} rows for ${hits.length} hits`);
  const oldest = new Array<string | number | null>(hits.length).fill(null);
  for (const r of rows) oldest[Number(r.i) - 1] = r.oldest;
  return oldest.map(asNumber);
}

const hitBatchers = new WeakMap<Kysely<Database>, TickBatcher<Hit, number | null>>();

/** The hit batcher of `db` (one per database handle, shared by every rule's limiter). */
export function hitBatcherFor(db: Kysely<Database>): TickBatcher<Hit, number | null> {
  return batcherFor(hitBatchers, db, runHits);
}

/** Compiled once and server-side prepared statements (db/prepared.ts). */
const rateLimitHit = preparedQuery((_db, arg: (name: "rule" | "keyHash" | "now" | "since" | "limit") => string) =>
  sql<{ oldest: string | number | null }>`select rate_limit_hit(${arg("rule")}, ${arg("keyHash")}, ${arg("now")}, ${arg("since")}, ${arg("limit")}) as oldest`,
);
const rateLimitHits = preparedQuery((_db, arg: (name: "rules" | "keyHashes" | "nows" | "sinces" | "limits") => string) =>
  sql<{ i: number; oldest: string | number | null }>`select i, oldest from rate_limit_hits(${arg("rules")}::text[], ${arg("keyHashes")}::text[], ${arg("nows")}::bigint[], ${arg("sinces")}::bigint[], ${arg("limits")}::integer[])`,
);

export type Limiters = Record<keyof typeof RATE_RULES, Limiter>;

/** One limiter per rule of RATE_RULES: in this process's memory, or in `shared`'s tables. */
export function createLimiters(clock: () => Date, shared?: Kysely<Database>): Limiters {
  const entries = Object.entries(RATE_RULES).map(([name, rule]) => [
    name,
    shared ? new SharedRateLimiter(name, rule, clock, shared) : new RateLimiter(rule, clock),
  ]);
  return Object.fromEntries(entries) as Limiters;
}
