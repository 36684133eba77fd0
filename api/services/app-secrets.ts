// Secrets the whole installation shares, generated once and kept in the database (app_secrets),
// so that every API process serving one PostgreSQL database signs and checks sessions with the same
// key when JWT_SECRET is not set. The first process to ask creates the value; an insert that finds
// the name already taken does nothing, so processes starting together still agree.
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";

/** The secret called `name`, created (48 random bytes, base64url) if it does not exist yet. */
export async function sharedSecret(db: Kysely<Database>, name: string, now: Date = new Date()): Promise<string> {
  await db
    .insertInto("app_secrets")
    .values({ name, value: randomBytes(48).toString("base64url"), created_at: now.toISOString() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}
