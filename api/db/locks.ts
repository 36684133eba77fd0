// One process at a time: work that must run once across every API process serving a database
// (the marketplace's first-start seeding) runs under a PostgreSQL advisory lock held by a dedicated
// connection for the work's duration; a process that finds the lock taken waits, then sees the work
// done. SQLite is served by one process, so there the work simply runs.
import { type Kysely, sql } from "kysely";
import { dialectOf } from "./dialect";
import type { Database } from "./schema";

export async function withExclusiveLock<T>(db: Kysely<Database>, name: string, work: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== "postgres") return work();
  return db.connection().execute(async (conn) => {
    const lock = sql`hashtext(${`tone-studio:${name}`})`;
    await sql`select pg_advisory_lock(${lock})`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${lock})`.execute(conn);
    }
  });
}
