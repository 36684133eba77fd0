// The database layer: PRAGMAs on every connection, schema only through the in-code migrations,
// idempotent re-opening, and the constraints the services rely on.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqlite } from "../../../../api/db/open";
import { migrations } from "../../../../api/db/migrations";
import { createUser } from "../../../../api/services/users";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "studio-db-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("openSqlite", () => {
  it("sets WAL, synchronous NORMAL (the driver syncs the WAL after each commit), busy_timeout 5000 and foreign keys", async () => {
    const db = await openSqlite(join(dir, "studio.db"));
    try {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as Record<string, unknown>)[0];
      expect(await pragma("journal_mode")).toBe("wal");
      expect(await pragma("synchronous")).toBe(1); // NORMAL: group-commit.ts syncs the WAL itself
      expect(await pragma("busy_timeout")).toBe(5000);
      expect(await pragma("foreign_keys")).toBe(1);
    } finally {
      await db.destroy();
    }
  });

  it("creates the tables through the recorded migrations and re-opens without re-running them", async () => {
    const file = join(dir, "studio.db");
    let db = await openSqlite(file);
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db);
    expect(tables.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining(["users", "sessions", "one_time_tokens", "subscriptions", "temporary_access"]),
    );
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations));
    await createUser(db, { email: "ada@example.com", fullName: null, passwordHash: "x", now: new Date() });
    await db.destroy();
    db = await openSqlite(file);
    const users = await db.selectFrom("users").select("email").execute();
    expect(users).toEqual([{ email: "ada@example.com" }]);
    await db.destroy();
  });

  it("enforces unique e-mails, foreign keys and token purposes", async () => {
    const db = await openSqlite(join(dir, "studio.db"));
    try {
      const now = new Date();
      expect(await createUser(db, { email: "a@x.io", fullName: null, passwordHash: "x", now })).not.toBeNull();
      expect(await createUser(db, { email: "A@x.io", fullName: null, passwordHash: "x", now })).toBeNull();
      const orphan = db
        .insertInto("sessions")
        .values({ id: "s", user_id: "missing", created_at: "", expires_at: "", revoked_at: null })
        .execute();
      await expect(orphan).rejects.toThrow(/FOREIGN KEY/);
      const user = await db.selectFrom("users").select("id").executeTakeFirstOrThrow();
      const badPurpose = db
        .insertInto("one_time_tokens")
        .values({ token_hash: "h", user_id: user.id, purpose: "magic" as never, created_at: "", expires_at: "", used_at: null })
        .execute();
      await expect(badPurpose).rejects.toThrow(/CHECK/);
    } finally {
      await db.destroy();
    }
  });
});
