// A kysely driver for better-sqlite3 with group commit, durability off the event loop and
// prepared-statement reuse: the SQLite dialect of api/db/open.ts, with the same answers as kysely's
// own SqliteDriver.
//
// Why: with synchronous=FULL every commit waits for an fsync of the WAL inside SQLite, blocking
// the event loop (about 1.3 ms on the development machine, up to 1 ms a group under load on the
// 2-core VM), which capped the API near 700 writes a second. Two things here:
// - Group commit: single INSERT/UPDATE/DELETE statements issued outside a transaction are queued
//   and, once per turn of the event loop (setImmediate), run together inside one BEGIN IMMEDIATE
//   ... COMMIT. Each statement runs inside its own SAVEPOINT, so a statement that fails (a unique
//   violation) is rolled back alone and only its caller sees the error; if the COMMIT fails,
//   every statement of the group fails with that error.
// - The fsync moves to libuv's thread pool: the connection runs with synchronous=NORMAL (SQLite
//   writes the WAL frames at COMMIT without syncing them; it still syncs the WAL before every
//   checkpoint and the database file after it), and the driver syncs the -wal file itself with
//   an fdatasync on libuv's pool (FileSyncer, one handle kept open) after every commit, answering
//   the writes of that commit only when a sync that started after the COMMIT returned has finished. A write answered 2xx is therefore as durable
//   as with synchronous=FULL, while the event loop serves other requests during the sync. (Other
//   readers may see a commit during its sync, before it is answered: the one difference from FULL,
//   and only for a power loss in that millisecond.) In-memory databases have nothing to sync.
//
// Order and isolation are those of one connection used in turn: queued writes run in the order
// they were issued; a read runs at once and sees every write whose caller has been answered (a
// caller waits for its own write before its next query). An explicit transaction
// (db.transaction()) owns the connection from BEGIN to COMMIT/ROLLBACK: queued writes are flushed
// before it begins, and every other query waits until it ends, as with kysely's connection mutex.
//
// Statements are prepared once per SQL text (kysely compiles the same text for the same query
// shape) and kept in a small LRU map.
import { type FileHandle, open } from "node:fs/promises";
import type SQLite from "better-sqlite3";
import type { TableChanges } from "./changes";
import {
  CompiledQuery, DeleteQueryNode, type DatabaseConnection, type Driver, InsertQueryNode, type QueryResult, SqliteDialect,
  type TransactionSettings, UpdateQueryNode,
} from "kysely";

/** Statements kept prepared; kysely's queries here have a few hundred distinct shapes. */
const STATEMENT_CACHE_SIZE = 500;

type Row = Record<string, unknown>;

/** Syncs a file on libuv's thread pool, coalescing requests: each caller is answered by the first
 *  sync that started after its call (so after the commit it follows). A missing file (no WAL yet,
 *  or checkpointed away on close) has nothing unsynced in it. */
export class WalSync {
  readonly #file: string | null;
  #waiting: { resolve(): void; reject(err: unknown): void }[] = [];
  #running = false;

  readonly #sync: (file: string) => Promise<void>;
  readonly #syncer: FileSyncer | null = null;

