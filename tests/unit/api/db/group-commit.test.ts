// The group-commit SQLite driver (api/db/group-commit.ts) on a real file: concurrent writes are all
// stored and answered with kysely's usual results, committed together (one transaction, seen whole
// by another connection), a failing statement fails only its own caller, explicit transactions
// keep their isolation and order, and reads see every answered write.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSyncer, GroupCommitSqliteDialect } from "../../../../api/db/group-commit";
import { openSqlite } from "../../../../api/db/open";
import type { Database } from "../../../../api/db/schema";

let dir: string;
let db: Kysely<Database>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "group-commit-"));
  db = await openSqlite(join(dir, "studio.db"));
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const log = (i: number) =>
  db.insertInto("mail_log").values({ to_email: `u${i}@example.com`, subject: `s${i}`, sent_at: "2030-01-01T00:00:00.000Z" }).executeTakeFirstOrThrow();

const user = (id: string, email: string) =>
  db
    .insertInto("users")
    .values({ id, email, full_name: null, password_hash: "x", email_verified_at: null, is_admin: 0, admin_override: 0, created_at: "t", updated_at: "t" })
    .execute();

describe("group commit", () => {
  it("stores every concurrent write and answers each with its own insert id and row count", async () => {
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => log(i)));
    const ids = results.map((r) => Number(r.insertId));
    expect(new Set(ids).size).toBe(200);
    expect(results.every((r) => r.numInsertedOrUpdatedRows === 1n)).toBe(true);
    const rows = await db.selectFrom("mail_log").select(["id", "subject"]).orderBy("id").execute();
    expect(rows).toHaveLength(200);
    // In the order issued.
    expect(rows.map((r) => r.subject)).toEqual(Array.from({ length: 200 }, (_, i) => `s${i}`));
  });

  it("commits a group as one transaction that another connection sees whole, once the callers are answered", async () => {
    const other = new SQLite(join(dir, "studio.db"), { readonly: true });
    try {
      const pending = Promise.all(Array.from({ length: 50 }, (_, i) => log(i)));
      // Nothing is committed before the group is flushed...
      expect((other.prepare("select count(*) as n from mail_log").get() as { n: number }).n).toBe(0);
      await pending;
      // ...and every answered write is there for any reader.
      expect((other.prepare("select count(*) as n from mail_log").get() as { n: number }).n).toBe(50);
    } finally {
      other.close();
    }
  });

  it("a failing statement (a unique violation) fails only its caller; the rest of the group is stored", async () => {
    const outcomes = await Promise.allSettled([user("a", "same@example.com"), user("b", "same@example.com"), user("c", "other@example.com")]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(((outcomes[1] as PromiseRejectedResult).reason as { code?: string }).code).toBe("SQLITE_CONSTRAINT_UNIQUE");
    const ids = await db.selectFrom("users").select("id").orderBy("id").execute();
    expect(ids.map((r) => r.id)).toEqual(["a", "c"]);
  });

  it("a write's caller reads its own write; updates and deletes report their row counts", async () => {
    await user("u1", "one@example.com");
    const upd = await db.updateTable("users").set({ full_name: "Ada" }).where("id", "=", "u1").executeTakeFirst();
    expect(upd.numUpdatedRows).toBe(1n);
    expect((await db.selectFrom("users").select("full_name").where("id", "=", "u1").executeTakeFirstOrThrow()).full_name).toBe("Ada");
    const none = await db.deleteFrom("users").where("id", "=", "nobody").executeTakeFirst();
    expect(none.numDeletedRows).toBe(0n);
  });

  it("writes queued before a transaction commit before it; other queries wait for the transaction; a rollback undoes only its own writes", async () => {
    const before = log(1);
    let insideSawBefore = -1;
    let outsideCount = -1;
    const tx = db
      .transaction()
      .execute(async (trx) => {
        insideSawBefore = Number((await trx.selectFrom("mail_log").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
        await trx.insertInto("mail_log").values({ to_email: "tx@example.com", subject: "tx", sent_at: "t" }).execute();
        // A query from outside, issued now, must not see the uncommitted row.
        void db
          .selectFrom("mail_log")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
          .then((r) => (outsideCount = Number(r.n)));
        await new Promise((r) => setTimeout(r, 20));
        throw new Error("roll back");
      })
      .catch((err: Error) => err.message);
    const during = log(2);
    expect(await tx).toBe("roll back");
    await Promise.all([before, during]);
    expect(insideSawBefore).toBe(1);
    expect(outsideCount).toBe(1); // waited for the transaction, which rolled back
    const subjects = (await db.selectFrom("mail_log").select("subject").orderBy("id").execute()).map((r) => r.subject);
    expect(subjects).toEqual(["s1", "s2"]);
  });
});

describe("durability off the event loop", () => {
  it("answers a write only after a sync of the -wal file that began after its commit", async () => {
    const file = join(dir, "gated.db");
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.exec("create table mail_log (id integer primary key, to_email text not null, subject text not null, sent_at text not null)");
    const syncs: { file: string; release(): void }[] = [];
    const gated = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(sqlite, (f) => new Promise<void>((release) => syncs.push({ file: f, release }))) });
    const other = new SQLite(file, { readonly: true });
    const tick = () => new Promise((r) => setTimeout(r, 20));
    try {
      const insert = (v: string) => gated.insertInto("mail_log").values({ to_email: "a@example.com", subject: v, sent_at: "t" }).execute();
      let answered = 0;
      const first = Promise.all([insert("a"), insert("b")].map((p) => p.then(() => answered++)));
      await tick();
      // Committed as one group (another connection sees both rows), one sync asked for, nobody answered.
      expect(other.prepare("select count(*) as n from mail_log").get()).toEqual({ n: 2 });
      expect(syncs.map((s) => s.file)).toEqual([`${file}-wal`]);
      expect(answered).toBe(0);
      // A write committed while that sync runs needs a sync of its own.
      const second = insert("c").then(() => answered++);
      await tick();
      expect(other.prepare("select count(*) as n from mail_log").get()).toEqual({ n: 3 });
      syncs[0].release();
      await first;
      await tick();
      expect(answered).toBe(2);
      expect(syncs).toHaveLength(2);
      syncs[1].release();
      await second;
      expect(answered).toBe(3);
    } finally {
      for (const s of syncs) s.release();
      other.close();
      await gated.destroy();
    }
  });

  it("answers an explicit transaction's commit after a sync too", async () => {
    const file = join(dir, "tx.db");
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.exec("create table t (id integer primary key, v text not null)");
    const syncs: (() => void)[] = [];
    const gated = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(sqlite, () => new Promise<void>((release) => syncs.push(release))) });
    try {
      let done = false;
      const tx = gated.transaction().execute(async (trx) => {
        await sql`insert into t (v) values ('x')`.execute(trx);
      }).then(() => (done = true));
      await new Promise((r) => setTimeout(r, 20));
      expect(done).toBe(false);
      expect(syncs).toHaveLength(1);
      syncs[0]();
      await tx;
      expect(done).toBe(true);
    } finally {
      for (const s of syncs) s();
      await gated.destroy();
    }
  });

  it("syncs the real -wal file through one kept handle (a missing one is nothing to sync)", async () => {
    const absent = new FileSyncer();
    await expect(absent.sync(join(dir, "absent.db-wal"))).resolves.toBeUndefined();
    await absent.close();
    await Promise.all(Array.from({ length: 20 }, (_, i) => log(i)));
    const wal = join(dir, "studio.db-wal");
    expect(existsSync(wal)).toBe(true);
    const syncer = new FileSyncer();
    try {
      await expect(syncer.sync(wal)).resolves.toBeUndefined();
      // The handle stays valid because SQLite keeps the -wal file's inode while a connection is
      // open, even when a checkpoint truncates it.
      const inode = statSync(wal).ino;
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
      await Promise.all(Array.from({ length: 20 }, (_, i) => log(100 + i)));
      expect(statSync(wal).ino).toBe(inode);
      await expect(syncer.sync(wal)).resolves.toBeUndefined();
    } finally {
      await syncer.close();
    }
    expect(await db.selectFrom("mail_log").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).toEqual({ n: 40 });
  });
});
