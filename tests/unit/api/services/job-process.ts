// One "API process" for the multi-process job tests (jobs-processes.test.ts): opens the app's
// database (SQLite file JOB_DB, or PostgreSQL JOB_PG_URL through pg-boss), queues ENQUEUE jobs,
// and works 'video-export' jobs with a stand-in handler that logs "start|done <pid> <id>" to
// JOB_LOG and waits JOB_MS. Prints "ready" once its queue has started.
import { appendFileSync } from "node:fs";
import { openSqlite } from "../../../../api/db/open";
import type { JobQueue } from "../../../../api/services/jobs";
import { PgBossJobQueue } from "../../../../api/services/jobs-pgboss";
import { SqliteJobQueue } from "../../../../api/services/jobs-sqlite";

const env = process.env;
const leaseMs = Number(env.LEASE_MS ?? 1500);
const log = { error: (m: string, d?: Record<string, unknown>) => console.error(m, JSON.stringify(d ?? {})) };
const db = env.JOB_DB ? await openSqlite(env.JOB_DB) : null;
const queue: JobQueue = db
  ? new SqliteJobQueue(db, { leaseMs, pollMs: 50, log })
  : new PgBossJobQueue({ connectionString: env.JOB_PG_URL!, leaseMs, pollMs: 500, log });

queue.work<{ n: number }, { pid: number }>("video-export", 2, async ({ id, signal }) => {
  appendFileSync(env.JOB_LOG!, `start ${process.pid} ${id}\n`);
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, Number(env.JOB_MS ?? 50));
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });
  appendFileSync(env.JOB_LOG!, `done ${process.pid} ${id}\n`);
  return { pid: process.pid };
});
await queue.start();
const ids: string[] = [];
for (let i = 0; i < Number(env.ENQUEUE ?? 0); i++) ids.push(await queue.enqueue("video-export", { n: i }));
console.log(`ready ${JSON.stringify(ids)}`);

process.on("SIGTERM", () => {
  void queue.stop().then(async () => {
    await db?.destroy();
    process.exit(0);
  });
});
