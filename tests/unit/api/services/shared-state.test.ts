// What several API processes on one database must share: rate limits counted in the
// database, one generated signing secret, work that runs once under a lock; and the input rule
// PostgreSQL forces on both databases (no NUL in text). Runs on SQLite, and on PostgreSQL in the
// api-postgres project; the tests marked "PostgreSQL" need TEST_DATABASE_URL (.ci/with-postgres).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseDatabaseUrl } from "../../../../api/config";
import { withExclusiveLock } from "../../../../api/db/locks";
import { migrations } from "../../../../api/db/migrations";
import { openPostgres } from "../../../../api/db/open";
import type { Database } from "../../../../api/db/schema";
import { MSG } from "../../../../api/messages";
import { NUL_REFUSED } from "../../../../api/rules/text-input";
import { sharedSecret } from "../../../../api/services/app-secrets";
import { hitBatcherFor, SharedRateLimiter } from "../../../../api/services/rate-limit";
import { createUser, findUserByEmail } from "../../../../api/services/users";
import { optionsFromEnv, type RunningServer, startServer } from "../../../../api/server";
import { bodyOf, getWith, makeTestApp, newTestSchemaUrl, openTestDatabase, postJson, signUp, TEST_DATABASE_URL, TestClock, type TestEnv } from "../helpers";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

let dir: string;
let db: Kysely<Database> | undefined;
let env: TestEnv | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "studio-shared-"));
});
afterEach(async () => {
  await env?.close();
  env = undefined;
  await db?.destroy();
  db = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe("SharedRateLimiter (rate limits kept in the database)", () => {
  it("counts exactly like the in-memory limiter: limit per sliding window, Retry-After from the oldest hit", async () => {
    db = await openTestDatabase(dir);
    const clock = new TestClock();
    const limiter = new SharedRateLimiter("test", { limit: 3, windowMs: 60_000 }, clock.now, db);
    expect(await limiter.hit("a")).toEqual({ ok: true });
    clock.advance(10_000);
    expect((await limiter.hit("a")).ok).toBe(true);
    expect((await limiter.hit("a")).ok).toBe(true);
    expect(await limiter.hit("a")).toEqual({ ok: false, retryAfterSeconds: 50 });
    expect((await limiter.hit("b")).ok).toBe(true); // keys are independent
    clock.advance(50_000);
    expect((await limiter.hit("a")).ok).toBe(true); // the first hit left the window
    expect((await limiter.hit("a")).ok).toBe(false);
    // Keys are stored hashed, and hits that left the window are gone.
    const rows = await db.selectFrom("rate_limit_hits").select(["key_hash", "at"]).where("rule", "=", "test").execute();
    expect(rows.every((r) => r.key_hash !== "a" && r.key_hash !== "b")).toBe(true);
    expect(rows).toHaveLength(4); // a: 10 s, 10 s, 60 s; b: 10 s
  });

  it("two processes on one database count together, also when their hits arrive at once", async () => {
    db = await openTestDatabase(dir);
    const clock = new TestClock();
    const rule = { limit: 10, windowMs: 60_000 };
    const a = new SharedRateLimiter("login", rule, clock.now, db);
    const b = new SharedRateLimiter("login", rule, clock.now, db);
    const decisions = await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 2 ? a : b).hit("198.51.100.7")));
    expect(decisions.filter((d) => d.ok)).toHaveLength(10);
    expect(decisions.filter((d) => !d.ok)).toHaveLength(15);
    const other = new SharedRateLimiter("register", rule, clock.now, db);
    expect((await other.hit("198.51.100.7")).ok).toBe(true); // rules are independent
  });

  it.runIf(TEST_DATABASE_URL)("PostgreSQL: hits asked for together go as one statement and count in order", async () => {
    db = await openTestDatabase(dir);
    const clock = new TestClock();
    const limiter = new SharedRateLimiter("batch", { limit: 3, windowMs: 60_000 }, clock.now, db);
    const before = { ...hitBatcherFor(db).sent };
    const decisions = await Promise.all(["a", "b", "a", "a", "a", "b"].map((k) => limiter.hit(k)));
    expect(decisions.map((d) => d.ok)).toEqual([true, true, true, true, false, true]); // a's fourth is refused
    expect(decisions[4]).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(hitBatcherFor(db).sent).toEqual({ batches: before.batches + 1, items: before.items + 6 });
  });

  it.runIf(TEST_DATABASE_URL)("PostgreSQL: two processes batching hits on many keys in opposite orders never deadlock and count exactly", async () => {
    const { url, schema } = await newTestSchemaUrl();
    const options = { options: `-c search_path=${schema}`, max: 4 };
    db = await openPostgres(url, options);
    const second = await openPostgres(url, options);
    try {
      const clock = new TestClock();
      const rule = { limit: 3, windowMs: 60_000 };
      const keys = Array.from({ length: 200 }, (_, i) => `k${i}`);
      // Three rounds: without one lock order, about every other round deadlocks (measured).
      for (const name of ["many-1", "many-2", "many-3"]) {
        const a = new SharedRateLimiter(name, rule, clock.now, db);
        const b = new SharedRateLimiter(name, rule, clock.now, second);
        const hits = [...keys, ...keys].flatMap((k, i, all) => [a.hit(k), b.hit(all[all.length - 1 - i])]);
        const decisions = await Promise.all(hits);
        expect(decisions.filter((d) => d.ok)).toHaveLength(keys.length * rule.limit); // 4 hits a key, 3 counted
        const counts = await db.selectFrom("rate_limit_hits").select(({ fn }) => ["key_hash", fn.countAll<number>().as("n")]).where("rule", "=", name).groupBy("key_hash").execute();
        expect(counts).toHaveLength(keys.length);
        expect(counts.every((c) => Number(c.n) === rule.limit)).toBe(true);
      }
    } finally {
      await second.destroy();
    }
  });

  it("enforce answers the same 429 text and Retry-After as the in-memory limiter", async () => {
    db = await openTestDatabase(dir);
    const clock = new TestClock();
    const limiter = new SharedRateLimiter("test", { limit: 1, windowMs: 90_000 }, clock.now, db);
    await limiter.enforce("k");
    const err = await limiter.enforce("k").then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ status: 429, message: MSG.tooManyRequests(90), headers: { "Retry-After": "90" } });
  });
});

