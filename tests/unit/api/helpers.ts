// Shared fixtures for the API tests: a fresh app on a real SQLite file in a temp dir (or, when
// TEST_DATABASE_URL names a PostgreSQL server, in a fresh schema of a database made for this test
// file on that server and dropped after it), a movable clock, a cheap argon2id hasher (the production parameters are tested in passwords.test.ts), a
// hasher that records its calls, and small request helpers.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import pg from "pg";
import { afterAll } from "vitest";
import { type ApiApp, type AppDeps, createApp } from "../../../api/app";
import { type FileStorage, localStorage } from "../../../api/services/storage";
import type { AppConfigInput } from "../../../api/config";
import { openPostgres, openSqlite } from "../../../api/db/open";
import type { Database } from "../../../api/db/schema";
import type { Logger } from "../../../api/errors";
import { outboxMailer } from "../../../api/services/mailer";
import { readOutbox } from "../../../api/services/outbox";
import { createArgon2Hasher, type PasswordHasher } from "../../../api/services/passwords";

export const TEST_SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
export const PUBLIC_URL = "http://studio.test";

/** Argon2id with tiny costs: same code path, fast tests. Never the production default. */
export const fastHasher = createArgon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

/** `inner` with a record of every call: the passwords hashed, and each verify's stored hash and
 *  password. */
export function countingHasher(inner: PasswordHasher = fastHasher) {
  const calls = { hash: [] as string[], verify: [] as { storedHash: string; password: string }[] };
  const hasher: PasswordHasher = {
    hash(password) {
      calls.hash.push(password);
      return inner.hash(password);
    },
    verify(storedHash, password) {
      calls.verify.push({ storedHash, password });
      return inner.verify(storedHash, password);
    },
  };
  return { hasher, calls };
}

export class TestClock {
  ms: number;
  constructor(start = Date.parse("2030-01-01T12:00:00.000Z")) {
    this.ms = start;
  }
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** The PostgreSQL server the API tests run on, or "" for SQLite (the default). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "";

let fileDatabase: Promise<string> | null = null;
let fileDatabaseName: string | null = null;
let schemas = 0;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** This test file's database on TEST_DATABASE_URL's server (C collation: text sorts by code
 *  point, as SQLite's does), created on first use and dropped when the file's tests are done. */
function testFileDatabase(): Promise<string> {
  fileDatabase ??= (async () => {
    const name = `studio_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    await withClient(TEST_DATABASE_URL, (c) =>
      c.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`),
    );
    fileDatabaseName = name;
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    return url.toString();
  })();
  return fileDatabase;
}

// Registered while the test file is collected (it imports this module), run after its last test.
if (TEST_DATABASE_URL) {
  afterAll(async () => {
    const name = fileDatabaseName;
    if (name) await withClient(TEST_DATABASE_URL, (c) => c.query(`drop database if exists ${name} with (force)`));
  });
}

/** The URL of a new, empty schema for one app (PostgreSQL runs only). */
export async function newTestSchemaUrl(): Promise<{ url: string; schema: string }> {
  const url = await testFileDatabase();
  const schema = `s${++schemas}`;
  await withClient(url, (c) => c.query(`create schema ${schema}`));
  return { url, schema };
}

/** A freshly migrated database: SQLite in `dir`, or a new schema on TEST_DATABASE_URL's server. */
export async function openTestDatabase(dir: string): Promise<Kysely<Database>> {
  if (!TEST_DATABASE_URL) return openSqlite(join(dir, "studio.db"));
  const { url, schema } = await newTestSchemaUrl();
  return openPostgres(url, { options: `-c search_path=${schema}`, max: 4 });
}

export interface TestEnv {
  app: ApiApp;
  db: Kysely<Database>;
  dir: string;
  outbox: string;
  clock: TestClock;
  errors: string[];
  close(): Promise<void>;
}

export async function makeTestApp(
  config: Partial<AppConfigInput> = {},
  extra: { clock?: TestClock } & Pick<AppDeps, "demoDurationMs" | "deployer" | "video" | "hasher"> & { storage?: (dir: string) => FileStorage } = {},
): Promise<TestEnv> {
  const dir = mkdtempSync(join(tmpdir(), "studio-api-"));
  const db = await openTestDatabase(dir);
  const outbox = join(dir, "outbox");
  const clock = extra.clock ?? new TestClock();
  const errors: string[] = [];
  const logger: Logger = { error: (message) => errors.push(message) };
  const app = createApp({
    db,
    mailer: outboxMailer(outbox, "Tone Studio <no-reply@studio.test>"),
    clock: clock.now,
    hasher: extra.hasher ?? fastHasher,
    logger,
    config: { publicUrl: PUBLIC_URL, jwtSecret: TEST_SECRET, ...config },
    demoDurationMs: extra.demoDurationMs,
    deployer: extra.deployer,
    storage: extra.storage ? extra.storage(dir) : localStorage(join(dir, "files")),
    video: { tmpDir: join(dir, "video-tmp"), ...extra.video },
  });
  return {
    app,
    db,
    dir,
    outbox,
    clock,
    errors,
    async close() {
      await app.settle();
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function postJson(env: TestEnv, path: string, body: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return Promise.resolve(
    env.app.request(path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }),
  );
}

export function getWith(env: TestEnv, path: string, token?: string): Promise<Response> {
  return Promise.resolve(env.app.request(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} }));
}

export async function bodyOf(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** Registers an account and returns its session token and id. */
export async function signUp(env: TestEnv, email = "ada@example.com", password = "correct horse") {
  const res = await postJson(env, "/api/auth/register", { email, password });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: string } };
  return { token: body.token, userId: body.user.id };
}

/** Registers an account with an active Monthly Plan (Pro) and returns its session token. */
export async function signUpPro(env: TestEnv, email = "pro@example.com"): Promise<string> {
  const { token, userId } = await signUp(env, email);
  const now = env.clock.now().toISOString();
  await env.db
    .insertInto("subscriptions")
    .values({ id: `s-${userId}`, user_id: userId, plan_name: "Monthly Plan", status: "active", current_period_end: new Date(env.clock.ms + 30 * 86_400_000).toISOString(), created_at: now, updated_at: now })
    .execute();
  return token;
}

/** Messages in the outbox after background sends finished. */
export async function sentMail(env: TestEnv) {
  await env.app.settle();
  return readOutbox(env.outbox);
}

/** The `code` query parameter of the last mail sent to `to`. */
export async function lastCode(env: TestEnv, to: string): Promise<string> {
  const mail = (await sentMail(env)).filter((m) => m.to === to).at(-1);
  if (!mail || mail.links.length === 0) throw new Error(`no mail with a link for ${to}`);
  const code = new URL(mail.links[0]).searchParams.get("code");
  if (!code) throw new Error("link without code");
  return code;
}
