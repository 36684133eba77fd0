// Password hashing (argon2id through @node-rs/argon2); the spec's password rules are in
// api/rules/passwords.ts.
// Production parameters follow OWASP's argon2id minimum (m = 19 MiB, t = 2, p = 1). Tests may
// inject a cheaper hasher through the app's deps; the default is always the production one.
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

export function createArgon2Hasher(params: Argon2Params = PRODUCTION_ARGON2): PasswordHasher {
  return {
    hash: (password) => hash(password, { ...params, algorithm: ARGON2ID }),
    async verify(storedHash, password) {
      try {
        return await verify(storedHash, password);
      } catch {
        return false;
      }
    },
  };
}
