// A kysely driver for better-sqlite3 with group commit and prepared-statement reuse: the SQLite
// dialect of api/db/open.ts, with the same answers as kysely's own SqliteDriver.
//
// Why: with synchronous=FULL every commit waits for an fsync of the WAL (about 1.3 ms on the
// development machine, blocking the event loop), which capped the API near 700 writes a second.
// Here single INSERT/UPDATE/DELETE statements issued outside a transaction are queued and, once
// per turn of the event loop (setImmediate), run together inside one BEGIN IMMEDIATE ... COMMIT:
// one fsync for the whole group. Each statement runs inside its own SAVEPOINT, so a statement that
// fails (a unique violation) is rolled back alone and only its caller sees the error. Every caller
// is answered only after the COMMIT returned, so a write answered 2xx is as durable as before; if
// the COMMIT fails, every statement of the group fails with that error.
//
// Order and isolation are those of one connection used in turn: queued writes run in the order
// they were issued; a read runs at once and sees every write whose caller has been answered (a
// caller waits for its own write before its next query). An explicit transaction
// (db.transaction()) owns the connection from BEGIN to COMMIT/ROLLBACK: queued writes are flushed
// before it begins, and every other query waits until it ends, as with kysely's connection mutex.
//
// Statements are prepared once per SQL text (kysely compiles the same text for the same query
// shape) and kept in a small LRU map.
import type SQLite from "better-sqlite3";
import {
  CompiledQuery, DeleteQueryNode, type DatabaseConnection, type Driver, InsertQueryNode, type QueryResult, SqliteDialect,
  type TransactionSettings, UpdateQueryNode,
} from "kysely";

/** Statements kept prepared; kysely's queries here have a few hundred distinct shapes. */
const STATEMENT_CACHE_SIZE = 500;

type Row = Record<string, unknown>;

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
  readonly #statements = new Map<string, SQLite.Statement>();
  #queue: QueuedWrite[] = [];
  #flushScheduled = false;
  /** The connection inside an explicit transaction, and a promise that settles when it ends. */
  #owner: GroupCommitConnection | null = null;
  #ownerDone: Promise<void> | null = null;
  #endOwner: (() => void) | null = null;

  constructor(db: SQLite.Database) {
    this.#db = db;
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
      this.#run(CompiledQuery.raw("begin"));
    } catch (err) {
      this.#release();
      throw err;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#finish(connection, "commit");
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
      // DDL, PRAGMAs and other raw statements run after every write queued before them.
      if (!isRead(query)) this.#flush();
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
      try {
        w.resolve(this.#run(w.query));
      } catch (err) {
        w.reject(err);
      }
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
    group.forEach((w, i) => {
      const o = outcomes[i];
      if (o.ok) w.resolve(o.result);
      else w.reject(o.error);
    });
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
  constructor(db: SQLite.Database) {
    super({ database: db });
    this.#db = db;
  }
  override createDriver(): Driver {
    return new GroupCommitDriver(this.#db);
  }
}
