// Single-use tokens for e-mailed links (verification, password recovery): 32 random bytes handed
// out as base64url, stored only as their SHA-256, consumed atomically (UPDATE ... RETURNING), so a
// token works once and a leaked database does not leak usable links.
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, TokenPurpose } from "../db/schema";

/** Lifetimes: a recovery code (used by reset-password or exchanged for a session) lasts 1 hour,
 *  a verification code 24 hours. */
export const TOKEN_TTL_MS: Readonly<Record<TokenPurpose, number>> = {
  reset_password: 60 * 60 * 1000,
  verify_email: 24 * 60 * 60 * 1000,
};

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/; // 32 bytes in unpadded base64url

export function hashToken(raw: string): string {
  return createHash("sha256").update(raw).digest("hex");
}

export class OneTimeTokens {
  readonly #db: Kysely<Database>;
  readonly #clock: () => Date;

  constructor(db: Kysely<Database>, clock: () => Date) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Issues a new token; older unused tokens of the same purpose for the user stop working. */
  async issue(userId: string, purpose: TokenPurpose): Promise<string> {
    const now = this.#clock();
    const raw = randomBytes(32).toString("base64url");
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .updateTable("one_time_tokens")
        .set({ used_at: now.toISOString() })
        .where("user_id", "=", userId)
        .where("purpose", "=", purpose)
        .where("used_at", "is", null)
        .execute();
      await trx
        .insertInto("one_time_tokens")
        .values({
          token_hash: hashToken(raw),
          user_id: userId,
          purpose,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + TOKEN_TTL_MS[purpose]).toISOString(),
          used_at: null,
        })
        .execute();
    });
    return raw;
  }

  /** Marks the token used and returns its owner, or null if unknown, used, expired or of
   *  another purpose. */
  async consume(
    raw: string,
    purposes: readonly TokenPurpose[],
  ): Promise<{ userId: string; purpose: TokenPurpose } | null> {
    if (!TOKEN_SHAPE.test(raw) || purposes.length === 0) return null;
    const now = this.#clock().toISOString();
    const row = await this.#db
      .updateTable("one_time_tokens")
      .set({ used_at: now })
      .where("token_hash", "=", hashToken(raw))
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .where("purpose", "in", purposes)
      .returning(["user_id", "purpose"])
      .executeTakeFirst();
    return row ? { userId: row.user_id, purpose: row.purpose } : null;
  }

  /** Voids every unused token of a purpose for a user (e.g. all reset links after a reset). */
  async invalidate(userId: string, purpose: TokenPurpose): Promise<void> {
    await this.#db
      .updateTable("one_time_tokens")
      .set({ used_at: this.#clock().toISOString() })
      .where("user_id", "=", userId)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .execute();
  }
}
