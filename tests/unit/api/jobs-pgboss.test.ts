// The pg-boss job queue (api/services/jobs-pgboss.ts) on a real PostgreSQL (local-postgres.ts):
// singleton keys, retries ending with the last error, progress and results, and stop() putting a
// running job back; cancel through pg-boss's own cancel (queued, running: aborted in the queue that
// runs it within a cancel poll) and of a completed job, in the job table or after pg-boss's own
// maintenance moved it to the archive. Skipped, saying why, when there is no
// PostgreSQL to start or use.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CANCEL_POLL_MS, JobCancelledError } from "../../../api/services/jobs";
import { PgBossJobQueue } from "../../../api/services/jobs-pgboss";
import { type LocalPostgres, localPostgres } from "./local-postgres";

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
  it("queues a singleton key once while it is queued, in one process or two", async (ctx) => {
    if (!server) return ctx.skip();
    const a = queue();
    const b = queue();
    const first = await a.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" });
    expect(await b.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" })).toBe(first);
    expect(await a.enqueue("marketplace-seed", { key: "j" }, { singletonKey: "j" })).not.toBe(first);
    expect((await b.get("marketplace-seed", first))?.state).toBe("queued");
  });

  it("runs a job once, with its progress while running and its result after, seen from another queue", async (ctx) => {
    if (!server) return ctx.skip();
    const a = queue();
    const observer = queue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    a.work<{ n: number }, { doubled: number }>("video-export", 1, async ({ data, progress }) => {
      runs++;
      progress(0.5);
      await gate;
      return { doubled: data.n * 2 };
    });
    const id = await a.enqueue("video-export", { n: 21 });
    await a.start();
    await until(async () => (await observer.get("video-export", id))?.progress === 0.5);
    expect((await observer.get("video-export", id))?.state).toBe("active");
    release();
    const done = await until(async () => {
      const j = await observer.get<{ n: number }, { doubled: number }>("video-export", id);
      return j?.state === "completed" ? j : null;
    });
    expect(done).toMatchObject({ progress: 1, result: { doubled: 42 }, data: { n: 21 }, error: null });
    expect(runs).toBe(1);
  });

  it("retries a failing job and fails it with the last attempt's error", async (ctx) => {
    if (!server) return ctx.skip();
    const a = queue();
    let n = 0;
    a.work("video-export", 1, async () => {
      n++;
      throw new Error(`encoder broke on try ${n}`);
    });
    const id = await a.enqueue("video-export", {});
    await a.start();
    const job = await until(async () => {
      const j = await a.get("video-export", id);
      return j?.state === "failed" ? j : null;
    });
    expect(n).toBe(3);
    expect(job.error).toBe("encoder broke on try 3");
  });

  it("stop() aborts a running job and puts it back for another process", async (ctx) => {
    if (!server) return ctx.skip();
    const a = queue();
    a.work("video-export", 1, ({ signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))));
    const id = await a.enqueue("video-export", {});
    await a.start();
    await until(async () => (await a.get("video-export", id))?.state === "active");
    await a.stop();
    const b = queue();
    const attempts: number[] = [];
    b.work("video-export", 1, async ({ attempt }) => {
      attempts.push(attempt);
      return "done";
    });
    await b.start();
    await until(async () => (await b.get("video-export", id))?.state === "completed");
    expect(attempts).toEqual([1]);
    expect((await b.get("video-export", id))?.result).toBe("done");
  });

  it("answers null for an unknown id", async (ctx) => {
    if (!server) return ctx.skip();
    expect(await queue().get("video-export", "00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  it("cancel: a running job is aborted in the queue that runs it, a queued one never runs, a completed one answers its result", async (ctx) => {
    if (!server) return ctx.skip();
    const a = queue();
    const b = queue();
    const seen: { at: number; reason: unknown }[] = [];
    const ran: string[] = [];
    a.work<{ hold?: boolean }, { key: string }>("video-export", 1, ({ id, data, signal }) => {
      ran.push(id);
      if (!data.hold) return Promise.resolve({ key: `k-${id}` });
      return new Promise((_, reject) =>
        signal.addEventListener("abort", () => {
          seen.push({ at: Date.now(), reason: signal.reason });
          reject(signal.reason as Error);
        }),
      );
    });
    const running = await a.enqueue("video-export", { hold: true });
    await a.start();
    await until(async () => (await b.get("video-export", running))?.state === "active");
    const asked = Date.now();
    expect(await b.cancel("video-export", running)).toEqual({ cancelled: true, result: null });
    await until(async () => seen.length === 1, 3000);
    expect(seen[0].at - asked).toBeLessThan(CANCEL_POLL_MS * 2 + 300);
    expect(seen[0].reason).toBeInstanceOf(JobCancelledError);
    expect((await b.get("video-export", running))?.state).toBe("cancelled");

    await a.stop();
    const queued = await b.enqueue("video-export", {});
    expect(await b.cancel("video-export", queued)).toEqual({ cancelled: true, result: null });
    const done = await b.enqueue("video-export", {});
    const c = queue();
    c.work<unknown, { key: string }>("video-export", 1, async ({ id }) => {
      ran.push(id);
      return { key: `k-${id}` };
    });
    await c.start();
    await until(async () => (await c.get("video-export", done))?.state === "completed");
    expect(ran).toEqual([running, done]);
    expect(await b.cancel("video-export", done)).toEqual({ cancelled: true, result: { key: `k-${done}` } });
    expect(await b.cancel("video-export", done)).toEqual({ cancelled: false, result: null });
    expect((await b.get("video-export", done))?.state).toBe("cancelled");
    expect(await b.cancel("video-export", "00000000-0000-4000-8000-000000000000")).toBeNull();
  });

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
