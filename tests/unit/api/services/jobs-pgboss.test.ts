// The pg-boss job queue (api/services/jobs-pgboss.ts) on a real PostgreSQL (local-postgres.ts),
// what only it has: a completed job that pg-boss's own maintenance moved to its archive is still
// read and cancelled there. What every queue promises (singleton keys, retries, progress and
// results, stop(), cancel) is services/jobs.contract.test.ts, run on this queue too. Skipped,
// saying why, when there is no PostgreSQL to start or use.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PgBossJobQueue } from "../../../../api/services/jobs-pgboss";
import { type LocalPostgres, localPostgres } from "../local-postgres";

let server: LocalPostgres | null = null;
let skip = "";
const queues: PgBossJobQueue[] = [];
const errors: string[] = [];

beforeAll(async () => {
  const r = await localPostgres();
  if (typeof r === "string") {
    skip = r;
    console.log(`pg-boss job tests skipped: ${skip}`);
  } else server = r;
}, 60_000);
afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop();
});
afterAll(async () => server?.stop());

function queue(): PgBossJobQueue {
  const q = new PgBossJobQueue({
    connectionString: server!.url,
    leaseMs: 2000,
    pollMs: 500,
    log: { error: (m, d) => errors.push(`${m} ${JSON.stringify(d)}`) },
    definitions: { "video-export": { retryLimit: 2, retryDelaySeconds: 0 } },
  });
  queues.push(q);
  return q;
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("pg-boss job queue", () => {
  it("cancel: a completed job that pg-boss's maintenance archived answers its result and reads as cancelled", async (ctx) => {
    if (!server) return ctx.skip();
    const a = queue();
    a.work<unknown, { key: string }>("video-export", 1, async ({ id }) => ({ key: `k-${id}` }));
    const done = await a.enqueue("video-export", {});
    await a.start();
    await until(async () => (await a.get("video-export", done))?.state === "completed");
    const sql = new pg.Client({ connectionString: server.url });
    await sql.connect();
    try {
      // Completed long ago: the next maintenance (every second here) archives it.
      await sql.query("update pgboss.job set completed_on = now() - interval '2 days' where id = $1", [done]);
      await until(async () => (await sql.query("select 1 from pgboss.archive where id = $1", [done])).rowCount === 1);
      expect((await sql.query("select 1 from pgboss.job where id = $1", [done])).rowCount).toBe(0);
      expect(await a.get("video-export", done)).toMatchObject({ state: "completed", result: { key: `k-${done}` } });
      expect(await a.cancel("video-export", done)).toEqual({ cancelled: true, result: { key: `k-${done}` } });
      expect(await a.cancel("video-export", done)).toEqual({ cancelled: false, result: null });
      expect(await a.get("video-export", done)).toMatchObject({ state: "cancelled", progress: 1, result: null });
      expect((await sql.query("select state from pgboss.archive where id = $1", [done])).rows).toEqual([{ state: "cancelled" }]);
    } finally {
      await sql.end();
    }
  });
});