  /** `file`: the -wal file, or null for a database with nothing to sync (in memory). `sync`: how a
   *  file is synced (tests observe it); by default a FileSyncer's handle kept open. */
  constructor(file: string | null, sync?: (file: string) => Promise<void>) {
    this.#file = file;
    if (sync) {
      this.#sync = sync;
    } else {
      const syncer = (this.#syncer = new FileSyncer());
      this.#sync = (f) => syncer.sync(f);
    }
  }

  /** Waits for the syncs asked for, then closes the kept handle. */
  async close(): Promise<void> {
    if (this.#running || this.#waiting.length > 0) await this.durable().catch(() => {});
    await this.#syncer?.close();
  }

  /** Resolves once everything written to the file before this call is on disk. */
  durable(): Promise<void> {
    if (this.#file === null) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      try {
        await this.#sync(this.#file!);
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.#running = false;
  }
}

/** Syncs a file's data through one handle kept open: one round trip to libuv's pool a sync
 *  (fdatasync) instead of three (open, fsync, close), each of which waits for a turn of the event
 *  loop, which under load is several milliseconds (a sync took about 20 ms at 1,000 writes a second
 *  that way). fdatasync writes the data and the size, what reading the file back needs; SQLite
 *  itself syncs its WAL so on Linux. The -wal file keeps its inode while a connection is open
 *  (SQLite rewrites it from the start after a checkpoint, and deletes it only when the last
 *  connection closes), so the handle stays valid until close(). A file that does not exist yet has
 *  nothing unsynced in it. */
export class FileSyncer {
  #handle: FileHandle | null = null;
  #opening: Promise<FileHandle | null> | null = null;
  #closed = false;

  async sync(file: string): Promise<void> {
    const handle = this.#handle ?? (await (this.#opening ??= this.#open(file)));
    if (handle) await handle.datasync();
  }

  async #open(file: string): Promise<FileHandle | null> {
    try {
      const handle = await open(file, "r");
      if (this.#closed) {
        await handle.close();
        return null;
      }
      this.#handle = handle;
      return handle;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    } finally {
      this.#opening = null;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const handle = this.#handle ?? (await this.#opening);
    this.#handle = null;
    await handle?.close();
  }
}

interface QueuedWrite {
  query: CompiledQuery;
  resolve(result: QueryResult<Row>): void;
  reject(err: unknown): void;
}

class GroupCommitConnection implements DatabaseConnection {
  readonly #driver: GroupCommitDriver;
  constructor(driver: GroupCommitDriver) {
    this.#driver = driver;
  }
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#driver.execute(this, query) as Promise<QueryResult<R>>;
  }
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Rows are read at once: an open better-sqlite3 iterator would block every other statement
    // for as long as the consumer takes.
    const result = (await this.#driver.execute(this, query)) as QueryResult<R>;
    for (const row of result.rows) yield { rows: [row] };
  }
}

export class GroupCommitDriver implements Driver {
  readonly #db: SQLite.Database;
  readonly #wal: WalSync;
  readonly #statements = new Map<string, SQLite.Statement>();
  #queue: QueuedWrite[] = [];
  #flushScheduled = false;
  /** The connection inside an explicit transaction, and a promise that settles when it ends. */
  #owner: GroupCommitConnection | null = null;
  #ownerDone: Promise<void> | null = null;
  #endOwner: (() => void) | null = null;

  readonly #changes: TableChanges | undefined;

  constructor(db: SQLite.Database, sync?: (file: string) => Promise<void>, changes?: TableChanges) {
    this.#db = db;
    this.#wal = new WalSync(db.memory ? null : `${db.name}-wal`, sync);
    this.#changes = changes;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new GroupCommitConnection(this);
  }

  async releaseConnection(): Promise<void> {}

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    void settings; // SQLite has no isolation levels: every transaction is serializable.
    const conn = connection as GroupCommitConnection;
    while (this.#ownerDone) await this.#ownerDone;
    this.#flush(); // writes issued before the transaction commit before it
    this.#owner = conn;
    this.#ownerDone = new Promise((done) => (this.#endOwner = done));
    try {
      // IMMEDIATE: a deferred transaction that reads and then writes fails at once with
      // SQLITE_BUSY (no busy wait) when another process committed after its read, as when two
      // processes start on one new file and both run the migrations. Taking the write lock first
      // makes the other process wait its turn instead.
      this.#run(CompiledQuery.raw("begin immediate"));
    } catch (err) {
      this.#release();
      throw err;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#finish(connection, "commit");
    await this.#wal.durable();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#finish(connection, "rollback");
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.execute(connection as GroupCommitConnection, CompiledQuery.raw(`savepoint "${name.replace(/"/g, '""')}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.execute(connection as GroupCommitConnection, CompiledQuery.raw(`rollback to "${name.replace(/"/g, '""')}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.execute(connection as GroupCommitConnection, CompiledQuery.raw(`release "${name.replace(/"/g, '""')}"`));
  }

  async destroy(): Promise<void> {
    while (this.#ownerDone) await this.#ownerDone;
    this.#flush();
    this.#statements.clear();
    this.#db.close();
    await this.#wal.close();
  }

  /** Runs `query` for `conn`: at once inside its transaction or for reads, queued for writes. */
  async execute(conn: GroupCommitConnection, query: CompiledQuery): Promise<QueryResult<Row>> {
    if (this.#owner !== conn) {
      while (this.#ownerDone) await this.#ownerDone;
      if (isSingleWrite(query)) {
        return new Promise((resolve, reject) => {
          this.#queue.push({ query, resolve, reject });
          if (!this.#flushScheduled) {
            this.#flushScheduled = true;
            setImmediate(() => this.#flush());
          }
        });
      }
      // DDL, PRAGMAs and other raw statements run after every write queued before them, and
      // are answered once on disk like the queued writes.
      if (!isRead(query)) {
        this.#flush();
        const result = this.#run(query);
        await this.#wal.durable();
        return result;
      }
    }
    return this.#run(query);
  }

  async #finish(connection: DatabaseConnection, verb: "commit" | "rollback"): Promise<void> {
    if (this.#owner !== connection) throw new Error(`${verb} outside the connection's transaction`);
    try {
      this.#run(CompiledQuery.raw(verb));
    } finally {
      // A failed COMMIT leaves SQLite in the transaction; kysely then asks for a rollback.
      if (verb === "rollback" || !this.#db.inTransaction) this.#release();
    }
  }

  #release(): void {
    this.#owner = null;
    this.#ownerDone = null;
    const end = this.#endOwner;
    this.#endOwner = null;
    end?.();
    if (this.#queue.length > 0 && !this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  #statement(sql: string): SQLite.Statement {
    let stmt = this.#statements.get(sql);
    if (stmt) {
      this.#statements.delete(sql); // re-inserted below: Map order is recency
    } else {
      stmt = this.#db.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
    }
    this.#statements.set(sql, stmt);
    return stmt;
  }

  /** One statement, now (the same results as kysely's SqliteConnection). */
  #run(query: CompiledQuery): QueryResult<Row> {
    const stmt = this.#statement(query.sql);
    const parameters = query.parameters as unknown[];
    if (stmt.reader) return { rows: stmt.all(parameters) as Row[] };
    this.#changes?.noteWrite(query);
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  /** Commits every queued write in one transaction and answers each caller (see the header). */
  #flush(): void {
    this.#flushScheduled = false;
    if (this.#owner || this.#queue.length === 0) return;
    const group = this.#queue;
    this.#queue = [];
    if (group.length === 1) {
      const [w] = group;
      let result: QueryResult<Row>;
      try {
        result = this.#run(w.query);
      } catch (err) {
        w.reject(err);
        return;
      }
      this.#wal.durable().then(() => w.resolve(result), w.reject);
      return;
    }
    const outcomes: ({ ok: true; result: QueryResult<Row> } | { ok: false; error: unknown })[] = [];
    try {
      this.#run(CompiledQuery.raw("begin immediate"));
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    try {
      for (const w of group) {
        this.#run(SAVEPOINT);
        try {
          outcomes.push({ ok: true, result: this.#run(w.query) });
          this.#run(RELEASE);
        } catch (error) {
          outcomes.push({ ok: false, error });
          this.#run(ROLLBACK_TO);
          this.#run(RELEASE);
        }
      }
      this.#run(CompiledQuery.raw("commit"));
    } catch (err) {
      // The COMMIT (or a savepoint step: disk full, I/O error) failed: nothing of the group stays.
      if (this.#db.inTransaction) this.#db.exec("rollback");
      for (const w of group) w.reject(err);
      return;
    }
    // A failed statement was rolled back: its caller hears at once. The others once on disk.
    group.forEach((w, i) => {
      const o = outcomes[i];
      if (!o.ok) w.reject(o.error);
    });
    this.#wal.durable().then(
      () => group.forEach((w, i) => {
        const o = outcomes[i];
        if (o.ok) w.resolve(o.result);
      }),
      (err: unknown) => group.forEach((w, i) => {
        if (outcomes[i].ok) w.reject(err);
      }),
    );
  }
}

const SAVEPOINT = CompiledQuery.raw('savepoint "group_commit"');
const RELEASE = CompiledQuery.raw('release "group_commit"');
const ROLLBACK_TO = CompiledQuery.raw('rollback to "group_commit"');

/** A query built as one INSERT, UPDATE or DELETE (kysely's query node says so). */
function isSingleWrite(query: CompiledQuery): boolean {
  const node = query.query;
  return InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node);
}

/** A SELECT built by kysely, or raw SQL that starts with SELECT (e.g. the health check's `select 1`). */
function isRead(query: CompiledQuery): boolean {
  return query.query.kind === "SelectQueryNode" || /^\s*select\b/i.test(query.sql);
}

/** kysely's SQLite dialect (compiler, adapter, introspector) over the group-commit driver. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly #db: SQLite.Database;
  readonly #sync: ((file: string) => Promise<void>) | undefined;
  readonly #changes: TableChanges | undefined;
  /** `changes`: counts the writes for exact read caches (changes.ts). */
  constructor(db: SQLite.Database, sync?: (file: string) => Promise<void>, changes?: TableChanges) {
    super({ database: db });
    this.#db = db;
    this.#sync = sync;
    this.#changes = changes;
  }
  override createDriver(): Driver {
    return new GroupCommitDriver(this.#db, this.#sync, this.#changes);
  }
}
