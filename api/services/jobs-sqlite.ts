// The job queue in the app's SQLite database (the `jobs` table of migration 007). Every process
// polls the table; a job is claimed by one UPDATE ... WHERE id = (the oldest runnable job) that
// SQLite executes under its write lock, so two processes on one file never claim the same job (the
// outer condition repeats the inner one, so a database that re-checks rows after a concurrent
// update, as PostgreSQL does, would not hand one job out twice either).
// A claimed job carries a lease (lease_until) that its worker renews every third of the lease; a
// job whose worker was killed is runnable again once the lease has expired, and counts as an
// attempt: past its last attempt it fails with LEASE_EXPIRED_ERROR. Completion and failure are
// written only while the worker still holds the lease, so a job is recorded once.
// cancel() sets state 'cancelled' in the table, so the claim never takes the job again and the
// worker's writes (which require 'active') no longer touch it; the worker holding it aborts it at
// once when the cancel came to its own process, else on its next cancel check (CANCEL_POLL_MS).
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../errors";
import { WorkerLoops } from "./job-workers";
import {
  type CancelOutcome, DEFAULT_LEASE_MS, DEFAULT_POLL_MS, type EnqueueOptions, errorText, JOB_DEFINITIONS, type JobDefinition,
  type JobHandler, type JobInfo, type JobName, type JobQueue, type JobState, LEASE_EXPIRED_ERROR, throttledProgress, type WorkOptions,
} from "./jobs";

export interface SqliteJobQueueOptions {
  leaseMs?: number;
  pollMs?: number;
  clock?: () => Date;
  log?: Logger;
  /** Overrides of JOB_DEFINITIONS (tests shorten retry delays). */
  definitions?: Partial<Record<JobName, Partial<JobDefinition>>>;
}

interface Claimed {
  id: string;
  data: string;
  attempts: number;
  max_attempts: number;
}

export class SqliteJobQueue implements JobQueue {
  readonly workerId = randomUUID();
  readonly #db: Kysely<Database>;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #clock: () => Date;
  readonly #log: Logger;
  readonly #defs: Record<JobName, JobDefinition>;
  readonly #handlers = new Map<JobName, { concurrency: number; handler: JobHandler<unknown, unknown>; options: WorkOptions<unknown> }>();
  readonly #workers: WorkerLoops;
  #started = false;

