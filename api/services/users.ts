// Account rows: lookups, creation, password and verification updates, the admin flag, and the
// public shape of a user that the API returns (never the hash).
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, UserRow } from "../db/schema";
import type { PublicUser } from "../rules/account";


export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function publicUser(row: UserRow, isAdmin: boolean): PublicUser {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    isAdmin,
    is_super_admin: isAdmin,
    emailVerified: row.email_verified_at !== null,
    createdAt: row.created_at,
  };
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE";
}

/** Inserts a user; null when the e-mail is already taken (also under a concurrent insert). */
export async function createUser(
  db: Kysely<Database>,
  input: { email: string; fullName: string | null; passwordHash: string; now: Date },
): Promise<UserRow | null> {
  const stamp = input.now.toISOString();
  const row: UserRow = {
    id: randomUUID(),
    email: normalizeEmail(input.email),
    full_name: input.fullName,
    password_hash: input.passwordHash,
    email_verified_at: null,
    is_admin: 0,
    admin_override: 0,
    created_at: stamp,
    updated_at: stamp,
  };
  try {
    await db.insertInto("users").values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
  return row;
}

export async function setPasswordHash(db: Kysely<Database>, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set({ password_hash: hash, updated_at: now.toISOString() })
    .where("id", "=", userId)
    .execute();
}

/** Sets email_verified_at unless already set; returns the fresh row. */
export async function markEmailVerified(db: Kysely<Database>, userId: string, now: Date): Promise<UserRow | undefined> {
  await db
    .updateTable("users")
    .set({ email_verified_at: now.toISOString(), updated_at: now.toISOString() })
    .where("id", "=", userId)
    .where("email_verified_at", "is", null)
    .execute();
  return findUserById(db, userId);
}

/** Sets or clears the database admin flag of an existing account; false if no account has that
 *  e-mail. (ADMIN_EMAILS admins stay admins regardless.) */
export async function setAdminFlag(db: Kysely<Database>, email: string, admin: boolean, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ is_admin: admin ? 1 : 0, updated_at: now.toISOString() })
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
