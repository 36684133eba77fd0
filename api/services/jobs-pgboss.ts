// The job queue on PostgreSQL: pg-boss 10 (the Node 20 line) in the app's own database, schema
// `pgboss`. pg-boss claims jobs with SELECT ... FOR UPDATE SKIP LOCKED, keeps one queued and one
// running job per singleton key in a 'stately' queue, and its maintenance (run by one process at a
// time, every half lease) fails or retries an active job whose `started_on + expire_in` has passed.
// That expiry is the lease: the worker renews it by moving started_on forward every third of the
// lease, and progress is kept in the job's output column until completion replaces it. Both touch
// pg-boss 10's job table directly (pg-boss has no lease renewal: its issue #436), which is why
// package.json pins pg-boss to exactly 10.4.2; nothing else does.
// cancel() is pg-boss's own cancel for a queued or running job (state 'cancelled', which its
// fetch, complete and fail leave alone); a completed job (in the job table, or in the archive
// after archiveCompletedAfterSeconds) is set to 'cancelled' directly. The process running a
// cancelled job aborts it at once when the cancel came to it, else on its next cancel check.
import PgBoss from "pg-boss";
import type { Logger } from "../errors";
import { WorkerLoops } from "./job-workers";
import {
  type CancelOutcome, DEFAULT_LEASE_MS, DEFAULT_POLL_MS, type EnqueueOptions, errorText, JOB_DEFINITIONS, type JobDefinition,
  type JobHandler, type JobInfo, type JobName, type JobQueue, type JobState, throttledProgress, type WorkOptions,
} from "./jobs";

/** pg-boss's job ids are UUIDs. */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PgBossJobQueueOptions {
  /** postgres:// URL of the app's database. */
  connectionString: string;
  leaseMs?: number;
  pollMs?: number;
  log?: Logger;
  definitions?: Partial<Record<JobName, Partial<JobDefinition>>>;
  /** pg-boss's schema (default 'pgboss'). */
  schema?: string;
}

const STATES: Record<string, JobState> = {
  created: "queued",
  retry: "queued",
  active: "active",
  completed: "completed",
  cancelled: "cancelled",
  failed: "failed",
};

/** Jobs a pg-boss command changed: its 10.x typings declare complete() and cancel() void, but
 *  they answer {jobs, requested, affected} (manager.js mapCommandResponse). */
function affected(response: unknown): number {
  return Number((response as { affected?: unknown } | undefined)?.affected ?? 0);
}

interface Output {
  progress?: number;
  result?: unknown;
  message?: string;
  value?: { message?: string };
}

export class PgBossJobQueue implements JobQueue {
  readonly boss: PgBoss;
  readonly #schema: string;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #log: Logger;
  readonly #defs: Record<JobName, JobDefinition>;
  readonly #handlers = new Map<JobName, { concurrency: number; handler: JobHandler<unknown, unknown>; options: WorkOptions<unknown> }>();
  readonly #workers: WorkerLoops;
  #ready: Promise<void> | null = null;
  #started = false;

  constructor(options: PgBossJobQueueOptions) {
    this.#schema = options.schema ?? "pgboss";
    if (!/^[a-z_][a-z0-9_]*$/.test(this.#schema)) throw new Error(`Invalid pg-boss schema name: ${this.#schema}`);
    this.#leaseMs = Math.max(1000, options.leaseMs ?? DEFAULT_LEASE_MS);
    this.#pollMs = Math.max(500, options.pollMs ?? DEFAULT_POLL_MS);
    this.#log = options.log ?? { error: (m, d) => console.error(m, d ?? "") };
    this.#workers = new WorkerLoops(this.#log);
    this.#defs = Object.fromEntries(
      Object.entries(JOB_DEFINITIONS).map(([name, def]) => [name, { ...def, ...options.definitions?.[name as JobName] }]),
    ) as Record<JobName, JobDefinition>;
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: this.#schema,
      maintenanceIntervalSeconds: Math.max(1, Math.floor(this.#leaseMs / 2000)),
      max: 4,
    });
    // Errors carry no connection string (pg's messages name host and database at most).
    this.boss.on("error", (err: Error) => this.#log.error("pg-boss error", { message: errorText(err) }));
  }

  /** Starts pg-boss (creating its schema on first use) and the queues; enqueue and get call it too. */
  #open(): Promise<void> {
    return (this.#ready ??= (async () => {
      await this.boss.start();
      for (const [name, def] of Object.entries(this.#defs)) {
        if (await this.boss.getQueue(name)) continue;
        try {
          await this.boss.createQueue(name, {
            name,
            policy: def.keyed ? "stately" : "standard",
            retryLimit: def.retryLimit,
            retryDelay: def.retryDelaySeconds,
            expireInSeconds: Math.ceil(this.#leaseMs / 1000),
          });
        } catch (err) {
          if (!(await this.boss.getQueue(name))) throw err; // another process made it meanwhile
        }
      }
    })());
  }

  async #sql<T>(text: string, values: unknown[]): Promise<T[]> {
    const db = await this.boss.getDb();
    const r = (await db.executeSql(text, values)) as { rows: T[] };
    return r.rows;
  }

