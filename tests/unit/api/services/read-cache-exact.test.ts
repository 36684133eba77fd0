// Exact read caches (services/read-cache.ts ExactReadCache over db/changes.ts): the session user
// and the entitlement sources are kept between requests on SQLite, yet a change counts on the very
// next request, whether this process made it (through kysely or raw SQL) or another connection
// did (another API process, the admin script), and an expiry counts when the clock passes it.
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TableChanges } from "../../../../api/db/changes";
import { openSqlite } from "../../../../api/db/open";
import { TEST_DATABASE_URL, getWith, makeTestApp, postJson, signUp, type TestEnv } from "../helpers";

let env: TestEnv;
beforeEach(async () => {
  env = await makeTestApp();
});
afterEach(() => env.close());

const profile = (token: string) => getWith(env, "/api/user/profile", token);
const share = (token: string) => postJson(env, "/api/presets/user", { name: "Evening", data: {} }, token);
const grant = (email: string, endMs: number) => ({
  id: `g-${email}-${endMs}`,
  email,
  access_type: "daily",
  duration_hours: 24,
  reason: "test",
  status: "active",
  end_date: new Date(endMs).toISOString(),
  created_at: env.clock.now().toISOString(),
  granted_by: "admin@example.com",
});

describe.skipIf(TEST_DATABASE_URL !== "")("changes made by another connection to the SQLite file", () => {
  let other: SQLite.Database;
  beforeEach(() => {
    other = new SQLite(join(env.dir, "studio.db"));
  });
  afterEach(() => other.close());

  it("a session revoked there is refused on the next request", async () => {
    const { token } = await signUp(env);
    expect((await profile(token)).status).toBe(200);
    expect((await profile(token)).status).toBe(200); // now served from the cache
    other.prepare("update sessions set revoked_at = ?").run(env.clock.now().toISOString());
    expect((await profile(token)).status).toBe(401);
  });

  it("temporary access granted there counts on the next request, and its revocation too", async () => {
    const { token } = await signUp(env, "free@example.com");
    expect((await share(token)).status).toBe(403);
    expect((await share(token)).status).toBe(403);
    const g = grant("free@example.com", env.clock.ms + 86_400_000);
    other.prepare("insert into temporary_access (id, email, access_type, duration_hours, reason, status, end_date, created_at, granted_by) values (@id, @email, @access_type, @duration_hours, @reason, @status, @end_date, @created_at, @granted_by)").run(g);
    expect((await share(token)).status).not.toBe(403); // 400: the empty preset; past the Pro check
    other.prepare("update temporary_access set status = 'revoked'").run();
    expect((await share(token)).status).toBe(403);
  });
});

describe("changes this process makes, and the clock", () => {
  it("a revocation written as raw SQL through the app's handle is refused on the next request", async () => {
    const { token } = await signUp(env);
    expect((await profile(token)).status).toBe(200);
    await sql`update sessions set revoked_at = ${env.clock.now().toISOString()}`.execute(env.db);
    expect((await profile(token)).status).toBe(401);
  });

  it("a session whose row expires while it is kept is refused once the clock passes it", async () => {
    const { token } = await signUp(env);
    await env.db.updateTable("sessions").set({ expires_at: new Date(env.clock.ms + 3_600_000).toISOString() }).execute();
    expect((await profile(token)).status).toBe(200);
    expect((await profile(token)).status).toBe(200);
    env.clock.advance(2 * 3_600_000); // the token itself is good for 30 days
    expect((await profile(token)).status).toBe(401);
  });

  it("a grant that ends while it is kept stops counting once the clock passes its end", async () => {
    const { token } = await signUp(env, "short@example.com");
    await env.db.insertInto("temporary_access").values(grant("short@example.com", env.clock.ms + 3_600_000)).execute();
    expect((await share(token)).status).not.toBe(403);
    expect((await share(token)).status).not.toBe(403);
    env.clock.advance(2 * 3_600_000);
    expect((await share(token)).status).toBe(403);
  });
});

describe.skipIf(TEST_DATABASE_URL !== "")("TableChanges", () => {
  it("stamps change with writes to the tables asked about, a DELETE or raw write to any, and another connection's commit", async () => {
    const db = await openSqlite(join(env.dir, "changes.db"));
    const sqlite = new SQLite(join(env.dir, "changes.db"));
    try {
      const changes = new TableChanges(sqlite);
      const mail = () => changes.stamp(["mail_log"]);
      const users = () => changes.stamp(["users"]);
      const insertMail = () => db.insertInto("mail_log").values({ to_email: "a@x.test", subject: "s", sent_at: "2030-01-01T00:00:00.000Z" }).compile();
      const [m0, u0] = [mail(), users()];
      changes.noteWrite(insertMail());
      expect(mail()).not.toBe(m0);
      expect(users()).toBe(u0);
      const [m1, u1] = [mail(), users()];
      changes.noteWrite(db.deleteFrom("users").where("id", "=", "x").compile());
      expect(mail()).not.toBe(m1);
      expect(users()).not.toBe(u1);
      const u2 = users();
      changes.noteWrite(sql`update users set full_name = 'x'`.compile(db));
      expect(users()).not.toBe(u2);
      const u3 = users();
      changes.noteWrite(sql`begin immediate`.compile(db));
      changes.noteWrite(sql`commit`.compile(db));
      expect(users()).toBe(u3);
      // Another connection (the kysely one) commits: data_version moves for this one.
      await db.insertInto("mail_log").values({ to_email: "b@x.test", subject: "s", sent_at: "2030-01-01T00:00:00.000Z" }).execute();
      expect(users()).not.toBe(u3);
    } finally {
      sqlite.close();
      await db.destroy();
    }
  });
});
