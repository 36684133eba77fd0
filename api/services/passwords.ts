// Password hashing (argon2id through @node-rs/argon2) and the stand-in check that makes a sign-in
// for an unknown e-mail cost what a wrong password costs; the spec's password rules are in
// api/rules/passwords.ts.
// Production parameters follow OWASP's argon2id minimum (m = 19 MiB, t = 2, p = 1). Tests may
// inject a cheaper hasher through the app's deps; the default is always the production one.
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { hash, verify, type Algorithm } from "@node-rs/argon2";

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False (never a throw) for a wrong password or a malformed stored hash. */
  verify(storedHash: string, password: string): Promise<boolean>;
}

export interface Argon2Params {
  memoryCost: number; // KiB
  timeCost: number;
  parallelism: number;
}

export const PRODUCTION_ARGON2: Readonly<Argon2Params> = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

// The binding declares Algorithm as an ambient const enum, which isolatedModules cannot inline.
const ARGON2ID = 2 as Algorithm;

/** Hashes run at once: one core fewer than the machine has (at least one). @node-rs/argon2 hashes
 *  on libuv's threadpool, off the event loop, but four 19 MiB hashes at a time (the pool's size)
 *  would take every core of a small machine from the requests waiting behind them; a burst of
 *  sign-ins queues here instead. */
export const HASHES_AT_ONCE = Math.max(1, availableParallelism() - 1);

/** Runs at most `limit` of the tasks given to it at once, the rest in arrival order. */
export function concurrencyLimit(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next(); // the slot passes straight to the next task
      else running--;
    }
  };
}

export function createArgon2Hasher(params: Argon2Params = PRODUCTION_ARGON2, limit = HASHES_AT_ONCE): PasswordHasher {
  const slot = concurrencyLimit(limit);
  return {
    hash: (password) => slot(() => hash(password, { ...params, algorithm: ARGON2ID })),
    async verify(storedHash, password) {
      try {
        return await slot(() => verify(storedHash, password));
      } catch {
        return false;
      }
    },
  };
}

/** The check a sign-in runs when its e-mail has no account: `password` is verified against the
 *  hash of a random password that `hasher` made (so with the same argon2 parameters, through the
 *  same concurrency limit), so that answering an unknown address takes as long as answering a
 *  wrong password. The hash is made on first use and kept; a failure to make it is retried on the
 *  next call and never surfaces (the caller answers the same either way). */
export function unknownAccountCheck(hasher: PasswordHasher): (password: string) => Promise<void> {
  let dummy: Promise<string> | null = null;
  return async (password) => {
    try {
      dummy ??= hasher.hash(randomBytes(18).toString("base64url"));
      await hasher.verify(await dummy, password);
    } catch {
      dummy = null;
    }
  };
}
