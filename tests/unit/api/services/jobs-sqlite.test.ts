// The SQLite job queue (api/services/jobs-sqlite.ts), what only it has: a job whose worker died
// (a row left active with an expired lease) is taken again, and fails once its attempts are used;
// a finished, cancelled or stopped job's row is held by no worker; migration 008 (which allows
// 'cancelled') keeps the jobs made before it. What every queue promises (claims, singleton keys,
// retries, leases, stop(), cancel) is services/jobs.contract.test.ts, run on this queue too.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database_ from "better-sqlite3";
import { Kysely, type Migration, Migrator, SqliteDialect, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqlite } from "../../../../api/db/open";
import { migrations } from "../../../../api/db/migrations";
import type { Database } from "../../../../api/db/schema";
import { LEASE_EXPIRED_ERROR } from "../../../../api/services/jobs";
import { SqliteJobQueue } from "../../../../api/services/jobs-sqlite";

let dir: string;
let dbs: Kysely<Database>[];
let queues: SqliteJobQueue[];
const errors: string[] = [];
const log = { error: (m: string, d?: Record<string, unknown>) => errors.push(`${m} ${JSON.stringify(d ?? {})}`) };

async function connect(): Promise<Kysely<Database>> {
  const db = await openSqlite(join(dir, "studio.db"));
  dbs.push(db);
  return db;
}

async function queue(options: ConstructorParameters<typeof SqliteJobQueue>[1] = {}): Promise<SqliteJobQueue> {
  const q = new SqliteJobQueue(await connect(), { pollMs: 20, leaseMs: 600, log, ...options });
  queues.push(q);
  return q;
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "jobs-test-"));
  dbs = [];
  queues = [];
  errors.length = 0;
});
afterEach(async () => {
  for (const q of queues) await q.stop();
  for (const db of dbs) await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("SQLite job queue", () => {
  it("a job whose worker died is run again after its lease, and fails once its attempts are used", async () => {
    const db = await connect();
    const a = await queue();
    const now = Date.now();
    const row = (id: string, attempts: number) => ({
      id, name: "video-export", data: "{}", state: "active", singleton_key: null, attempts, max_attempts: 2,
      run_after: new Date(now - 60_000).toISOString(), lease_until: new Date(now - 1).toISOString(), worker: "dead-process",
      progress: 0.4, result: null, error: null, created_at: new Date(now - 60_000).toISOString(), updated_at: new Date(now).toISOString(),
    });
    // Held by a live worker: lease in the future, must not be taken.
    await db.insertInto("jobs").values([row("retry-me", 1), row("used-up", 2), { ...row("held", 1), lease_until: new Date(now + 60_000).toISOString() }]).execute();
    const ran: string[] = [];
    a.work("video-export", 1, async ({ id, attempt }) => {
      ran.push(`${id}#${attempt}`);
      return null;
    });
    await a.start();
    await until(async () => (await a.get("video-export", "used-up"))?.state === "failed" && (await a.get("video-export", "retry-me"))?.state === "completed");
    expect(ran).toEqual(["retry-me#2"]);
    expect((await a.get("video-export", "used-up"))?.error).toBe(LEASE_EXPIRED_ERROR);
    await new Promise((r) => setTimeout(r, 100));
    expect((await a.get("video-export", "held"))?.state).toBe("active");
  });

  it("a row is held by no worker once its job completed, failed, was cancelled or was put back by stop()", async () => {
    // What the columns hold (attempts, worker, lease): the contract suite sees the same jobs only
    // through the interface.
    const a = await queue({ leaseMs: 30_000, definitions: { "video-export": { retryLimit: 2, retryDelaySeconds: 0 } } });
    const b = await queue();
    a.work<{ kind: string }, unknown>("video-export", 4, ({ data, signal }) => {
      if (data.kind === "done") return Promise.resolve({ ok: true });
      if (data.kind === "fail") return Promise.reject(new Error("broke"));
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
    });
    const ids = {
      done: await a.enqueue("video-export", { kind: "done" }),
      failed: await a.enqueue("video-export", { kind: "fail" }),
      cancelled: await a.enqueue("video-export", { kind: "hold" }),
      stopped: await a.enqueue("video-export", { kind: "hold" }),
    };
    await a.start();
    const state = async (id: string) => (await a.get("video-export", id))?.state;
    await until(async () =>
      (await state(ids.done)) === "completed" && (await state(ids.failed)) === "failed" &&
      (await state(ids.cancelled)) === "active" && (await state(ids.stopped)) === "active");
    await b.cancel("video-export", ids.cancelled);
    await a.stop();
    const rows = await dbs[0].selectFrom("jobs").select(["id", "state", "attempts", "worker", "lease_until", "progress", "result", "error"]).execute();
    const row = (id: string) => rows.find((r) => r.id === id);
    expect(row(ids.done)).toMatchObject({ state: "completed", attempts: 1, worker: null, lease_until: null, progress: 1, result: '{"ok":true}', error: null });
    expect(row(ids.failed)).toMatchObject({ state: "failed", attempts: 3, worker: null, lease_until: null, result: null, error: "broke" });
    expect(row(ids.cancelled)).toMatchObject({ state: "cancelled", attempts: 1, worker: null, lease_until: null, result: null, error: null });
    expect(row(ids.stopped)).toMatchObject({ state: "queued", attempts: 0, worker: null, lease_until: null });
    expect(errors).toEqual([]);
  });

  it("migration 008 keeps the jobs made before it, their indexes, and allows 'cancelled' only then", async () => {
    const file = join(dir, "old.db");
    const old = new Kysely<Database>({ dialect: new SqliteDialect({ database: new Database_(file) }) });
    dbs.push(old);
    const upTo = (last: string): Migrator => {
      const names = Object.keys(migrations);
      const some = Object.fromEntries(names.slice(0, names.indexOf(last) + 1).map((n) => [n, migrations[n]])) as Record<string, Migration>;
      return new Migrator({ db: old, provider: { getMigrations: async () => some } });
    };
    expect((await upTo("007_jobs").migrateToLatest()).error).toBeUndefined();
    const row = { id: "j1", name: "video-export", data: "{}", state: "completed", singleton_key: "k", attempts: 1, max_attempts: 2, run_after: "t", progress: 1, result: '{"key":"x"}', created_at: "t", updated_at: "t" };
    await old.insertInto("jobs").values(row).execute();
    await expect(old.updateTable("jobs").set({ state: "cancelled" }).execute()).rejects.toThrow(/CHECK/);
    expect((await upTo("008_job_cancel").migrateToLatest()).error).toBeUndefined();
    expect(await old.selectFrom("jobs").selectAll().execute()).toEqual([{ ...row, lease_until: null, worker: null, error: null }]);
    await old.updateTable("jobs").set({ state: "cancelled" }).execute();
    await expect(old.updateTable("jobs").set({ state: "paused" }).execute()).rejects.toThrow(/CHECK/);
    const { rows } = await sql<{ name: string }>`select name from sqlite_master
      where tbl_name = 'jobs' and type = 'index' and name not like 'sqlite_%' order by name`.execute(old);
    expect(rows.map((r) => r.name)).toEqual(["jobs_next", "jobs_singleton"]);
  });
});
