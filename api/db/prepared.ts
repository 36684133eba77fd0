// Hot queries that kysely builds and compiles once per dialect: each call then only binds its
// values into the compiled SQL, instead of building the query tree and compiling it again (that
// building and compiling was about 12 % of a signed-in write's CPU time under load). For the few
// queries every signed-in request runs (the session, the entitlement sources) and the preset insert.
//
//   const userById = preparedQuery((db, arg: (name: "id") => string) =>
//     db.selectFrom("users").selectAll().where("id", "=", arg("id")));
//   const { rows } = await userById(db, { id });
//
// `arg(name)` stands for a value (text; a number or an array in raw SQL) given at each call. It must reach the SQL as a bound parameter
// (a comparison, a value in `values()`, a limit), never as literal text: the first compile checks
// that every argument became a parameter and throws otherwise. Everything else in the builder
// (constants such as a status or a limit) is kept from that compile.
//
// On PostgreSQL the compiled SQL is also a server-side prepared statement (serverStatementName,
// used by open.ts's pool): each connection parses it once and the server keeps its plan, instead
// of parsing and planning it for every request. That planning was most of the server's work for the
// session and entitlement reads (220 and 390 us of PostgreSQL CPU each, against 33 us for a bare
// `select 1`).
import { createHash } from "node:crypto";
import { type Compilable, type CompiledQuery, type Kysely, type QueryResult, type RawBuilder } from "kysely";
import { type Dialect, dialectOf } from "./dialect";
import type { Database } from "./schema";

/** A value no caller sends: a NUL is refused at every boundary (rules/text-input.ts). */
const MARK = "\u0000prepared-arg:";

type Slot = { arg: string } | { value: unknown };

interface Compiled {
  query: CompiledQuery;
  slots: Slot[];
}

/** A value for an argument: text, a number, or (PostgreSQL) an array of them. */
export type ArgValue = string | number | readonly (string | number)[];

/** Runs the query with these values for its arguments. */
export type PreparedQuery<Name extends string, Row> = (db: Kysely<Database>, args: Readonly<Record<Name, ArgValue>>) => Promise<QueryResult<Row>>;

/** `build` makes the query (a builder, or raw `sql`) once per dialect; `arg(name)` stands for `args[name]`. */
export function preparedQuery<Name extends string, Row>(
  build: (db: Kysely<Database>, arg: (name: Name) => string) => Compilable<Row> | RawBuilder<Row>,
): PreparedQuery<Name, Row> {
  const byDialect = new Map<Dialect, Compiled>();
  const compile = (db: Kysely<Database>): Compiled => {
    const names = new Set<string>();
    const built = build(db, (name) => {
      names.add(name);
      return `${MARK}${name}`;
    });
    const query = "isRawBuilder" in built ? built.compile(db) : built.compile();
    const slots: Slot[] = query.parameters.map((p) => (typeof p === "string" && p.startsWith(MARK) ? { arg: p.slice(MARK.length) } : { value: p }));
    const bound = new Set(slots.flatMap((s) => ("arg" in s ? [s.arg] : [])));
    const unbound = [...names].filter((n) => !bound.has(n));
    if (query.sql.includes(MARK) || unbound.length > 0) {
      throw new Error(`preparedQuery: ${unbound.join(", ") || "an argument"} is not a bound parameter of ${query.sql}`);
    }
    if (dialectOf(db) === "postgres") serverStatements.set(query.sql, statementName(query.sql));
    return { query, slots };
  };
  return async (db, args) => {
    const dialect = dialectOf(db);
    let compiled = byDialect.get(dialect);
    if (!compiled) byDialect.set(dialect, (compiled = compile(db)));
    const parameters = compiled.slots.map((s) => ("arg" in s ? args[s.arg as Name] : s.value));
    return db.executeQuery<Row>({ ...compiled.query, parameters } as CompiledQuery<Row>);
  };
}

/** PostgreSQL statement names of the prepared queries' SQL (a few dozen texts, fixed by the code). */
const serverStatements = new Map<string, string>();

/** Named after the text's hash: one name never stands for two texts on a connection. */
function statementName(sqlText: string): string {
  return `studio_${createHash("sha256").update(sqlText).digest("base64url").slice(0, 24)}`;
}

/** The server-side statement name for `sqlText` when it is a prepared query's, else undefined. */
export function serverStatementName(sqlText: string): string | undefined {
  return serverStatements.get(sqlText);
}