  constructor(db: Kysely<Database>, options: SqliteJobQueueOptions = {}) {
    this.#db = db;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.#clock = options.clock ?? (() => new Date());
    this.#log = options.log ?? { error: (m, d) => console.error(m, d ?? "") };
    this.#workers = new WorkerLoops(this.#log);
    this.#defs = Object.fromEntries(
      Object.entries(JOB_DEFINITIONS).map(([name, def]) => [name, { ...def, ...options.definitions?.[name as JobName] }]),
    ) as Record<JobName, JobDefinition>;
  }

  async enqueue(name: JobName, data: unknown, options: EnqueueOptions = {}): Promise<string> {
    const def = this.#defs[name];
    const now = this.#clock().toISOString();
    const key = options.singletonKey ?? null;
    for (let tries = 0; tries < 5; tries++) {
      const id = randomUUID();
      const inserted = await this.#db
        .insertInto("jobs")
        .values({
          id,
          name,
          data: JSON.stringify(data ?? null),
          state: "queued",
          singleton_key: key,
          attempts: 0,
          max_attempts: def.retryLimit + 1,
          run_after: (options.startAfter ?? this.#clock()).toISOString(),
          progress: 0,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
        this.#workers.wake();
        return id;
      }
      if (key === null) throw new Error("Job insert was refused");
      const existing = await this.#db
        .selectFrom("jobs")
        .select("id")
        .where("name", "=", name)
        .where("singleton_key", "=", key)
        .where("state", "in", ["queued", "active"])
        .executeTakeFirst();
      if (existing) return existing.id;
      // It finished between the insert and the look-up: insert again.
    }
    throw new Error(`Could not enqueue ${name}`);
  }

  work<D, R>(name: JobName, concurrency: number, handler: JobHandler<D, R>, options: WorkOptions<R> = {}): void {
    this.#handlers.set(name, { concurrency, handler: handler as JobHandler<unknown, unknown>, options: options as WorkOptions<unknown> });
    if (this.#started) this.#workers.spawn(name, this.#handlers.get(name)!.concurrency, () => this.#loop(name));
  }

  async pending(name: JobName): Promise<number> {
    const row = await this.#db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("name", "=", name)
      .where("state", "in", ["queued", "active"])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async get<D = unknown, R = unknown>(name: JobName, id: string): Promise<JobInfo<D, R> | null> {
    const row = await this.#db.selectFrom("jobs").selectAll().where("id", "=", id).where("name", "=", name).executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      state: row.state as JobState,
      progress: Number(row.progress),
      data: JSON.parse(row.data) as D,
      result: row.result === null ? null : (JSON.parse(row.result) as R),
      error: row.error,
      createdAt: row.created_at,
    };
  }

  async cancel<R = unknown>(name: JobName, id: string): Promise<CancelOutcome<R> | null> {
    const row = await this.#db
      .updateTable("jobs")
      .set({ state: "cancelled", worker: null, lease_until: null, updated_at: this.#clock().toISOString() })
      .where("id", "=", id)
      .where("name", "=", name)
      .where("state", "in", ["queued", "active", "completed"])
      .returning("result")
      .executeTakeFirst();
    if (row) {
      this.#workers.cancel(id);
      return { cancelled: true, result: row.result === null ? null : (JSON.parse(row.result) as R) };
    }
    const exists = await this.#db.selectFrom("jobs").select("id").where("id", "=", id).where("name", "=", name).executeTakeFirst();
    return exists ? { cancelled: false, result: null } : null;
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    for (const name of this.#handlers.keys()) this.#workers.spawn(name, this.#handlers.get(name)!.concurrency, () => this.#loop(name));
  }

  async stop(): Promise<void> {
    if (!this.#started || this.#workers.stopping) return;
    await this.#workers.stop();
  }

  async #loop(name: JobName): Promise<void> {
    while (!this.#workers.stopping) {
      let job: Claimed | null = null;
      try {
        job = await this.#claim(name);
      } catch (err) {
        this.#log.error("Job claim failed", { name, message: errorText(err) });
      }
      if (job === null) {
        await this.#workers.sleep(this.#pollMs);
        continue;
      }
      if (this.#workers.stopping) {
        // stop() came while the claim was being committed: its abort found nothing to stop.
        await this.#release(job.id);
        break;
      }
      if (job.attempts > job.max_attempts) {
        await this.#finish(job.id, "failed", { error: LEASE_EXPIRED_ERROR });
        continue;
      }
      await this.#run(name, job);
    }
  }

  /** Takes the oldest runnable job of `name`: queued and due, or active with an expired lease. */
  async #claim(name: JobName): Promise<Claimed | null> {
    const now = this.#clock();
    const lease = new Date(now.getTime() + this.#leaseMs).toISOString();
    const iso = now.toISOString();
    const { rows } = await sql<Claimed>`
      update jobs set state = 'active', attempts = attempts + 1, worker = ${this.workerId},
        lease_until = ${lease}, updated_at = ${iso}
      where id = (
        select id from jobs
        where name = ${name}
          and ((state = 'queued' and run_after <= ${iso}) or (state = 'active' and lease_until < ${iso}))
        order by run_after, created_at
        limit 1
      )
      and ((state = 'queued' and run_after <= ${iso}) or (state = 'active' and lease_until < ${iso}))
      returning id, data, attempts, max_attempts`.execute(this.#db);
    return rows[0] ?? null;
  }

  async #run(name: JobName, job: Claimed): Promise<void> {
    const { handler, options } = this.#handlers.get(name)!;
    const controller = new AbortController();
    this.#workers.running.set(job.id, controller);
    const cancelled = async () => {
      const row = await this.#db.selectFrom("jobs").select("state").where("id", "=", job.id).executeTakeFirst();
      return row?.state === "cancelled";
    };
    const unwatch = this.#workers.watch(name, job.id, cancelled);
    const heartbeat = setInterval(() => {
      this.#renew(job.id).then(
        (held) => {
          if (!held) void this.#workers.leaseLost(job.id, cancelled);
        },
        (err: unknown) => this.#log.error("Job heartbeat failed", { name, message: errorText(err) }),
      );
    }, Math.max(50, Math.floor(this.#leaseMs / 3)));
    try {
      const result = await handler({
        id: job.id,
        data: JSON.parse(job.data),
        attempt: job.attempts,
        signal: controller.signal,
        progress: throttledProgress(
          (f) => this.#mine(job.id).set({ progress: f }).execute().then(() => undefined),
          (err) => this.#log.error("Job progress write failed", { name, message: errorText(err) }),
        ),
      });
      clearInterval(heartbeat);
      if (controller.signal.aborted && this.#workers.stopping) return void (await this.#release(job.id));
      if (!(await this.#finish(job.id, "completed", { result: JSON.stringify(result ?? null) }))) {
        // Cancelled (or taken over) while finishing: nobody will ask for this result.
        await options.discard?.(result).catch((e: unknown) => this.#log.error("Job result discard failed", { name, message: errorText(e) }));
      }
    } catch (err) {
      clearInterval(heartbeat);
      if (controller.signal.aborted && this.#workers.stopping) return void (await this.#release(job.id));
      if (controller.signal.aborted) return; // lease lost: the job belongs to another worker now
      const error = errorText(err);
      if (job.attempts < job.max_attempts) {
        const def = this.#defs[name];
        const runAfter = new Date(this.#clock().getTime() + def.retryDelaySeconds * 1000).toISOString();
        await this.#mine(job.id)
          .set({ state: "queued", worker: null, lease_until: null, run_after: runAfter, error, updated_at: this.#clock().toISOString() })
          .execute();
      } else {
        await this.#finish(job.id, "failed", { error });
      }
    } finally {
      clearInterval(heartbeat);
      unwatch();
      this.#workers.running.delete(job.id);
    }
  }

  /** An UPDATE of a job this worker still holds. */
  #mine(id: string) {
    return this.#db.updateTable("jobs").where("id", "=", id).where("worker", "=", this.workerId).where("state", "=", "active");
  }

  async #renew(id: string): Promise<boolean> {
    const lease = new Date(this.#clock().getTime() + this.#leaseMs).toISOString();
    const r = await this.#mine(id).set({ lease_until: lease }).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Records the outcome; false when the job is no longer this worker's (cancelled, or taken over). */
  async #finish(id: string, state: "completed" | "failed", fields: { result?: string; error?: string }): Promise<boolean> {
    const r = await this.#mine(id)
      .set({
        state,
        worker: null,
        lease_until: null,
        ...(state === "completed" ? { progress: 1, error: null, result: fields.result ?? null } : { error: fields.error ?? null }),
        updated_at: this.#clock().toISOString(),
      })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Puts a job interrupted by stop() back, without counting the attempt. */
  async #release(id: string): Promise<void> {
    await this.#mine(id)
      .set({ state: "queued", worker: null, lease_until: null, attempts: sql`attempts - 1`, updated_at: this.#clock().toISOString() })
      .execute();
  }
}
