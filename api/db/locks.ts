// One at a time: work that must not overlap with itself, in this process and across every API
// process serving a database. Within a process, a queue per name (so a burst of requests waits
// here, not on database connections); on PostgreSQL, then, an advisory lock held by a dedicated
// connection for the work's duration, so that other processes wait too. SQLite is served by one
// process, so there the in-process queue is the whole lock. Used for the marketplace's first-start
// seeding and for admitting video jobs into their bounded queue (count, then enqueue).
import { type Kysely, sql } from "kysely";
import { dialectOf } from "./dialect";
import type { Database } from "./schema";

/** The tail of each name's queue in this process. */
const tails = new Map<string, Promise<unknown>>();

async function inTurn<T>(name: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(name) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  tails.set(name, tail);
  await before;
  try {
    return await work();
  } finally {
    done();
    if (tails.get(name) === tail) tails.delete(name);
  }
}

export async function withExclusiveLock<T>(db: Kysely<Database>, name: string, work: () => Promise<T>): Promise<T> {
  return inTurn(name, () => {
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
  });
}