  /** The queued or running job of `name` under `key`, if any. */
  async #keyed(name: JobName, key: string): Promise<string | null> {
    const [existing] = await this.#sql<{ id: string }>(
      `SELECT id FROM ${this.#schema}.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' ORDER BY created_on DESC LIMIT 1`,
      [name, key],
    );
    return existing?.id ?? null;
  }

  async enqueue(name: JobName, data: unknown, options: EnqueueOptions = {}): Promise<string> {
    await this.#open();
    for (let tries = 0; tries < 5; tries++) {
      // A 'stately' queue keeps one queued AND one running job per key; the queue's promise is one
      // queued-or-running job per key, so a key that has either answers with that job.
      const held = options.singletonKey ? await this.#keyed(name, options.singletonKey) : null;
      if (held) return held;
      const id = await this.boss.send(name, (data ?? {}) as object, {
        singletonKey: options.singletonKey,
        startAfter: options.startAfter,
      });
      if (id) {
        this.#workers.wake();
        return id;
      }
      if (!options.singletonKey) throw new Error(`pg-boss refused a ${name} job`);
    }
    throw new Error(`Could not enqueue ${name}`);
  }

  work<D, R>(name: JobName, concurrency: number, handler: JobHandler<D, R>, options: WorkOptions<R> = {}): void {
    this.#handlers.set(name, { concurrency, handler: handler as JobHandler<unknown, unknown>, options: options as WorkOptions<unknown> });
    if (this.#started) this.#workers.spawn(name, this.#handlers.get(name)!.concurrency, () => this.#loop(name));
  }

  async pending(name: JobName): Promise<number> {
    await this.#open();
    return (await this.boss.getQueueSize(name, { before: "completed" })) ?? 0;
  }

  async get<D = unknown, R = unknown>(name: JobName, id: string): Promise<JobInfo<D, R> | null> {
    if (!JOB_ID.test(id)) return null; // not an id this queue makes (PostgreSQL would refuse it as a uuid)
    await this.#open();
    const job = await this.boss.getJobById<D>(name, id, { includeArchive: true });
    if (!job) return null;
    const state = STATES[job.state] ?? "failed";
    const output = (job.output ?? {}) as Output;
    return {
      id: job.id,
      name: job.name,
      state,
      // A cancelled job that had completed keeps its output (the result): it had reached 1.
      progress: state === "completed" || (state === "cancelled" && "result" in output) ? 1 : Number(output.progress ?? 0),
      data: job.data,
      result: state === "completed" ? ((output.result ?? null) as R | null) : null,
      error: state === "failed" || job.state === "retry" ? (output.message ?? output.value?.message ?? null) : null,
      createdAt: new Date(job.createdOn).toISOString(),
    };
  }

  async cancel<R = unknown>(name: JobName, id: string): Promise<CancelOutcome<R> | null> {
    if (!JOB_ID.test(id)) return null;
    await this.#open();
    if (affected(await this.boss.cancel(name, id)) === 1) {
      this.#workers.cancel(id);
      return { cancelled: true, result: null };
    }
    for (const table of ["job", "archive"]) {
      const [done] = await this.#sql<{ output: Output | null }>(
        `UPDATE ${this.#schema}.${table} SET state = 'cancelled' WHERE name = $1 AND id = $2 AND state = 'completed' RETURNING output`,
        [name, id],
      );
      if (done) return { cancelled: true, result: (done.output?.result ?? null) as R | null };
    }
    return (await this.get(name, id)) ? { cancelled: false, result: null } : null;
  }

  async start(): Promise<void> {
    if (this.#started) return;
    await this.#open();
    this.#started = true;
    for (const name of this.#handlers.keys()) this.#workers.spawn(name, this.#handlers.get(name)!.concurrency, () => this.#loop(name));
  }

  async stop(): Promise<void> {
    if (this.#workers.stopping) return;
    await this.#workers.stop();
    if (this.#ready) await this.boss.stop({ graceful: false, wait: true, timeout: 5000 });
  }

  async #loop(name: JobName): Promise<void> {
    while (!this.#workers.stopping) {
      let job: PgBoss.JobWithMetadata<unknown> | undefined;
      try {
        [job] = await this.boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true });
      } catch (err) {
        if (!this.#workers.stopping) this.#log.error("Job claim failed", { name, message: errorText(err) });
      }
      if (!job) {
        if (!this.#workers.stopping) await this.#workers.sleep(this.#pollMs);
        continue;
      }
      await this.#run(name, job);
    }
  }

  async #run(name: JobName, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    const { handler, options } = this.#handlers.get(name)!;
    const controller = new AbortController();
    this.#workers.running.set(job.id, controller);
    const cancelled = async () => {
      const [row] = await this.#sql<{ state: string }>(`SELECT state FROM ${this.#schema}.job WHERE name = $1 AND id = $2`, [name, job.id]);
      return row?.state === "cancelled";
    };
    const unwatch = this.#workers.watch(name, job.id, cancelled);
    const active = `WHERE name = $1 AND id = $2 AND state = 'active'`;
    const heartbeat = setInterval(() => {
      this.#sql(`UPDATE ${this.#schema}.job SET started_on = now() ${active} RETURNING id`, [name, job.id]).then(
        (rows) => {
          if (rows.length === 0) void this.#workers.leaseLost(job.id, cancelled);
        },
        (err: unknown) => this.#log.error("Job heartbeat failed", { name, message: errorText(err) }),
      );
    }, Math.floor(this.#leaseMs / 3));
    try {
      const result = await handler({
        id: job.id,
        data: job.data,
        attempt: job.retryCount + 1,
        signal: controller.signal,
        progress: throttledProgress(
          (f) =>
            this.#sql(`UPDATE ${this.#schema}.job SET output = $3::jsonb ${active}`, [name, job.id, JSON.stringify({ progress: f })]).then(
              () => undefined,
            ),
          (err) => this.#log.error("Job progress write failed", { name, message: errorText(err) }),
        ),
      });
      clearInterval(heartbeat);
      if (controller.signal.aborted && this.#workers.stopping) return void (await this.#release(name, job.id));
      if (affected(await this.boss.complete(name, job.id, { result: result ?? null })) === 0) {
        // Cancelled (or expired and taken over) while finishing: nobody will ask for this result.
        await options.discard?.(result).catch((e: unknown) => this.#log.error("Job result discard failed", { name, message: errorText(e) }));
      }
    } catch (err) {
      clearInterval(heartbeat);
      if (controller.signal.aborted && this.#workers.stopping) return void (await this.#release(name, job.id));
      if (controller.signal.aborted) return;
      await this.boss.fail(name, job.id, { message: errorText(err) });
    } finally {
      clearInterval(heartbeat);
      unwatch();
      this.#workers.running.delete(job.id);
    }
  }

  /** Puts a job interrupted by stop() back without counting the attempt (fetch counts a retry
   *  only when started_on is set). */
  async #release(name: JobName, id: string): Promise<void> {
    await this.#sql(`UPDATE ${this.#schema}.job SET state = 'created', started_on = NULL WHERE name = $1 AND id = $2 AND state = 'active'`, [
      name,
      id,
    ]);
  }
}
