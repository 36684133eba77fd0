// Opens the database the API runs on and migrates it to the latest schema before anyone can query
// it: the embedded SQLite file (better-sqlite3, the default) or PostgreSQL (a `pg` Pool) when
// DATABASE_URL names one. Both run the same kysely migrations and the same queries.
import SQLite from "better-sqlite3";
import { Kysely, sql } from "kysely";
import pg from "pg";
import { loadWriteReach, TableChanges, trackTableChanges } from "./changes";
import { ChangeCountingPostgresDialect, PostgresTableChanges } from "./changes-postgres";
import { redactDatabaseUrl } from "./dialect";
import { GroupCommitSqliteDialect } from "./group-commit";
import { migrateToLatest } from "./migrations";
import { serverStatementName } from "./prepared";
import type { Database } from "./schema";

export type { Database } from "./schema";
export { dialectOf, isPostgresUrl, redactDatabaseUrl, type Dialect } from "./dialect";

/** Where the data lives: a SQLite file, or a PostgreSQL connection URL (postgres:// or postgresql://). */
export type DatabaseConfig = { sqliteFile: string; databaseUrl?: undefined } | { databaseUrl: string; sqliteFile?: undefined };

/** Opens the configured database and migrates it. Close with `db.destroy()`. */
export function openDatabase(config: DatabaseConfig): Promise<Kysely<Database>> {
  if (config.databaseUrl !== undefined) return openPostgres(config.databaseUrl);
  return openSqlite(config.sqliteFile);
}

// ---- SQLite ------------------------------------------------------------------------------------

/** Connection settings: a 5 s busy wait instead of instant SQLITE_BUSY; WAL for concurrent readers;
 *  synchronous=NORMAL because the driver syncs the WAL itself after every commit, off the event
 *  loop, before answering (group-commit.ts), so a commit survives power loss as with FULL; and
 *  enforced foreign keys. */
async function configure(sqlite: SQLite.Database): Promise<void> {
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  await switchToWal(sqlite);
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
}

const BUSY_TIMEOUT_MS = 5000;

/** SQLite answers SQLITE_BUSY to `journal_mode = WAL` at once, without its busy wait, while another
 *  process opens the same new file and switches it too (several API processes starting together on
 *  one DATA_DIR): try again for as long as the busy wait would have waited. */
async function switchToWal(sqlite: SQLite.Database): Promise<void> {
  const end = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.pragma("journal_mode = WAL");
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
    }
  }
}

function isBusy(err: unknown): boolean {
  return err instanceof SQLite.SqliteError && err.code.startsWith("SQLITE_BUSY");
}

/** Opens (creating if needed) the SQLite file and migrates it. Close with `db.destroy()`. */
export async function openSqlite(file: string): Promise<Kysely<Database>> {
  const sqlite = new SQLite(file);
  try {
    await configure(sqlite);
  } catch (err) {
    sqlite.close();
    throw err;
  }
  const changes = new TableChanges(sqlite);
  const db = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(sqlite, undefined, changes) });
  trackTableChanges(db, changes);
  return migrated(db);
}

// ---- PostgreSQL --------------------------------------------------------------------------------

// pg answers int8 (bigint: counts, byte sizes, Stripe seconds) and numeric (sums) as strings so
// that nothing is silently rounded. Every such value here is a count or an amount far below 2^53,
// which SQLite hands back as a number: read them as numbers, and refuse (rather than round) any
// that is not exactly representable. Set per pool, not globally, so other users of `pg` (the job
// queue) keep the library's defaults.
const INT8_OID = 20;
const NUMERIC_OID = 1700;

function exactInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`Database value ${text} is not an integer below 2^53`);
  return n;
}

/** numeric may hold fractions (a division); a whole number must still be exact. */
function exactNumeric(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || (Number.isInteger(n) && !Number.isSafeInteger(n))) throw new Error(`Database value ${text} does not fit a JavaScript number`);
  return n;
}

const typeParsers = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID) return exactInteger;
    if (oid === NUMERIC_OID) return exactNumeric;
    return format === "binary" ? pg.types.getTypeParser(oid, "binary") : pg.types.getTypeParser(oid, "text");
  },
} as pg.CustomTypesConfig;

/** A client that runs the prepared queries' SQL (db/prepared.ts) as named statements: parsed once
 *  per connection, planned by the server's plan cache. Every other query goes as before.
 *  A statement that reads `table.*` fails with "cached plan must not change result type" once a
 *  migration (another process's, during a rolling upgrade) changed the table's columns: it is
 *  then dropped on this connection and run again, parsed afresh. */
class PreparedStatementClient extends pg.Client {
  // @ts-expect-error -- pg's overloads; this passes every form through and rewrites one
  override query(config: unknown, values?: unknown, callback?: unknown) {
    const name = typeof config === "string" && Array.isArray(values) && callback === undefined ? serverStatementName(config) : undefined;
    // @ts-expect-error -- as above
    if (!name) return super.query(config, values, callback);
    const named = { name, text: config as string, values: values as unknown[] };
    return super.query(named).catch(async (err: unknown) => {
      if (!isStalePlan(err)) throw err;
      // Inside a transaction the failure aborted it and nothing more can run: the next use retries.
      const dropped = await super.query(`deallocate "${name}"`).then(
        () => true,
        () => false,
      );
      if (!dropped) throw err;
      delete (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name];
      return super.query(named);
    });
  }
}

function isStalePlan(err: unknown): boolean {
  return err instanceof Error && (err as { code?: string }).code === "0A000" && err.message.includes("cached plan must not change result type");
}

/** A pool on `url` whose int8 and numeric columns read as numbers (see above). */
export function postgresPool(url: string, extra: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: typeParsers, Client: PreparedStatementClient as typeof pg.Client, ...extra });
  // An idle client that loses its server (a restart) emits 'error' on the pool; without a listener
  // that would crash the process. The next query reconnects.
  pool.on("error", (err) => console.error("PostgreSQL idle client error", { message: err.message }));
  return pool;
}

/** Connects to PostgreSQL and migrates. The password never appears in a thrown message. */
export async function openPostgres(url: string, extra: pg.PoolConfig = {}): Promise<Kysely<Database>> {
  // The listening connection of the change notifications has the pool's settings (a schema, TLS).
  const changes = new PostgresTableChanges({ connectionString: url, ...extra });
  const db = new Kysely<Database>({ dialect: new ChangeCountingPostgresDialect({ pool: postgresPool(url, extra) }, changes) });
  trackTableChanges(db, changes);
  try {
    await sql`select 1`.execute(db);
  } catch (err) {
    await db.destroy();
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Cannot connect to PostgreSQL at ${redactDatabaseUrl(url)}: ${reason}`, { cause: err });
  }
  return migrated(db);
}

async function migrated(db: Kysely<Database>): Promise<Kysely<Database>> {
  try {
    await migrateToLatest(db);
    await loadWriteReach(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
