// Session tokens: HS256 JWTs (jose) carrying iss, aud, sub, exp (30 days) and a session id `sid`
// that must exist, unrevoked and unexpired, in the sessions table. Revoking the row (logout,
// password change) therefore kills the token even though its signature is still valid.
import { createHmac, randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { Kysely } from "kysely";
import { preparedQuery } from "../db/prepared";
import { type ExactReadCache, exactCacheFor } from "./read-cache";
import type { Database, UserRow } from "../db/schema";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_TOKEN_LENGTH = 4096;
/** Verified tokens remembered per process (a few MB at most). */
const VERIFIED_TOKENS_KEPT = 10_000;

export interface SessionOptions {
  db: Kysely<Database>;
  secret: string;
  issuer: string;
  audience: string;
  clock: () => Date;
}

export interface IssuedSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export interface VerifiedSession {
  sessionId: string;
  user: UserRow;
}

export class SessionService {
  readonly #opts: SessionOptions;
  readonly #key: Uint8Array;

  /** Tokens whose signature and claims were checked, with their expiry (seconds): checking again
   *  would give the same answer until then, so only the session row is read per request. This
   *  caches no decision about the session itself: revocation still takes effect at once. */
  readonly #verified = new Map<string, { sid: string; sub: string; exp: number }>();

  constructor(opts: SessionOptions) {
    this.#opts = opts;
    this.#key = new TextEncoder().encode(opts.secret);
  }

  /** Creates a session row and the signed token that names it. */
  async create(userId: string): Promise<IssuedSession> {
    const now = this.#opts.clock();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    const sessionId = randomBytes(18).toString("base64url");
    await this.#opts.db
      .insertInto("sessions")
      .values({
        id: sessionId,
        user_id: userId,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        revoked_at: null,
      })
      .execute();
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(userId)
      .setIssuer(this.#opts.issuer)
      .setAudience(this.#opts.audience)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.#key);
    return { token, sessionId, expiresAt };
  }

  /** The live session a token names, or null for any bad, expired or revoked token. */
  async verify(token: string): Promise<VerifiedSession | null> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
    const now = this.#opts.clock();
    let sid: unknown;
    let sub: unknown;
    const known = this.#verified.get(token);
    if (known && known.exp > Math.floor(now.getTime() / 1000)) {
      ({ sid, sub } = known);
    } else {
      try {
        const { payload } = await jwtVerify(token, this.#key, {
          algorithms: ["HS256"],
          issuer: this.#opts.issuer,
          audience: this.#opts.audience,
          currentDate: now,
          requiredClaims: ["exp", "sub", "sid"],
        });
        sid = payload.sid;
        sub = payload.sub;
        if (typeof sid === "string" && typeof sub === "string" && payload.nbf === undefined) this.#remember(token, { sid, sub, exp: payload.exp! });
      } catch {
        return null;
      }
    }
    if (typeof sid !== "string" || typeof sub !== "string" || sid.length > 64) return null;
    const db = this.#opts.db;
    const found = await exactCacheFor(sessionUsers, db, SESSION_TABLES).get(db, `${sid} ${sub}`, async () => {
      const row = (await unrevokedSessionUser(db, { sid, sub })).rows[0];
      if (!row) return null;
      const { session_expires_at: expiresAt, ...user } = row;
      return { expiresAt, user: Object.freeze(user) as UserRow }; // shared by requests: read-only
    });
    // The expiry is checked on every use: the cached row does not know the clock.
    return found && found.expiresAt > now.toISOString() ? { sessionId: sid, user: found.user } : null;
  }

  #remember(token: string, claims: { sid: string; sub: string; exp: number }): void {
    if (this.#verified.size >= VERIFIED_TOKENS_KEPT) this.#verified.delete(this.#verified.keys().next().value!);
    this.#verified.set(token, claims);
  }

  async revoke(sessionId: string): Promise<void> {
    await this.#opts.db
      .updateTable("sessions")
      .set({ revoked_at: this.#opts.clock().toISOString() })
      .where("id", "=", sessionId)
      .where("revoked_at", "is", null)
      .execute();
  }

  /** Revokes every live session of a user, optionally keeping one (the caller's own). */
  async revokeAllForUser(userId: string, keepSessionId?: string): Promise<number> {
    let q = this.#opts.db
      .updateTable("sessions")
      .set({ revoked_at: this.#opts.clock().toISOString() })
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null);
    if (keepSessionId) q = q.where("id", "!=", keepSessionId);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** A CSRF token bound to one session (HMAC of its id), for routes that later want a second factor
   *  besides the bearer header; stateless, so nothing extra is stored. */
  csrfTokenFor(sessionId: string): string {
    return createHmac("sha256", this.#key).update(`csrf:${sessionId}`).digest("base64url");
  }
}

/** The user of an unrevoked session and when it expires (every signed-in request asks): compiled
 *  once (db/prepared.ts), and kept while the sessions and users tables are unchanged
 *  (read-cache.ts ExactReadCache), so a sign-out or a deleted account counts at once. */
const unrevokedSessionUser = preparedQuery((db, arg: (name: "sid" | "sub") => string) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .select("sessions.expires_at as session_expires_at")
    .where("sessions.id", "=", arg("sid"))
    .where("sessions.user_id", "=", arg("sub"))
    .where("sessions.revoked_at", "is", null),
);

const SESSION_TABLES = ["sessions", "users"] as const;
const sessionUsers = new WeakMap<object, ExactReadCache<{ expiresAt: string; user: UserRow } | null>>();
