// The worker loops both job queues run (jobs-sqlite.ts, jobs-pgboss.ts): a number of loops per job
// name, the controllers of the jobs they are running, a sleep that an enqueue or stop() cuts short,
// the watch that aborts a running job once it has been cancelled (here or by another process), and
// a stop that aborts the running jobs and waits for every loop to end.
import type { Logger } from "../errors";
import { CANCEL_POLL_MS, errorText, JobCancelledError } from "./jobs";

export class WorkerLoops {
  readonly #log: Logger;
  readonly #loops = new Set<Promise<void>>();
  /** The controller of each job being run here, by job id. */
  readonly running = new Map<string, AbortController>();
  #wakers: (() => void)[] = [];
  #stopping = false;

  constructor(log: Logger) {
    this.#log = log;
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Starts `concurrency` loops of `loop` for the job `name`; a loop that throws is logged. */
  spawn(name: string, concurrency: number, loop: () => Promise<void>): void {
    for (let i = 0; i < concurrency; i++) {
      const running: Promise<void> = loop()
        .catch((err: unknown) => this.#log.error("Job worker stopped", { name, message: errorText(err) }))
        .finally(() => this.#loops.delete(running));
      this.#loops.add(running);
    }
  }

  /** Aborts the job `id` with JobCancelledError when it runs in this process. */
  cancel(id: string): void {
    this.running.get(id)?.abort(new JobCancelledError());
  }

  /** Asks `cancelled(id)` every CANCEL_POLL_MS while the job runs and aborts it once it answers
   *  true (the cancel was received by another process); returns the function that stops asking. */
  watch(name: string, id: string, cancelled: () => Promise<boolean>): () => void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return; // a slow database: one question at a time
      busy = true;
      cancelled()
        .then((yes) => {
          if (yes) this.cancel(id);
        }, (err: unknown) => this.#log.error("Job cancel check failed", { name, message: errorText(err) }))
        .finally(() => {
          busy = false;
        });
    }, CANCEL_POLL_MS);
    return () => clearInterval(timer);
  }

  /** The job's lease renewal changed no row: aborts it as cancelled when that is why, else as a
   *  job whose lease was lost (another worker may hold it now). */
  async leaseLost(id: string, cancelled: () => Promise<boolean>): Promise<void> {
    const why = await cancelled().catch(() => false);
    this.running.get(id)?.abort(why ? new JobCancelledError() : new Error("The job's lease was lost"));
  }

  /** Ends every sleep now (a job was queued, or the queue is stopping). */
  wake(): void {
    const w = this.#wakers;
    this.#wakers = [];
    for (const f of w) f();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakers.push(done);
    });
  }

  /** Aborts the running jobs, wakes the loops and resolves once all of them have ended. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const c of this.running.values()) c.abort(new Error("The job queue is stopping"));
    this.wake();
    while (this.#loops.size > 0) await Promise.all([...this.#loops]);
  }
}
