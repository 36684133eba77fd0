// Whether any of some tables may have changed since a moment: what a cached read needs to stay
// exact (services/read-cache.ts ExactReadCache). A ChangeStamps answers a stamp for some tables;
// two equal stamps mean none of them changed in between.
//
// SQLite (TableChanges, here), two sources:
// - Writes through this process's connection: the driver (group-commit.ts) counts, per table, the
//   INSERT, UPDATE and DELETE statements it runs. A DELETE or UPDATE counts for its table and for
//   every table its foreign keys reach (WriteReach: a key with ON DELETE CASCADE / SET NULL / SET
//   DEFAULT changes the referring rows, and so on down), read from the database once it is
//   migrated (loadWriteReach). Until then, for a table not in it, and for raw SQL, DDL and
//   statements with a WITH clause (which may write elsewhere), a write counts for every table.
// - Writes by any other connection (another API process on the same file, the admin script):
//   SQLite's `PRAGMA data_version` changes whenever another connection has committed.
// PostgreSQL: db/changes-postgres.ts (this process's commits, counted the same way, and every
// process's through LISTEN/NOTIFY).

import type SQLite from "better-sqlite3";
import { AliasNode, type CompiledQuery, DeleteQueryNode, InsertQueryNode, type Kysely, type OperationNode, sql, TableNode, UpdateQueryNode } from "kysely";
import { dialectOf } from "./dialect";

export interface ChangeStamps {
  /** The state of `tables` now, or null when it cannot be told (the caller reads instead). */
  stamp(tables: readonly string[]): string | null;
  /** The tables each table's deletes and updates reach (loadWriteReach, once migrated). */
  setWriteReach(reach: WriteReach): void;
}

/** A foreign key: rows of `table` refer to rows of `references`. `onDelete`/`onUpdate`: whether
 *  deleting a referenced row, or changing its key, changes the referring rows (CASCADE, SET NULL,
 *  SET DEFAULT) rather than being refused (NO ACTION, RESTRICT). */
export interface ForeignKey {
  table: string;
  references: string;
  onDelete: boolean;
  onUpdate: boolean;
}

/** For each table of the database, the tables a DELETE or an UPDATE of its rows may change: itself
 *  and, through foreign keys that change the referring rows, those tables' in turn. */
export class WriteReach {
  readonly #delete = new Map<string, readonly string[]>();
  readonly #update = new Map<string, readonly string[]>();

  constructor(tables: readonly string[], keys: readonly ForeignKey[]) {
    for (const [map, acts] of [
      [this.#delete, (k: ForeignKey) => k.onDelete],
      [this.#update, (k: ForeignKey) => k.onUpdate],
    ] as const) {
      for (const table of tables) {
        // Rows set to NULL or a default are updated, and an update may act on further keys:
        // following every acting key from each reached table covers both.
        const reached = new Set([table]);
        const todo = [table];
        while (todo.length > 0) {
          const t = todo.pop()!;
          for (const k of keys) {
            if (k.references === t && (acts(k) || (t !== table && k.onUpdate)) && !reached.has(k.table)) {
              reached.add(k.table);
              todo.push(k.table);
            }
          }
        }
        map.set(table, [...reached]);
      }
    }
  }

  /** The tables a `kind` statement on `table` may change; null for a table the database did not have. */
  of(kind: "delete" | "update", table: string): readonly string[] | null {
    return (kind === "delete" ? this.#delete : this.#update).get(table) ?? null;
  }
}

/** Counts of writes per table; a write to no one table counts for every table. */
export class WriteCounts {
  readonly #counts = new Map<string, number>();
  #everything = 0;
  #reach: WriteReach | null = null;

  setReach(reach: WriteReach): void {
    this.#reach = reach;
  }

  /** Counts a write statement (see the header for what counts where). */
  noteWrite(query: CompiledQuery): void {
    const written = writtenTable(query.query);
    if (written === null) {
      if (!TRANSACTION_CONTROL.test(query.sql)) this.#everything++;
      return;
    }
    if (written.kind === "insert") return this.noteTable(written.table);
    const reached = this.#reach?.of(written.kind, written.table);
    if (!reached) return this.noteEverything();
    for (const t of reached) this.noteTable(t);
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

  setWriteReach(reach: WriteReach): void {
    this.#writes.setReach(reach);
  }

  stamp(tables: readonly string[]): string {
    return `${this.#writes.sum(tables)}:${String(this.#dataVersion.get())}`;
  }
}

/** BEGIN, COMMIT, ROLLBACK, SAVEPOINT and RELEASE change no table by themselves. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;

/** The one table an INSERT, UPDATE or DELETE writes, and how (an upsert that updates counts as
 *  an update); null for anything else (counted as every table). */
function writtenTable(node: OperationNode): { kind: "insert" | "update" | "delete"; table: string } | null {
  const of = (kind: "insert" | "update" | "delete", target: OperationNode | undefined) => {
    const table = target ? tableName(target) : null;
    return table === null ? null : { kind, table };
  };
  if (InsertQueryNode.is(node)) return node.with ? null : of(node.onConflict?.updates || node.onDuplicateKey ? "update" : "insert", node.into);
  if (UpdateQueryNode.is(node)) return node.with || node.from || node.joins ? null : of("update", node.table);
  if (DeleteQueryNode.is(node)) return node.with || node.using || node.joins || node.from.froms.length !== 1 ? null : of("delete", node.from.froms[0]);
  return null; // raw SQL, DDL
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

/** Reads the tables and foreign keys of `db`'s database (after its migrations) into its change
 *  stamps' WriteReach, so a DELETE counts for the tables it can reach rather than every table. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export async function loadWriteReach(db: Kysely<any>): Promise<void> {
  const changes = tableChangesOf(db);
  if (!changes) return;
  let tables: { name: string }[];
  let keys: { table: string; references: string; on_delete: string; on_update: string }[];
  if (dialectOf(db) === "postgres") {
    tables = (await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p')`.execute(db)).rows;
    // confdeltype/confupdtype: a no action, r restrict, c cascade, n set null, d set default.
    keys = (await sql<(typeof keys)[number]>`select t.relname as "table", r.relname as "references", k.confdeltype as on_delete, k.confupdtype as on_update
      from pg_constraint k join pg_class t on t.oid = k.conrelid join pg_class r on r.oid = k.confrelid
      join pg_namespace tn on tn.oid = t.relnamespace join pg_namespace rn on rn.oid = r.relnamespace
      where k.contype = 'f' and tn.nspname = current_schema() and rn.nspname = current_schema()`.execute(db)).rows;
  } else {
    tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows;
    keys = (await sql<(typeof keys)[number]>`select m.name as "table", f."table" as "references", f.on_delete, f.on_update
      from sqlite_master m join pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db)).rows;
  }
  const acts = (action: string) => /^(c|n|d|cascade|set null|set default)$/i.test(action);
  changes.setWriteReach(
    new WriteReach(
      tables.map((t) => t.name),
      keys.map((k) => ({ table: k.table, references: k.references, onDelete: acts(k.on_delete), onUpdate: acts(k.on_update) })),
    ),
  );
}
