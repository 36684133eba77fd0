// Opens the embedded SQLite database (better-sqlite3 through kysely), applies the connection
// PRAGMAs every process needs and migrates to the latest schema before anyone can query it.
import SQLite from "better-sqlite3";
import { Kysely } from "kysely";
import { GroupCommitSqliteDialect } from "./group-commit";
import { migrateToLatest } from "./migrations";
import type { Database } from "./schema";

export type { Database } from "./schema";

/** Connection settings: WAL for concurrent readers, FULL sync so a commit survives power loss,
 *  a 5 s busy wait instead of instant SQLITE_BUSY, and enforced foreign keys. */
function configure(sqlite: SQLite.Database): void {
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
}

/** Opens (creating if needed) the SQLite file and migrates it. Close with `db.destroy()`. */
export async function openDatabase(file: string): Promise<Kysely<Database>> {
  const sqlite = new SQLite(file);
  try {
    configure(sqlite);
  } catch (err) {
    sqlite.close();
    throw err;
  }
  const db = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(sqlite) });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
