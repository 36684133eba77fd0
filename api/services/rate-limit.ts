// In-memory sliding-window rate limiter with an injectable clock. One instance per rule; keys are
// client addresses or account e-mails. Memory stays bounded: expired keys are swept when the map
// grows, and the oldest keys are dropped past a hard cap.
import { ApiError } from "../errors";
import { MSG } from "../messages";
import { UPLOADS_PER_HOUR } from "../rules/marketplace";

export interface RateRule {
  limit: number;
  windowMs: number;
}

/** The limits of issue 5 (sign-in), issue 9 (credentialed billing actions, keyed by user id;
 *  the unauthenticated success-page call by client address), issue 10 (shared presets, per user)
 *  and issue 12 (marketplace uploads, purchases and ratings, per user). */
export const RATE_RULES = {
  loginPerIp: { limit: 10, windowMs: 60_000 },
  loginPerAccount: { limit: 10, windowMs: 60_000 },
  registerPerIp: { limit: 5, windowMs: 10 * 60_000 },
  forgotPerIp: { limit: 5, windowMs: 10 * 60_000 },
  checkoutPerUser: { limit: 10, windowMs: 10 * 60_000 },
  portalPerUser: { limit: 10, windowMs: 10 * 60_000 },
  checkoutLookupPerIp: { limit: 30, windowMs: 60_000 },
  demoStartPerUser: { limit: 5, windowMs: 10 * 60_000 },
  presetCreatePerUser: { limit: 20, windowMs: 10 * 60_000 },
  marketplaceUploadPerUser: { limit: UPLOADS_PER_HOUR, windowMs: 60 * 60_000 },
  marketplacePurchasePerUser: { limit: 20, windowMs: 10 * 60_000 },
  marketplaceRatePerUser: { limit: 30, windowMs: 10 * 60_000 },
  adminActionPerUser: { limit: 120, windowMs: 10 * 60_000 },
  cspReportPerIp: { limit: 60, windowMs: 60_000 },
} as const satisfies Record<string, RateRule>;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export class RateLimiter {
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
      const retryMs = times[0] + this.#rule.windowMs - now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(retryMs / 1000)) };
    }
    times.push(now);
    this.#hits.delete(key); // re-insert so Map order tracks recency
    this.#hits.set(key, times);
    if (this.#hits.size > this.#maxKeys) this.#sweep(since);
    return { ok: true };
  }

  /** Like hit(), but throws the API's 429 with Retry-After (and `message`, if given). */
  enforce(key: string, message?: string): void {
    const decision = this.hit(key);
    if (!decision.ok) {
      const s = decision.retryAfterSeconds;
      throw new ApiError(429, message ?? MSG.tooManyRequests(s), { "Retry-After": String(s) });
    }
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

export type Limiters = Record<keyof typeof RATE_RULES, RateLimiter>;

/** One limiter per rule of RATE_RULES. */
export function createLimiters(clock: () => Date): Limiters {
  const entries = Object.entries(RATE_RULES).map(([name, rule]) => [name, new RateLimiter(rule, clock)]);
  return Object.fromEntries(entries) as Limiters;
}
