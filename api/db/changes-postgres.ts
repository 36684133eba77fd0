// Whether some tables of the PostgreSQL database may have changed since a moment (db/changes.ts
// ChangeStamps), for the cached reads of services/read-cache.ts (who a session belongs to, what a
// user may do). Several API processes may serve one database, so two sources:
// - This process's own writes, counted by its kysely driver (ChangeCountingDriver below) once they
//   are committed: a statement outside a transaction when it has run, a transaction's statements
//   when its COMMIT has. A process therefore answers its own writes at once (a sign-out, a grant).
// - Every process's commits, through LISTEN/NOTIFY: migration 010 gives each table of
//   CHANGE_NOTIFYING_TABLES a statement trigger that calls pg_notify with the table's name, which
//   PostgreSQL delivers at commit to every listening connection. Each process keeps one connection
//   (not from the pool) listening. Another process's write therefore counts here when its
//   notification arrives: PostgreSQL sends it as the transaction commits, usually before the
//   writer has read its COMMIT's answer (bench/api's change-notice row on one host: p50 0-0.03 ms,
//   p99 0.05-2.1 ms after it).
// While that connection is not listening (not yet started, lost, reconnecting after 1 s, then 2, 4,
// ... up to 30 s while attempts fail; the log says the loss once and the return) stamp() answers null
// and every cached read goes to the database; after a reconnection the epoch changes, so nothing
// cached before the gap is used again.
import { type CompiledQuery, type DatabaseConnection, type Driver, PostgresDialect, type QueryCompiler, SelectQueryNode, type TransactionSettings } from "kysely";
import type { QueryResult } from "kysely";
import pg from "pg";
import { type ChangeStamps, WriteCounts, type WriteReach } from "./changes";
import { CHANGE_NOTIFICATION_CHANNEL, CHANGE_NOTIFYING_TABLES } from "./migrations";

/** How long after a lost listening connection the next attempt starts, doubling while attempts
 *  fail, up to RECONNECT_MAX_MS. */
const RECONNECT_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
/** A listening connection that does not answer a ping within PING_TIMEOUT_MS is taken as lost. */
const PING_EVERY_MS = 10_000;
const PING_TIMEOUT_MS = 5000;

const notifying = new Set<string>(CHANGE_NOTIFYING_TABLES);

export class PostgresTableChanges implements ChangeStamps {
  readonly #writes = new WriteCounts();
  readonly #clientConfig: pg.ClientConfig;
  readonly #onError: (message: string) => void;
  #client: pg.Client | null = null;
  #listening = false;
  #starting = false;
  #closed = false;
  /** Bumped whenever listening starts again: stamps taken before a gap never match after it. */
  #epoch = 0;
  #retry: NodeJS.Timeout | null = null;
  #ping: NodeJS.Timeout | null = null;
  /** Attempts failed since the connection last listened (the log says the first only). */
  #failures = 0;

  constructor(clientConfig: pg.ClientConfig, onError: (message: string) => void = (m) => console.error(m)) {
    this.#clientConfig = clientConfig;
    this.#onError = onError;
  }

  /** Null (read instead) until the listening connection is up, and for tables without the trigger. */
  stamp(tables: readonly string[]): string | null {
    if (!this.#listening) {
      this.#start();
      return null;
    }
    for (const t of tables) if (!notifying.has(t)) return null;
    return `${this.#epoch}:${this.#writes.sum(tables)}`;
  }

  /** Statements this process committed (ChangeCountingDriver). */
  noteCommitted(queries: readonly CompiledQuery[]): void {
    for (const q of queries) this.#writes.noteWrite(q);
  }

  setWriteReach(reach: WriteReach): void {
    this.#writes.setReach(reach);
  }

  /** A commit whose outcome is unknown (the connection failed during COMMIT): anything may have changed. */
  noteUnknown(): void {
    this.#writes.noteEverything();
  }

  /** Whether the listening connection is up (tests wait for it). */
  get listening(): boolean {
    return this.#listening;
  }

