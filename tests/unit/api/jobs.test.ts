// The SQLite job queue (api/services/jobs-sqlite.ts): claims are atomic across connections, a
// singleton key queues a job once, failures retry and end with the last error, a job whose worker
// died is taken again after its lease, and stop() puts a running job back without using an attempt;
// cancel() keeps a queued job from running, aborts a running one in whichever queue runs it, marks a
// completed one (answering its result) and discards a result that came too late; migration 008
// (which allows 'cancelled') keeps the jobs made before it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database_ from "better-sqlite3";
import { Kysely, type Migration, Migrator, SqliteDialect, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqlite } from "../../../api/db/open";
import { migrations } from "../../../api/db/migrations";
import type { Database } from "../../../api/db/schema";
import { CANCEL_POLL_MS, JobCancelledError, LEASE_EXPIRED_ERROR } from "../../../api/services/jobs";
import { SqliteJobQueue } from "../../../api/services/jobs-sqlite";

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
  it("runs every job exactly once with two queues on separate connections claiming at once", async () => {
    const a = await queue();
    const b = await queue();
    const runs: string[] = [];
    const handler = async ({ id }: { id: string }) => {
      runs.push(id);
      await new Promise((r) => setTimeout(r, 2));
      return { ok: true };
    };
    a.work("video-export", 3, handler);
    b.work("video-export", 3, handler);
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => a.enqueue("video-export", { i })));
    await Promise.all([a.start(), b.start()]);
    await until(async () => {
      const left = await dbs[0].selectFrom("jobs").select("id").where("state", "!=", "completed").execute();
      return left.length === 0;
    });
    expect(runs.sort()).toEqual([...ids].sort());
    expect(new Set(runs).size).toBe(40);
    const rows = await dbs[0].selectFrom("jobs").select(["attempts", "progress", "result"]).execute();
    expect(rows.every((r) => r.attempts === 1 && r.progress === 1 && r.result === '{"ok":true}')).toBe(true);
    expect(errors).toEqual([]);
  });

  it("queues a singleton key once while it is queued or running, and again once it is done", async () => {
    const a = await queue();
    const b = await queue();
    const first = await a.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" });
    expect(await b.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" })).toBe(first);
    expect(await b.enqueue("marketplace-seed", { key: "other" }, { singletonKey: "other" })).not.toBe(first);
    a.work("marketplace-seed", 1, async () => ({ added: true }));
    await a.start();
    await until(async () => (await a.get("marketplace-seed", first))?.state === "completed");
    const again = await b.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" });
    expect(again).not.toBe(first);
    expect(await dbs[0].selectFrom("jobs").select("id").where("singleton_key", "=", "k").execute()).toHaveLength(2);
  });

  it("retries a failing job and fails it with the last attempt's error", async () => {
    const a = await queue({ definitions: { "video-export": { retryLimit: 2, retryDelaySeconds: 0 } } });
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
    expect(job.result).toBeNull();
    const row = await dbs[0].selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(3);
    expect(row.worker).toBeNull();
  });

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

  it("renews the lease of a long job, so no other worker takes it", async () => {
    const a = await queue({ leaseMs: 300 });
    const b = await queue({ leaseMs: 300 });
    const ran: string[] = [];
    const slow = async ({ id }: { id: string }) => {
      ran.push(id);
      await new Promise((r) => setTimeout(r, 1200)); // four leases long
      return null;
    };
    a.work("video-export", 1, slow);
    const id = await a.enqueue("video-export", {});
    await a.start();
    await until(async () => ran.length === 1);
    b.work("video-export", 1, slow);
    await b.start();
    await until(async () => (await a.get("video-export", id))?.state === "completed");
    expect(ran).toEqual([id]);
  });

  it("stop() aborts a running job and puts it back without using an attempt", async () => {
    const a = await queue();
    let aborted = false;
    let running = false;
    a.work("video-export", 1, ({ signal }) => new Promise((_, reject) => {
      running = true;
      signal.addEventListener("abort", () => {
        aborted = true;
        reject(signal.reason);
      });
    }));
    const id = await a.enqueue("video-export", {});
    await a.start();
    // Running, not only claimed: a claim is visible to readers while its commit is being synced.
    await until(async () => running);
    await a.stop();
    expect(aborted).toBe(true);
    const row = await dbs[0].selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect([row.state, row.attempts, row.worker]).toEqual(["queued", 0, null]);
    const b = await queue();
    b.work("video-export", 1, async () => "done");
    await b.start();
    await until(async () => (await b.get("video-export", id))?.state === "completed");
    expect((await b.get("video-export", id))?.result).toBe("done");
  });

  it("records progress while a job runs", async () => {
    const a = await queue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    a.work("video-export", 1, async ({ progress }) => {
      progress(0.25);
      await gate;
      return null;
    });
    const id = await a.enqueue("video-export", {});
    await a.start();
    await until(async () => (await a.get("video-export", id))?.progress === 0.25);
    expect((await a.get("video-export", id))?.state).toBe("active");
    release();
    await until(async () => (await a.get("video-export", id))?.progress === 1);
  });

  it("answers null for an unknown id or another job's name", async () => {
    const a = await queue();
    const id = await a.enqueue("video-export", {});
    expect(await a.get("video-export", "nope")).toBeNull();
    expect(await a.get("marketplace-seed", id)).toBeNull();
  });

  describe("cancel", () => {
    /** A handler that runs until its signal aborts, recording when and why. */
    function untilAborted(seen: { at: number; reason: unknown }[]) {
      return ({ signal }: { signal: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          signal.addEventListener("abort", () => {
            seen.push({ at: Date.now(), reason: signal.reason });
            reject(signal.reason as Error);
          }),
        );
    }

    it("a running job cancelled through another queue is aborted within a poll, with JobCancelledError, and stays cancelled", async () => {
      // A long lease: the abort must come from the cancel check, not from a lost lease.
      const a = await queue({ leaseMs: 30_000 });
      const b = await queue({ leaseMs: 30_000 });
      const seen: { at: number; reason: unknown }[] = [];
      a.work("video-export", 1, untilAborted(seen));
      const id = await a.enqueue("video-export", {});
      await a.start();
      await until(async () => (await a.get("video-export", id))?.state === "active");
      const asked = Date.now();
      expect(await b.cancel("video-export", id)).toEqual({ cancelled: true, result: null });
      await until(async () => seen.length === 1, 3000);
      expect(seen[0].at - asked).toBeLessThan(CANCEL_POLL_MS * 2 + 200);
      expect(seen[0].reason).toBeInstanceOf(JobCancelledError);
      await new Promise((r) => setTimeout(r, 100));
      const row = await dbs[0].selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect([row.state, row.attempts, row.error, row.result]).toEqual(["cancelled", 1, null, null]);
      expect((await a.get("video-export", id))?.state).toBe("cancelled");
      expect(errors).toEqual([]);
    });

    it("a running job cancelled through its own queue is aborted at once", async () => {
      const a = await queue({ leaseMs: 30_000 });
      const seen: { at: number; reason: unknown }[] = [];
      a.work("video-export", 1, untilAborted(seen));
      const id = await a.enqueue("video-export", {});
      await a.start();
      await until(async () => (await a.get("video-export", id))?.state === "active");
      const asked = Date.now();
      await a.cancel("video-export", id);
      expect(seen).toHaveLength(1);
      expect(seen[0].at - asked).toBeLessThan(100);
      expect(seen[0].reason).toBeInstanceOf(JobCancelledError);
    });

    it("a queued job that is cancelled never runs, not after a restart either", async () => {
      const a = await queue();
      const ran: string[] = [];
      a.work("video-export", 1, async ({ id }) => void ran.push(id));
      const id = await a.enqueue("video-export", {});
      const other = await a.enqueue("video-export", {});
      expect(await a.cancel("video-export", id)).toEqual({ cancelled: true, result: null });
      await a.start();
      await until(async () => (await a.get("video-export", other))?.state === "completed");
      const b = await queue();
      b.work("video-export", 1, async ({ id }) => void ran.push(id));
      await b.start();
      await new Promise((r) => setTimeout(r, 200));
      expect(ran).toEqual([other]);
      expect((await a.get("video-export", id))?.state).toBe("cancelled");
    });

    it("a completed job answers its result once; again, a failed job and an unknown id change nothing", async () => {
      const a = await queue({ definitions: { "video-export": { retryLimit: 0 } } });
      a.work<{ fail?: boolean }, { key: string }>("video-export", 1, async ({ data }) => {
        if (data.fail) throw new Error("no");
        return { key: "k1" };
      });
      const done = await a.enqueue("video-export", {});
      const failed = await a.enqueue("video-export", { fail: true });
      await a.start();
      await until(async () => (await a.get("video-export", failed))?.state === "failed");
      await until(async () => (await a.get("video-export", done))?.state === "completed");
      expect(await a.cancel("video-export", done)).toEqual({ cancelled: true, result: { key: "k1" } });
      expect(await a.cancel("video-export", done)).toEqual({ cancelled: false, result: null });
      expect((await a.get("video-export", done))?.state).toBe("cancelled");
      expect(await a.cancel("video-export", failed)).toEqual({ cancelled: false, result: null });
      expect((await a.get("video-export", failed))?.state).toBe("failed");
      expect(await a.cancel("video-export", "00000000-0000-4000-8000-000000000000")).toBeNull();
      expect(await a.cancel("marketplace-seed", done)).toBeNull();
    });

    it("a result that comes after the cancel is not recorded but discarded", async () => {
      const a = await queue({ leaseMs: 30_000 });
      const b = await queue();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const discarded: unknown[] = [];
      // The handler ignores its signal: it finishes with a result after the job was cancelled.
      a.work("video-export", 1, async () => {
        await gate;
        return { key: "late" };
      }, { discard: async (result) => void discarded.push(result) });
      const id = await a.enqueue("video-export", {});
      await a.start();
      await until(async () => (await a.get("video-export", id))?.state === "active");
      await b.cancel("video-export", id);
      release();
      await until(async () => discarded.length === 1);
      expect(discarded).toEqual([{ key: "late" }]);
      const row = await dbs[0].selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect([row.state, row.result]).toEqual(["cancelled", null]);
    });
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
