// The job queue's contract (JobQueue in api/services/jobs.ts), one set of tests run on both
// implementations: the SQLite queue (jobs-sqlite.ts, a database file of its own per test) and
// pg-boss (jobs-pgboss.ts, a schema of its own per test on local-postgres.ts's PostgreSQL: a fresh
// database on TEST_DATABASE_URL's server, or one started here; skipped, saying why, when neither
// is possible). Every queue a test opens has its own connection: it stands for another process.
// What is checked is what a caller sees through the interface: ids, states, data, progress,
// results and errors, how often and with which attempt a handler ran, and its abort signal.
// A promise an implementation does not keep yet is listed in its `gaps`: that test is expected to
// fail there (it.fails), so it starts failing once the gap is closed and the entry can go.
// What only one implementation has stays with it: ../jobs.test.ts (SQLite's rows, the lease of a
// worker that died, migration 008), ../jobs-pgboss.test.ts (cancelling an archived job); real
// processes sharing one database are ../jobs-processes.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openSqlite } from "../../../../api/db/open";
import type { Database } from "../../../../api/db/schema";
import type { Logger } from "../../../../api/errors";
import {
  CANCEL_POLL_MS, DEFAULT_LEASE_MS, JobCancelledError, type JobContext, type JobName, type JobQueue, type JobState,
} from "../../../../api/services/jobs";
import { PgBossJobQueue } from "../../../../api/services/jobs-pgboss";
import { SqliteJobQueue } from "../../../../api/services/jobs-sqlite";
import { type LocalPostgres, localPostgres } from "../local-postgres";

const errors: string[] = [];
const log: Logger = { error: (m, d) => errors.push(`${m} ${JSON.stringify(d ?? {})}`) };
/** Retries at once, so a failing job ends within a test. */
const definitions = { "video-export": { retryLimit: 2, retryDelaySeconds: 0 } };
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const WAIT = { timeout: 20_000, interval: 20 };

/** A promise of JobQueue that an implementation does not keep yet. */
type Gap = "singleton key while running" | "malformed id";

interface QueueOptions {
  leaseMs?: number;
}

/** The jobs of one test: every queue() is another process's view of them. */
interface Jobs {
  queue(options?: QueueOptions): Promise<JobQueue>;
  close(): Promise<void>;
}

interface Backend {
  name: string;
  /** The lease and idle poll its queues use unless a test asks for another lease. */
  leaseMs: number;
  pollMs: number;
  gaps: Gap[];
  /** Makes ready what every test needs; the reason the tests cannot run here, or null. */
  setUp(): Promise<string | null>;
  tearDown(): Promise<void>;
  /** Empty jobs for one test. */
  fresh(): Promise<Jobs>;
}

