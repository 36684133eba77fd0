// Whether any of some tables may have changed since a moment: what a cached read needs to stay
// exact (services/read-cache.ts ExactReadCache). A ChangeStamps answers a stamp for some tables;
// two equal stamps mean none of them changed in between.
//
// SQLite (TableChanges, here), two sources:
// - Writes through this process's connection: the driver (group-commit.ts) counts, per table, the
//   INSERT and UPDATE statements it runs. A DELETE (foreign keys cascade to other tables), raw SQL
//   and DDL count for every table.
// - Writes by any other connection (another API process on the same file, the admin script):
//   SQLite's `PRAGMA data_version` changes whenever another connection has committed.
// PostgreSQL: db/changes-postgres.ts (this process's commits, counted the same way, and every
// process's through LISTEN/NOTIFY).

import type SQLite from "better-sqlite3";
import { AliasNode, type CompiledQuery, InsertQueryNode, type Kysely, type OperationNode, TableNode, UpdateQueryNode } from "kysely";

export interface ChangeStamps {
  /** The state of `tables` now, or null when it cannot be told (the caller reads instead). */
  stamp(tables: readonly string[]): string | null;
}

/** Counts of writes per table; a write to no one table counts for every table. */
export class WriteCounts {
  readonly #counts = new Map<string, number>();
  #everything = 0;

  /** Counts a write statement (see the header for what counts where). */
  noteWrite(query: CompiledQuery): void {
    const table = writtenTable(query.query);
    if (table === null) {
      if (!TRANSACTION_CONTROL.test(query.sql)) this.#everything++;
      return;
    }
    this.noteTable(table);
  }

  noteTable(table: string): void {
    this.#counts.set(table, (this.#counts.get(table) ?? 0) + 1);
  }

  noteEverything(): void {
    this.#everything++;
  }

  /** Counts only grow, so their sum changes whenever one of `tables`' does. */
  sum(tables: readonly string[]): number {
    let n = this.#everything;
    for (const t of tables) n += this.#counts.get(t) ?? 0;
    return n;
  }
}

export class TableChanges implements ChangeStamps {
  readonly #writes = new WriteCounts();
  readonly #dataVersion: SQLite.Statement;

  constructor(sqlite: SQLite.Database) {
    this.#dataVersion = sqlite.prepare("pragma data_version").pluck();
  }

  noteWrite(query: CompiledQuery): void {
    this.#writes.noteWrite(query);
  }

  stamp(tables: readonly string[]): string {
    return `${this.#writes.sum(tables)}:${String(this.#dataVersion.get())}`;
  }
}

/** BEGIN, COMMIT, ROLLBACK, SAVEPOINT and RELEASE change no table by themselves. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;

/** The one table an INSERT or UPDATE writes; null for anything else (counted as every table). */
function writtenTable(node: OperationNode): string | null {
  if (InsertQueryNode.is(node)) return node.into ? tableName(node.into) : null;
  if (UpdateQueryNode.is(node)) return node.table ? tableName(node.table) : null;
  return null; // DELETE (cascades), raw SQL, DDL
}

function tableName(node: OperationNode): string | null {
  if (TableNode.is(node)) return node.table.identifier.name;
  if (AliasNode.is(node) && TableNode.is(node.node)) return node.node.table.identifier.name;
  return null;
}

const trackers = new WeakMap<object, ChangeStamps>();

/** Ties `changes` to the kysely instance over that connection (open.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export function trackTableChanges(db: Kysely<any>, changes: ChangeStamps): void {
  trackers.set(db, changes);
}

/** The changes of `db`'s database; undefined inside a transaction (a different kysely instance). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export function tableChangesOf(db: Kysely<any>): ChangeStamps | undefined {
  return trackers.get(db);
}
