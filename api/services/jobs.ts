// The shared job queue: long work (marketplace seed renders, video exports) is queued in
// the database every API process uses, so a job survives a restart of the process that accepted it
// and runs exactly once across processes. One interface, two implementations:
//   - jobs-sqlite.ts: a `jobs` table in the app database (migration 007_jobs), claimed by one atomic
//     UPDATE and held by a lease that the worker renews; a job whose worker died is taken again
//     once its lease has expired;
//   - jobs-pgboss.ts: pg-boss 10 on the app's PostgreSQL database.
// What each job is (retries, keyed or not, how many run at once per process) is declared once,
// in JOB_DEFINITIONS below.
// A job is cancelled in the database (state 'cancelled'): a queued one is never claimed, and the
// process running one sees the state within CANCEL_POLL_MS and aborts the handler's signal with
// JobCancelledError, whichever process received the cancel.

export type JobState = "queued" | "active" | "completed" | "failed" | "cancelled";

export interface JobInfo<D = unknown, R = unknown> {
  id: string;
  name: string;
  state: JobState;
  /** 0..1, as last reported by the worker; 1 once completed. */
  progress: number;
  data: D;
  result: R | null;
  /** The last attempt's error message (the final one when state is 'failed'). */
  error: string | null;
  createdAt: string;
}

export interface JobContext<D> {
  id: string;
  data: D;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the queue stops, the job's lease was lost or the job was cancelled (the reason is
   *  then a JobCancelledError): stop work, nothing will be kept. */
  signal: AbortSignal;
  /** Records progress (0..1); writes are throttled. */
  progress(fraction: number): void;
}

export type JobHandler<D, R> = (job: JobContext<D>) => Promise<R>;

export interface EnqueueOptions {
  /** At most one queued-or-running job per name and key: enqueuing again answers the existing id. */
  singletonKey?: string;
  /** Not before this time. */
  startAfter?: Date;
}

export interface WorkOptions<R> {
  /** Removes what a result refers to (files) when the job was cancelled while its handler was
   *  finishing, so the result could not be recorded. */
  discard?: (result: R) => Promise<void>;
}

/** What cancel() changed. */
export interface CancelOutcome<R> {
  /** True when the job was queued, running or completed and is now cancelled; false when it had
   *  already failed or been cancelled (nothing changed). */
  cancelled: boolean;
  /** The result of a job that had completed: what it refers to is the caller's to remove. */
  result: R | null;
}

export interface JobQueue {
  /** Queues a job; resolves with its id (the existing one for a repeated singleton key). */
  enqueue(name: JobName, data: unknown, options?: EnqueueOptions): Promise<string>;
  /** Runs up to `concurrency` jobs of `name` at once in this process (after start()). */
  work<D, R>(name: JobName, concurrency: number, handler: JobHandler<D, R>, options?: WorkOptions<R>): void;
  /** How many jobs of `name` are queued or running, across every process. */
  pending(name: JobName): Promise<number>;
  /** A job's state, or null when there is none with that id and name. */
  get<D = unknown, R = unknown>(name: JobName, id: string): Promise<JobInfo<D, R> | null>;
  /** Cancels a queued, running or completed job (null when there is none with that id and name).
   *  A queued job never runs; a running one is aborted here at once, or within CANCEL_POLL_MS by
   *  the process that runs it; repeating it changes nothing. */
  cancel<R = unknown>(name: JobName, id: string): Promise<CancelOutcome<R> | null>;
  start(): Promise<void>;
  /** Stops taking jobs, aborts running ones (they are put back for another process) and waits. */
  stop(): Promise<void>;
}

export interface JobDefinition {
  /** Runs after the first failure; the last failure's message becomes the job's error. */
  retryLimit: number;
  /** Wait before a retry. */
  retryDelaySeconds: number;
  /** Jobs carry a singleton key (pg-boss: a 'stately' queue). */
  keyed: boolean;
  /** Jobs run at once per process. */
  concurrency: number;
}

/** Every job the API runs. */
export const JOB_DEFINITIONS = {
  /** One shipped marketplace sound rendered and stored (services/marketplace-seed.ts). */
  "marketplace-seed": { retryLimit: 2, retryDelaySeconds: 10, keyed: true, concurrency: 1 },
  /** One video export rendered into FileStorage (services/video-jobs.ts); the streaming POST
   *  /api/video-export shares the same renderer slots. */
  "video-export": { retryLimit: 1, retryDelaySeconds: 15, keyed: false, concurrency: 1 },
  /** Removes an expired video file. */
  "video-export-expire": { retryLimit: 5, retryDelaySeconds: 60, keyed: false, concurrency: 1 },
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof JOB_DEFINITIONS;

export const JOB_NAMES = Object.keys(JOB_DEFINITIONS) as JobName[];

/** How long a claimed job stays claimed without a heartbeat (renewed every third of it): a job
 *  whose process was killed runs again elsewhere after at most this long. */
export const DEFAULT_LEASE_MS = 30_000;
/** How often an idle worker looks for jobs queued by other processes. */
export const DEFAULT_POLL_MS = 1_000;
/** How often a worker reads whether a job it runs was cancelled (by any process). */
export const CANCEL_POLL_MS = 500;
/** Progress is written at most this often per job. */
export const PROGRESS_WRITE_MS = 1_000;

/** The text stored as a job's error. */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.slice(0, 1000) || "Job failed";
}

/** Error of a job whose worker stopped answering on its last attempt. */
export const LEASE_EXPIRED_ERROR = "The worker running this job stopped (its lease expired)";
/** The abort reason a cancelled job's handler sees. */
export class JobCancelledError extends Error {
  constructor() {
    super("The job was cancelled");
    this.name = "JobCancelledError";
  }
}

/** Error of a job whose handler is not registered anywhere it was claimed. */
export const NO_HANDLER_ERROR = "No worker for this job";

/** Throttles progress writes: the first and every value after PROGRESS_WRITE_MS. */
export function throttledProgress(write: (fraction: number) => Promise<void>, onError: (err: unknown) => void): (f: number) => void {
  let last = 0;
  return (fraction) => {
    const now = Date.now();
    if (now - last < PROGRESS_WRITE_MS) return;
    last = now;
    const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    write(f).catch(onError);
  };
}