const sqlite: Backend = {
  name: "SQLite",
  leaseMs: 600,
  pollMs: 20,
  gaps: [],
  setUp: async () => null,
  tearDown: async () => undefined,
  async fresh() {
    const dir = mkdtempSync(join(tmpdir(), "jobs-contract-"));
    const dbs: Kysely<Database>[] = [];
    return {
      async queue(options = {}) {
        const db = await openSqlite(join(dir, "studio.db"));
        dbs.push(db);
        return new SqliteJobQueue(db, { leaseMs: sqlite.leaseMs, pollMs: sqlite.pollMs, log, definitions, ...options });
      },
      async close() {
        for (const db of dbs) await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

let server: LocalPostgres | null = null;
let schemas = 0;
const pgBoss: Backend = {
  name: "pg-boss",
  leaseMs: 2000,
  pollMs: 500,
  // With a keyed job running, enqueue() queues a second job for its key (pg-boss's 'stately'
  // policy allows one queued and one active job per key); an id that is not a UUID makes
  // PostgreSQL throw instead of get() and cancel() answering null.
  gaps: [],
  async setUp() {
    const r = await localPostgres();
    if (typeof r === "string") return r;
    server = r;
    return null;
  },
  async tearDown() {
    await server?.stop();
    server = null;
  },
  async fresh() {
    const schema = `jobs_contract_${++schemas}`;
    return {
      queue: async (options = {}) =>
        new PgBossJobQueue({ connectionString: server!.url, schema, leaseMs: pgBoss.leaseMs, pollMs: pgBoss.pollMs, log, definitions, ...options }),
      close: async () => undefined,
    };
  },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise the test opens when it wants. */
function gate(): { shut: Promise<void>; open: () => void } {
  let open!: () => void;
  const shut = new Promise<void>((r) => (open = r));
  return { shut, open };
}

/** A handler that runs until its signal aborts, recording when and why. */
function untilAborted(seen: { at: number; reason: unknown }[]) {
  return ({ signal }: JobContext<unknown>) =>
    new Promise<never>((_, reject) =>
      signal.addEventListener("abort", () => {
        seen.push({ at: Date.now(), reason: signal.reason });
        reject(signal.reason as Error);
      }),
    );
}

/** The job, read through `q`, once it is in `state`. */
function reach<D = unknown, R = unknown>(q: JobQueue, id: string, state: JobState, name: JobName = "video-export") {
  return vi.waitUntil(async () => {
    const job = await q.get<D, R>(name, id);
    return job?.state === state ? job : null;
  }, WAIT);
}

describe.each([sqlite, pgBoss])("job queue contract: $name", (backend) => {
  let skip: string | null = null;
  let jobs: Jobs | null = null;
  const queues: JobQueue[] = [];
  const test = (gap: Gap) => (backend.gaps.includes(gap) ? it.fails : it);
  /** Waits long enough for an idle queue to have looked for jobs twice. */
  const idle = () => sleep(Math.max(200, 2 * backend.pollMs));

  beforeAll(async () => {
    skip = await backend.setUp();
    if (skip) console.log(`${backend.name} job queue contract skipped: ${skip}`);
  }, 60_000);
  afterAll(() => backend.tearDown());
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    errors.length = 0;
    jobs = await backend.fresh();
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop();
    await jobs?.close();
    jobs = null;
  });

  async function queue(options?: QueueOptions): Promise<JobQueue> {
    const q = await jobs!.queue(options);
    queues.push(q);
    return q;
  }

  it("a queued job reads the same from any queue: queued, its data, no progress, result or error", async () => {
    const a = await queue();
    const b = await queue();
    const before = Date.now();
    const id = await a.enqueue("video-export", { n: 21, title: "Rain" });
    const job = await b.get("video-export", id);
    expect(job).toEqual({
      id, name: "video-export", state: "queued", progress: 0, data: { n: 21, title: "Rain" }, result: null, error: null, createdAt: expect.any(String),
    });
    expect(new Date(job!.createdAt).toISOString()).toBe(job!.createdAt);
    expect(Math.abs(Date.parse(job!.createdAt) - before)).toBeLessThan(5000);
    expect(await a.enqueue("video-export", { n: 22 })).not.toBe(id);
  });

  it("pending() counts the queued and running jobs of a name, from any queue, and not cancelled ones", async () => {
    const a = await queue();
    const b = await queue();
    expect(await b.pending("video-export")).toBe(0);
    const ids = [await a.enqueue("video-export", { n: 1 }), await a.enqueue("video-export", { n: 2 }), await a.enqueue("video-export", { n: 3 })];
    await a.enqueue("video-export-expire", { key: "k" });
    expect(await b.pending("video-export")).toBe(3);
    await a.cancel("video-export", ids[0]);
    expect(await b.pending("video-export")).toBe(2);
  });

  it("answers null for an unknown id, and for a job's id under another name, in get and cancel", async () => {
    const a = await queue();
    const id = await a.enqueue("video-export", {});
    expect(await a.get("video-export", UNKNOWN_ID)).toBeNull();
    expect(await a.get("marketplace-seed", id)).toBeNull();
    expect(await a.cancel("video-export", UNKNOWN_ID)).toBeNull();
    expect(await a.cancel("marketplace-seed", id)).toBeNull();
    expect((await a.get("video-export", id))?.state).toBe("queued");
  });

  test("malformed id")("answers null for an id that is not one the queue makes", async () => {
    const a = await queue();
    expect(await a.get("video-export", "nope")).toBeNull();
    expect(await a.cancel("video-export", "nope")).toBeNull();
  });

  it("runs a job once, with its progress while it runs and its result after, seen from another queue", async () => {
    const a = await queue();
    const observer = await queue();
    const release = gate();
    const attempts: number[] = [];
    a.work<{ n: number }, { doubled: number }>("video-export", 1, async ({ data, attempt, progress }) => {
      attempts.push(attempt);
      progress(0.25);
      await release.shut;
      return { doubled: data.n * 2 };
    });
    const id = await a.enqueue("video-export", { n: 21 });
    await a.start();
    await vi.waitUntil(async () => (await observer.get("video-export", id))?.progress === 0.25, WAIT);
    expect((await observer.get("video-export", id))?.state).toBe("active");
    release.open();
    const done = await reach(observer, id, "completed");
    expect(done).toMatchObject({ progress: 1, result: { doubled: 42 }, data: { n: 21 }, error: null });
    expect(attempts).toEqual([1]);
    expect(errors).toEqual([]);
  });

  it("runs every job exactly once, on its first attempt, with two queues claiming at once", async () => {
    const a = await queue();
    const b = await queue();
    const runs: { id: string; attempt: number }[] = [];
    const handler = async ({ id, attempt }: JobContext<unknown>) => {
      runs.push({ id, attempt });
      await sleep(2);
      return { ok: true };
    };
    a.work("video-export", 3, handler);
    b.work("video-export", 3, handler);
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => a.enqueue("video-export", { i })));
    await Promise.all([a.start(), b.start()]);
    const done = await vi.waitUntil(async () => {
      const all = await Promise.all(ids.map((id) => b.get("video-export", id)));
      return all.every((j) => j?.state === "completed") && all;
    }, WAIT);
    expect(runs.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(runs.every((r) => r.attempt === 1)).toBe(true);
    expect(done.map((j) => [j?.progress, j?.result])).toEqual(ids.map(() => [1, { ok: true }]));
    expect(errors).toEqual([]);
  });

  it("runs up to `concurrency` jobs of a name at once in one queue", async () => {
    const a = await queue();
    let running = 0;
    let most = 0;
    a.work("video-export", 2, async () => {
      most = Math.max(most, ++running);
      await sleep(150);
      running--;
      return null;
    });
    const ids = await Promise.all(Array.from({ length: 5 }, (_, i) => a.enqueue("video-export", { i })));
    await a.start();
    for (const id of ids) await reach(a, id, "completed");
    expect(most).toBe(2);
  });

  it("queues a singleton key once while it is queued, through any queue, and again once it is done", async () => {
    const a = await queue();
    const b = await queue();
    const first = await a.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" });
    expect(await b.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" })).toBe(first);
    expect(await b.enqueue("marketplace-seed", { key: "other" }, { singletonKey: "other" })).not.toBe(first);
    expect((await b.get("marketplace-seed", first))?.state).toBe("queued");
    a.work("marketplace-seed", 1, async () => ({ added: true }));
    await a.start();
    await reach(b, first, "completed", "marketplace-seed");
    const again = await b.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" });
    expect(again).not.toBe(first);
    expect(await b.get("marketplace-seed", again)).toMatchObject({ id: again, data: { key: "k" } });
    expect(await b.get("marketplace-seed", first)).toMatchObject({ state: "completed", result: { added: true } });
  });

  test("singleton key while running")("answers the running job's id for its singleton key while it runs", async () => {
    const a = await queue();
    const b = await queue();
    const release = gate();
    a.work("marketplace-seed", 1, async () => {
      await release.shut;
      return { added: true };
    });
    const first = await a.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" });
    await a.start();
    await reach(b, first, "active", "marketplace-seed");
    const during = await b.enqueue("marketplace-seed", { key: "k" }, { singletonKey: "k" });
    release.open();
    expect(during).toBe(first);
  });

  it("retries a failing job and fails it with the last attempt's error", async () => {
    const a = await queue();
    const attempts: number[] = [];
    a.work("video-export", 1, async ({ attempt }) => {
      attempts.push(attempt);
      throw new Error(`encoder broke on try ${attempts.length}`);
    });
    const id = await a.enqueue("video-export", { n: 1 });
    await a.start();
    const job = await reach(a, id, "failed");
    expect(attempts).toEqual([1, 2, 3]);
    expect(job).toMatchObject({ error: "encoder broke on try 3", result: null, data: { n: 1 } });
    expect(errors).toEqual([]);
  });

  it("waits the retry delay before a retry, the job reading meanwhile as queued with the failed attempt's error", async () => {
    // video-export-expire: 5 retries, a minute apart.
    const a = await queue();
    const attempts: number[] = [];
    a.work("video-export-expire", 1, async ({ attempt }) => {
      attempts.push(attempt);
      throw new Error("the file was busy");
    });
    const id = await a.enqueue("video-export-expire", {});
    await a.start();
    await vi.waitUntil(async () => (await a.get("video-export-expire", id))?.error === "the file was busy", WAIT);
    await idle();
    expect(await a.get("video-export-expire", id)).toMatchObject({ state: "queued", error: "the file was busy", result: null });
    expect(attempts).toEqual([1]);
  });

  it("does not run a job before its startAfter time", async () => {
    const a = await queue();
    const started = new Map<string, number>();
    a.work("video-export", 1, async ({ id }) => void started.set(id, Date.now()));
    const at = new Date(Date.now() + 1500);
    const later = await a.enqueue("video-export", {}, { startAfter: at });
    const now = await a.enqueue("video-export", {});
    await a.start();
    await reach(a, now, "completed");
    expect((await a.get("video-export", later))?.state).toBe("queued");
    await reach(a, later, "completed");
    expect(started.get(later)).toBeGreaterThanOrEqual(at.getTime());
  });

  it("stop() aborts a running job and puts it back, its attempt unused, for another queue", async () => {
    const a = await queue();
    let running = false;
    let aborted = false;
    a.work("video-export", 1, ({ signal }) => new Promise((_, reject) => {
      running = true;
      signal.addEventListener("abort", () => {
        aborted = true;
        reject(signal.reason as Error);
      });
    }));
    const id = await a.enqueue("video-export", {});
    await a.start();
    await vi.waitUntil(() => running, WAIT);
    await a.stop();
    expect(aborted).toBe(true);
    const b = await queue();
    expect((await b.get("video-export", id))?.state).toBe("queued");
    const attempts: number[] = [];
    b.work("video-export", 1, async ({ attempt }) => {
      attempts.push(attempt);
      return "done";
    });
    await b.start();
    expect((await reach(b, id, "completed")).result).toBe("done");
    expect(attempts).toEqual([1]);
  });

  it("renews the lease of a job that runs for longer than it, so no other queue takes the job", async () => {
    const a = await queue();
    const b = await queue();
    const ran: string[] = [];
    const slow = async ({ id }: JobContext<unknown>) => {
      ran.push(id);
      await sleep(backend.leaseMs * 2.5);
      return null;
    };
    a.work("video-export", 1, slow);
    const id = await a.enqueue("video-export", {});
    await a.start();
    await vi.waitUntil(() => ran.length === 1, WAIT);
    b.work("video-export", 1, slow);
    await b.start();
    await reach(b, id, "completed");
    expect(ran).toEqual([id]);
    expect(errors).toEqual([]);
  });

  describe("cancel", () => {
    // The production lease: an abort must come from the cancel check, not from a lost lease.
    const long = { leaseMs: DEFAULT_LEASE_MS };

    /** A job running in a queue until its signal aborts; the aborts its handler saw. */
    async function runningJob() {
      const a = await queue(long);
      const seen: { at: number; reason: unknown }[] = [];
      a.work("video-export", 1, untilAborted(seen));
      const id = await a.enqueue("video-export", {});
      await a.start();
      await reach(a, id, "active");
      return { a, id, seen };
    }

    it("a running job cancelled through another queue is aborted within a cancel poll, with JobCancelledError, and stays cancelled", async () => {
      const { a, id, seen } = await runningJob();
      const b = await queue(long);
      const asked = Date.now();
      expect(await b.cancel("video-export", id)).toEqual({ cancelled: true, result: null });
      await vi.waitUntil(() => seen.length === 1, { timeout: 3000, interval: 10 });
      expect(seen[0].at - asked).toBeLessThan(CANCEL_POLL_MS * 2 + 300);
      expect(seen[0].reason).toBeInstanceOf(JobCancelledError);
      await idle();
      expect(seen).toHaveLength(1);
      expect(await a.get("video-export", id)).toMatchObject({ state: "cancelled", error: null, result: null });
      expect(errors).toEqual([]);
    });

    it("a running job cancelled through its own queue is aborted at once", async () => {
      const { a, id, seen } = await runningJob();
      const asked = Date.now();
      expect(await a.cancel("video-export", id)).toEqual({ cancelled: true, result: null });
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
      await reach(a, other, "completed");
      const b = await queue();
      b.work("video-export", 1, async ({ id }) => void ran.push(id));
      await b.start();
      await idle();
      expect(ran).toEqual([other]);
      expect((await b.get("video-export", id))?.state).toBe("cancelled");
    });

    it("a completed job is cancelled once, answering its result; a second cancel and a failed job's change nothing", async () => {
      const a = await queue();
      a.work<{ fail?: boolean }, { key: string }>("video-export", 1, async ({ id, data }) => {
        if (data.fail) throw new Error("no");
        return { key: `k-${id}` };
      });
      const done = await a.enqueue("video-export", {});
      const failed = await a.enqueue("video-export", { fail: true });
      await a.start();
      await reach(a, failed, "failed");
      await reach(a, done, "completed");
      expect(await a.cancel("video-export", done)).toEqual({ cancelled: true, result: { key: `k-${done}` } });
      expect(await a.cancel("video-export", done)).toEqual({ cancelled: false, result: null });
      expect((await a.get("video-export", done))?.state).toBe("cancelled");
      expect(await a.cancel("video-export", failed)).toEqual({ cancelled: false, result: null });
      expect(await a.get("video-export", failed)).toMatchObject({ state: "failed", error: "no" });
    });

    it("a result that comes after the cancel is not recorded but discarded", async () => {
      const a = await queue(long);
      const b = await queue(long);
      const release = gate();
      const discarded: unknown[] = [];
      // The handler ignores its signal: it finishes with a result after the job was cancelled.
      a.work("video-export", 1, async () => {
        await release.shut;
        return { key: "late" };
      }, { discard: async (result) => void discarded.push(result) });
      const id = await a.enqueue("video-export", {});
      await a.start();
      await reach(b, id, "active");
      await b.cancel("video-export", id);
      release.open();
      await vi.waitUntil(() => discarded.length === 1, WAIT);
      expect(discarded).toEqual([{ key: "late" }]);
      expect(await b.get("video-export", id)).toMatchObject({ state: "cancelled", result: null });
    });
  });
});
