// Retries an async call a fixed number of times with a pause between attempts (spec/accounts.md
// section 4: checkout creation gets 3 attempts with a 1 second pause). Only failures that
// `retryIf` accepts are tried again; the last failure is rethrown as it was.

export interface RetryOptions {
  attempts?: number;
  pauseMs?: number;
  retryIf?: (err: unknown) => boolean;
  /** Injected by unit tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export const CHECKOUT_RETRY = { attempts: 3, pauseMs: 1000 } as const satisfies RetryOptions;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { attempts = CHECKOUT_RETRY.attempts, pauseMs = CHECKOUT_RETRY.pauseMs, retryIf = () => true, sleep = wait } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= attempts || !retryIf(err)) throw err;
      await sleep(pauseMs);
    }
  }
}