describe("shared secrets", () => {
  it("are generated once: concurrent first calls and later calls all get the same value", async () => {
    db = await openTestDatabase(dir);
    const d = db;
    const values = await Promise.all(Array.from({ length: 6 }, () => sharedSecret(d, "jwt")));
    expect(new Set(values).size).toBe(1);
    expect(values[0].length).toBeGreaterThanOrEqual(64);
    expect(await sharedSecret(d, "jwt")).toBe(values[0]);
    expect(await sharedSecret(d, "other")).not.toBe(values[0]);
  });
});

describe("text with a NUL character", () => {
  it("answers 400 with one clear message in a JSON body, a path and a query, and the server keeps serving", async () => {
    env = await makeTestApp({ adminEmails: ["boss@example.com"] });
    const register = await postJson(env, "/api/auth/register", { email: "a\u0000b@example.com", password: "correct horse", fullName: "x" });
    expect(register.status).toBe(400);
    expect(await bodyOf(register)).toEqual({ error: NUL_REFUSED });
    const nested = await postJson(env, "/api/auth/login", { email: "a@example.com", password: "p", extra: { "k\u0000": 1 } });
    expect(nested.status).toBe(400);
    const { token } = await signUp(env, "boss@example.com");
    const preset = await getWith(env, "/api/presets/abc%00def", token);
    expect(preset.status).toBe(400);
    expect(await bodyOf(preset)).toEqual({ error: NUL_REFUSED });
    const listing = await getWith(env, "/api/marketplace/sounds?category=Focus%00");
    expect(listing.status).toBe(400);
    // A literal "%00" (sent encoded as %2500) is ordinary text.
    expect((await getWith(env, "/api/marketplace/sounds?category=%2500")).status).not.toBe(500);
    expect(await bodyOf(await getWith(env, "/api/health"))).toEqual({ ok: true });
  });

  it("answers 400 in a multipart field of an upload", async () => {
    env = await makeTestApp({ adminEmails: ["boss@example.com"] });
    const { token } = await signUp(env, "boss@example.com");
    const form = new FormData();
    form.set("title", "Calm\u0000");
    form.set("file", new Blob([new Uint8Array(64)], { type: "audio/wav" }), "a.wav");
    const res = await env.app.request("/api/marketplace/upload-direct", { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(400);
    expect(await bodyOf(res)).toEqual({ error: NUL_REFUSED });
    expect(await env.db.selectFrom("marketplace_sounds").select("id").execute()).toEqual([]);
  });
});

describe("DATABASE_URL", () => {
  it("accepts postgres:// and postgresql:// URLs and refuses anything else without echoing it", () => {
    expect(parseDatabaseUrl(undefined)).toBeUndefined();
    expect(parseDatabaseUrl(" ")).toBeUndefined();
    expect(parseDatabaseUrl("postgres://u:p@db:5432/studio")).toBe("postgres://u:p@db:5432/studio");
    expect(parseDatabaseUrl("postgresql://db/studio")).toBe("postgresql://db/studio");
    expect(() => parseDatabaseUrl("mysql://u:hunter2@db/x")).toThrow(/postgres:\/\//);
    expect(() => parseDatabaseUrl("mysql://u:hunter2@db/x")).not.toThrow(/hunter2/);
    expect(optionsFromEnv({ DATABASE_URL: "postgres://db/studio" }).databaseUrl).toBe("postgres://db/studio");
    expect(optionsFromEnv({}).databaseUrl).toBeUndefined();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("PostgreSQL", () => {
  it("stores 64-bit integers and doubles as SQLite does and reads counts and sums as numbers", async () => {
    db = await openTestDatabase(dir);
    const now = new Date().toISOString();
    await db
      .insertInto("marketplace_sounds")
      .values({ id: "s1", title: "t", description: "d", price_cents: 199, duration_seconds: 12.345678901234, category: "Focus", tags: "[]", specs: null, frequencies: null, file_key: "k", mime: "audio/wav", size_bytes: 5_000_000_000, uploaded_by: null, seed_key: null, created_at: now })
      .execute();
    const row = await db.selectFrom("marketplace_sounds").select(["size_bytes", "duration_seconds", "downloads"]).executeTakeFirstOrThrow();
    expect(row).toEqual({ size_bytes: 5_000_000_000, duration_seconds: 12.345678901234, downloads: 0 });
    const n = await db.selectFrom("marketplace_sounds").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(n.n).toBe(1);
    const sum = await db.selectFrom("marketplace_sounds").select(sql<number>`coalesce(sum(size_bytes), 0)`.as("s")).executeTakeFirstOrThrow();
    expect(sum.s).toBe(5_000_000_000);
    await db.insertInto("mail_log").values([{ to_email: "a@x.io", subject: "s", sent_at: now }, { to_email: "b@x.io", subject: "s", sent_at: now }]).execute();
    expect((await db.selectFrom("mail_log").select("id").orderBy("id").execute()).map((r) => r.id)).toEqual([1, 2]);
  });

  it("two processes starting together on an empty database migrate it once", async () => {
    const { url, schema } = await newTestSchemaUrl();
    const options = { options: `-c search_path=${schema}`, max: 2 };
    const [a, b] = await Promise.all([openPostgres(url, options), openPostgres(url, options)]);
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(a);
      expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations));
      // The same tables as one process alone makes (none twice, none missing).
      const tablesOf = async (db: typeof a, s: string) =>
        (await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = ${s} order by table_name`.execute(db)).rows.map((r) => r.table_name);
      const alone = await newTestSchemaUrl();
      const c = await openPostgres(alone.url, { options: `-c search_path=${alone.schema}`, max: 1 });
      try {
        const expected = await tablesOf(c, alone.schema);
        expect(expected).toContain("kysely_migration");
        expect(await tablesOf(b, schema)).toEqual(expected);
      } finally {
        await c.destroy();
      }
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  it("never prints the password of a URL it cannot connect with", async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.password = "wrong-secret-4711";
    const err = (await openPostgres(url.toString()).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/^Cannot connect to PostgreSQL at postgres:\/\/studio:\*\*\*@/);
    expect(err.message).not.toContain("wrong-secret-4711");
  });

  it("an exclusive lock lets one process at a time run the work", async () => {
    db = await openTestDatabase(dir);
    const other = await openTestDatabase(dir);
    try {
      const events: string[] = [];
      const work = (name: string) => async () => {
        events.push(`${name} start`);
        await new Promise((r) => setTimeout(r, 150));
        events.push(`${name} end`);
      };
      await Promise.all([withExclusiveLock(db, "t", work("a")), withExclusiveLock(other, "t", work("b"))]);
      expect(events).toHaveLength(4);
      expect(events[1]).toBe(`${events[0].split(" ")[0]} end`);
    } finally {
      await other.destroy();
    }
  });

  it("npm run admin works on DATABASE_URL and never prints its password", async () => {
    const { url, schema } = await newTestSchemaUrl();
    const databaseUrl = `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    db = await openPostgres(databaseUrl, { max: 1 });
    await createUser(db, { email: "ada@example.com", fullName: null, passwordHash: "x", now: new Date() });
    const admin = async (...args: string[]) => {
      const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: join(dir, "none") };
      try {
        const { stdout, stderr } = await run(TSX, ["scripts/admin.ts", ...args], { cwd: REPO, env });
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };
    expect(await admin("grant", "ada@example.com")).toMatchObject({ code: 0, stdout: "ada@example.com is now an admin.\n" });
    expect((await findUserByEmail(db, "ada@example.com"))?.is_admin).toBe(1);
    const unknown = await admin("grant", "bob@example.com");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account with the e-mail bob@example.com in postgres://studio:***@");
    expect(unknown.stderr + unknown.stdout).not.toContain(new URL(TEST_DATABASE_URL).password);
  });

  describe("two API servers on one database", () => {
    const servers: RunningServer[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.close()));
      vi.restoreAllMocks();
    });

    it("agree on the generated signing key, count rate limits together and render the shipped sounds once", async () => {
      const logged = vi.spyOn(console, "error");
      const { url, schema } = await newTestSchemaUrl();
      const databaseUrl = `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const start = (name: string) =>
        startServer({ port: 0, host: "127.0.0.1", dataDir: join(dir, name), distDir: join(dir, "no-dist"), databaseUrl, log: () => {} });
      servers.push(...(await Promise.all([start("a"), start("b")])));
      const [a, b] = servers;
      const register = (server: RunningServer, i: number) =>
        fetch(`${server.url}/api/auth/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: `u${i}@example.com`, password: "correct horse battery", fullName: `U ${i}` }),
        });
      // Signed in on one, recognised by the other: no JWT_SECRET, one key in the database.
      const first = await register(a, 0);
      expect(first.status).toBe(201);
      const { token } = (await first.json()) as { token: string };
      const profile = await fetch(`${b.url}/api/user/profile`, { headers: { Authorization: `Bearer ${token}` } });
      expect(profile.status).toBe(200);
      // Registration allows 5 per 10 minutes per address, across both servers.
      for (let i = 1; i < 5; i++) expect((await register(i % 2 ? b : a, i)).status).toBe(201);
      const sixth = await register(b, 5);
      expect(sixth.status).toBe(429);
      expect(sixth.headers.get("Retry-After")).toMatch(/^\d+$/);
      const check = await openPostgres(databaseUrl, { max: 1 });
      try {
        // The shipped sounds are rendered by the shared job queue (pg-boss) after start: wait for them.
        const deadline = Date.now() + 90_000;
        const seedCount = async () =>
          (await check.selectFrom("marketplace_sounds").select("seed_key").where("seed_key", "is not", null).execute()).length;
        while ((await seedCount()) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
        await Promise.all(servers.splice(0).map((s) => s.close()));
        const seeds = await check.selectFrom("marketplace_sounds").select("seed_key").where("seed_key", "is not", null).execute();
        expect(seeds.map((s) => s.seed_key).sort()).toEqual(["seed-deep-focus-v1", "seed-schumann-calm-v1", "seed-theta-drift-v1"]);
        expect(await check.selectFrom("app_secrets").select("name").execute()).toEqual([{ name: "jwt" }]);
        // Rendered by one of them only: the other did not try (and fail on the unique seed key), and
        // the two servers' storage holds three files together.
        expect(logged.mock.calls.map((c) => String(c[0]))).not.toContain("Background task failed");
        const stored = ["a", "b"].flatMap((name) => filesUnder(join(dir, name, "files")));
        expect(stored).toHaveLength(3);
      } finally {
        await check.destroy();
      }
    });
  });
});