  /** The server process of the listening connection (tests end it), while there is one. */
  get backendPid(): number | undefined {
    return (this.#client as (pg.Client & { processID?: number | null }) | null)?.processID ?? undefined;
  }

  /** Starts listening now (stamp() also starts it on first use); resolves when listening or failed. */
  async start(): Promise<void> {
    this.#start();
    while (this.#starting) await new Promise((r) => setTimeout(r, 5));
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    if (this.#ping) clearInterval(this.#ping);
    const client = this.#client;
    this.#down();
    await client?.end().catch(() => {});
  }

  #start(): void {
    if (this.#starting || this.#listening || this.#closed || this.#retry) return;
    this.#starting = true;
    const client = new pg.Client({ ...this.#clientConfig, keepAlive: true, application_name: "studio change listener" });
    this.#client = client;
    client.on("notification", (msg) => {
      if (msg.channel === CHANGE_NOTIFICATION_CHANNEL && msg.payload) this.#writes.noteTable(msg.payload);
    });
    const lost = (reason: string) => {
      if (this.#client !== client) return;
      this.#down();
      if (this.#closed) return;
      if (this.#failures === 0) this.#onError(`PostgreSQL change notifications lost (${reason}): cached sessions and entitlements are read from the database until they are back`);
      const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MS * 2 ** this.#failures);
      this.#failures++;
      client.end().catch(() => {});
      this.#retry = setTimeout(() => {
        this.#retry = null;
        this.#start();
      }, delay);
      this.#retry.unref();
    };
    client.on("error", (err) => lost(err.message));
    client.on("end", () => lost("connection closed"));
    client
      .connect()
      .then(() => client.query(`listen ${CHANGE_NOTIFICATION_CHANNEL}`))
      .then(
        () => {
          if (this.#client !== client || this.#closed) return;
          this.#epoch++;
          this.#listening = true;
          if (this.#failures > 0) this.#onError("PostgreSQL change notifications are back: cached sessions and entitlements are used again");
          this.#failures = 0;
          this.#ping = setInterval(() => this.#checkAlive(client, lost), PING_EVERY_MS);
          this.#ping.unref();
        },
        (err: unknown) => lost(err instanceof Error ? err.message : String(err)),
      )
      .finally(() => (this.#starting = false));
  }

  /** A connection that died without a word (a network partition) would stop the notifications silently. */
  #checkAlive(client: pg.Client, lost: (reason: string) => void): void {
    const timer = setTimeout(() => lost("no answer to a ping"), PING_TIMEOUT_MS);
    timer.unref();
    client.query("select 1").then(
      () => clearTimeout(timer),
      (err: unknown) => {
        clearTimeout(timer);
        lost(err instanceof Error ? err.message : String(err));
      },
    );
  }

  #down(): void {
    this.#listening = false;
    this.#epoch++;
    this.#client = null;
    if (this.#ping) clearInterval(this.#ping);
    this.#ping = null;
  }
}

// ---- this process's commits ----------------------------------------------------------------------

/** SELECTs (kysely's, or raw text starting so) change nothing; everything else may write. The one
 *  raw SELECT that writes, rate_limit_hit(), writes only rate_limit_hits, which nothing caches. */
function mayWrite(query: CompiledQuery): boolean {
  return !SelectQueryNode.is(query.query) && !/^\s*(select|show|explain)\b/i.test(query.sql);
}

class CountingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly #changes: PostgresTableChanges;
  /** The writes of the open transaction, counted when it commits; null outside one. */
  pending: CompiledQuery[] | null = null;

  constructor(inner: DatabaseConnection, changes: PostgresTableChanges) {
    this.inner = inner;
    this.#changes = changes;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    if (mayWrite(query)) {
      if (this.pending) this.pending.push(query);
      else this.#changes.noteCommitted([query]);
    }
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** kysely's PostgresDriver, counting what this process commits (see the header). */
class ChangeCountingDriver implements Driver {
  readonly #inner: Driver;
  readonly #changes: PostgresTableChanges;

  constructor(inner: Driver, changes: PostgresTableChanges) {
    this.#inner = inner;
    this.#changes = changes;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new CountingConnection(await this.#inner.acquireConnection(), this.#changes);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const conn = connection as CountingConnection;
    await this.#inner.beginTransaction(conn.inner, settings);
    conn.pending = [];
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as CountingConnection;
    const writes = conn.pending ?? [];
    conn.pending = null;
    try {
      await this.#inner.commitTransaction(conn.inner);
    } catch (err) {
      if (writes.length > 0) this.#changes.noteUnknown();
      throw err;
    }
    this.#changes.noteCommitted(writes);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as CountingConnection;
    conn.pending = null;
    await this.#inner.rollbackTransaction(conn.inner);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    await this.#inner.savepoint!((connection as CountingConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    await this.#inner.rollbackToSavepoint!((connection as CountingConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    await this.#inner.releaseSavepoint!((connection as CountingConnection).inner, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const conn = connection as CountingConnection;
    if (conn.pending && conn.pending.length > 0) this.#changes.noteUnknown(); // never committed nor rolled back
    await this.#inner.releaseConnection(conn.inner);
  }

  async destroy(): Promise<void> {
    await this.#changes.close();
    await this.#inner.destroy();
  }
}

/** kysely's PostgreSQL dialect whose driver counts this process's commits into `changes`. */
export class ChangeCountingPostgresDialect extends PostgresDialect {
  readonly #changes: PostgresTableChanges;

  constructor(config: ConstructorParameters<typeof PostgresDialect>[0], changes: PostgresTableChanges) {
    super(config);
    this.#changes = changes;
  }

  override createDriver(): Driver {
    return new ChangeCountingDriver(super.createDriver(), this.#changes);
  }
}
