// The session and entitlement caches on PostgreSQL (db/changes-postgres.ts): several API processes
// may serve one database, so a process keeps a row only while PostgreSQL has not announced a change
// to its tables (LISTEN/NOTIFY, migration 010), and counts its own commits at once. "Another
// process" here is a second connection to the app's schema. Runs in the api-postgres project.
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tableChangesOf } from "../../../../api/db/changes";
import type { PostgresTableChanges } from "../../../../api/db/changes-postgres";
import type { Database } from "../../../../api/db/schema";
import { TEST_DATABASE_URL, getWith, makeTestApp, postJson, signUp, type TestEnv } from "../helpers";

let env: TestEnv;
let changes: PostgresTableChanges;
let other: pg.Client;

/** A second connection to the same database and schema as `db` (another API process's). */
async function connectLike(db: Kysely<Database>): Promise<pg.Client> {
  const { rows } = await sql<{ db: string; schema: string }>`select current_database() as db, current_schema() as schema`.execute(db);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${rows[0].db}`;
  const client = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${rows[0].schema}` });
  await client.connect();
  return client;
}

/** Runs `statement` on the other connection with the table's notification trigger off: a change
 *  nobody is told about, which only a read of the database can see. */
async function unannounced(table: string, statement: string): Promise<void> {
  await other.query("begin");
  await other.query(`alter table ${table} disable trigger ${table}_note_change`);
  await other.query(statement);
  await other.query(`alter table ${table} enable trigger ${table}_note_change`);
  await other.query("commit");
}

/** Waits until the notifications of every commit made so far have arrived here: PostgreSQL
 *  delivers them in commit order, so once one sent now has, the earlier ones have too (a late one
 *  would otherwise make a test's cached read load again at an unplanned moment). */
async function noticesSettled(): Promise<void> {
  const before = changes.stamp(["demo_sessions"]);
  await other.query("update demo_sessions set ends_at = ends_at where false"); // announced, changes nothing
  await vi.waitFor(() => expect(changes.stamp(["demo_sessions"])).not.toBe(before), { timeout: 5000, interval: 5 });
}

describe.runIf(TEST_DATABASE_URL)("PostgreSQL: cached sessions and entitlements", () => {
  beforeEach(async () => {
    env = await makeTestApp();
    changes = tableChangesOf(env.db) as PostgresTableChanges;
    await changes.start();
    expect(changes.listening).toBe(true);
    other = await connectLike(env.db);
  });
  afterEach(async () => {
    await other.end();
    await env.close();
  });

  const profile = (token: string) => getWith(env, "/api/user/profile", token);
  const share = (token: string) => postJson(env, "/api/presets/user", { name: "Evening", data: {} }, token);
  const now = () => env.clock.now().toISOString();

  it("a session revoked by another process is refused once PostgreSQL announces it; until then the cache answers", async () => {
    const { token } = await signUp(env);
    await noticesSettled();
    expect((await profile(token)).status).toBe(200);
    expect((await profile(token)).status).toBe(200);
    // Unannounced, the revocation is not seen: the second answer above and this one came from the cache.
    await unannounced("sessions", `update sessions set revoked_at = '${now()}'`);
    expect((await profile(token)).status).toBe(200);
    // Any announced change to the sessions table makes every kept session be read again.
    await other.query("update sessions set expires_at = expires_at");
    await vi.waitFor(async () => expect((await profile(token)).status).toBe(401), { timeout: 5000, interval: 20 });
  });

  it("temporary access granted by another process counts once announced, and its revocation too", async () => {
    const { token } = await signUp(env, "free@example.com");
    expect((await share(token)).status).toBe(403);
    expect((await share(token)).status).toBe(403);
    await other.query(
      "insert into temporary_access (id, email, access_type, duration_hours, reason, status, end_date, created_at, granted_by) values ($1, $2, 'daily', 24, 'test', 'active', $3, $4, 'admin@example.com')",
      ["g1", "free@example.com", new Date(env.clock.ms + 86_400_000).toISOString(), now()],
    );
    // 400 (the empty preset): past the Pro check.
    await vi.waitFor(async () => expect((await share(token)).status).toBe(400), { timeout: 5000, interval: 20 });
    await other.query("update temporary_access set status = 'revoked'");
    await vi.waitFor(async () => expect((await share(token)).status).toBe(403), { timeout: 5000, interval: 20 });
  });

  it("this process's transaction counts when it commits, without waiting for a notification, and not before", async () => {
    const { token } = await signUp(env);
    await noticesSettled();
    expect((await profile(token)).status).toBe(200);
    const before = changes.stamp(["sessions"]);
    await env.db.transaction().execute(async (trx) => {
      await sql`alter table sessions disable trigger sessions_note_change`.execute(trx); // nothing announced
      await trx.updateTable("sessions").set({ revoked_at: now() }).execute();
      await sql`alter table sessions enable trigger sessions_note_change`.execute(trx);
      expect(changes.stamp(["sessions"])).toBe(before); // not committed: other requests may still use the row
    });
    expect(changes.stamp(["sessions"])).not.toBe(before);
    expect((await profile(token)).status).toBe(401);
  });

  it("while the listening connection is lost every request reads the database, and listening comes back", async () => {
    const { token } = await signUp(env);
    expect((await profile(token)).status).toBe(200);
    expect((await profile(token)).status).toBe(200);
    const pid = changes.backendPid;
    expect(pid).toBeGreaterThan(0);
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await other.query("select pg_terminate_backend($1)", [pid]);
      await vi.waitFor(() => expect(changes.listening).toBe(false), { timeout: 5000, interval: 10 });
      expect(changes.stamp(["sessions"])).toBeNull();
      expect(spy.mock.calls.flat().join(" ")).toMatch(/PostgreSQL change notifications lost/);
      // A change nobody announces is seen: nothing is served from the cache now.
      await unannounced("sessions", `update sessions set revoked_at = '${now()}'`);
      expect((await profile(token)).status).toBe(401);
      await vi.waitFor(() => expect(changes.listening).toBe(true), { timeout: 10_000, interval: 50 });
      expect(changes.backendPid).not.toBe(pid);
    } finally {
      spy.mockRestore();
    }
  });
});
