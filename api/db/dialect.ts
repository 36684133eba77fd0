// Which database the API runs on, told from a DATABASE_URL or from an open kysely instance, and
// the URL made safe to print. Kept apart from open.ts so migrations and services can ask without
// importing the drivers.
import { type Kysely, PostgresAdapter } from "kysely";

export type Dialect = "sqlite" | "postgres";

/** True for the URLs that select PostgreSQL (postgres:// or postgresql://). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url.trim());
}

/** The URL with its password replaced, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable database URL)";
  }
}

/** Which dialect `db` speaks. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
