// Queries compiled once (api/db/prepared.ts): the builder runs once however many calls follow,
// each call's values are bound in the right places, constants of the builder are kept, and an
// argument that would become literal SQL text is refused at the first compile. On PostgreSQL (the
// api-postgres project) each prepared query is also a named server-side statement.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openPostgres, openSqlite } from "../../../../api/db/open";
import { preparedQuery, serverStatementName } from "../../../../api/db/prepared";
import type { Database } from "../../../../api/db/schema";
import { newTestSchemaUrl, TEST_DATABASE_URL } from "../helpers";

let dir: string;
let db: Kysely<Database>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "prepared-"));
  if (TEST_DATABASE_URL) {
    // One connection, so the statements it prepared can be listed through the same pool.
    const { url, schema } = await newTestSchemaUrl();
    db = await openPostgres(url, { options: `-c search_path=${schema}`, max: 1 });
  } else {
    db = await openSqlite(join(dir, "studio.db"));
  }
  for (const [i, to] of ["a@x.test", "b@x.test", "a@x.test", "a@x.test"].entries()) {
    await db.insertInto("mail_log").values({ to_email: to, subject: `s${i}`, sent_at: `2030-01-0${i + 1}T00:00:00.000Z` }).execute();
  }
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

it("builds once, binds each call's values and keeps the builder's constants", async () => {
  let builds = 0;
  const latestTo = preparedQuery((d, arg: (name: "to" | "after") => string) => {
    builds++;
    return d.selectFrom("mail_log").select("subject").where("to_email", "=", arg("to")).where("sent_at", ">", arg("after")).orderBy("sent_at", "desc").limit(2);
  });
  const subjects = async (to: string, after: string) => (await latestTo(db, { to, after })).rows.map((r) => r.subject);
  expect(await subjects("a@x.test", "2000-01-01")).toEqual(["s3", "s2"]); // the limit of 2 kept
  expect(await subjects("b@x.test", "2000-01-01")).toEqual(["s1"]);
  expect(await subjects("a@x.test", "2030-01-03T12")).toEqual(["s3"]);
  expect(await subjects("nobody@x.test", "2000-01-01")).toEqual([]);
  expect(builds).toBe(1);
});

it("runs writes through the same path (an insert is stored with its values)", async () => {
  const log = preparedQuery((d, arg: (name: "to" | "subject") => string) =>
    d.insertInto("mail_log").values({ to_email: arg("to"), subject: arg("subject"), sent_at: "2031-01-01T00:00:00.000Z" }),
  );
  await log(db, { to: "c@x.test", subject: "hello" });
  await log(db, { to: "d@x.test", subject: "again" });
  const rows = await db.selectFrom("mail_log").select(["to_email", "subject", "sent_at"]).where("sent_at", "=", "2031-01-01T00:00:00.000Z").orderBy("id").execute();
  expect(rows).toEqual([
    { to_email: "c@x.test", subject: "hello", sent_at: "2031-01-01T00:00:00.000Z" },
    { to_email: "d@x.test", subject: "again", sent_at: "2031-01-01T00:00:00.000Z" },
  ]);
});

it("refuses an argument that is not a bound parameter", async () => {
  const literal = preparedQuery((d, arg: (name: "to") => string) => d.selectFrom("mail_log").select("subject").where("to_email", "=", sql.lit(arg("to"))));
  await expect(literal(db, { to: "a@x.test" })).rejects.toThrow(/preparedQuery: .* is not a bound parameter/);
  const unused = preparedQuery((d, arg: (name: "to") => string) => {
    arg("to");
    return d.selectFrom("mail_log").select("subject");
  });
  await expect(unused(db, { to: "a@x.test" })).rejects.toThrow(/preparedQuery: to is not a bound parameter/);
});

it.runIf(TEST_DATABASE_URL)("PostgreSQL: runs as one named statement per connection, parsed once however many calls follow", async () => {
  const bySubject = preparedQuery((d, arg: (name: "subject") => string) => d.selectFrom("mail_log").select("to_email").where("subject", "=", arg("subject")));
  const unprepared = (subject: string) => db.selectFrom("mail_log").select("to_email").where("subject", "=", subject).execute();
  for (const subject of ["s0", "s1", "s2", "s0", "s1", "s2", "s3"]) {
    // The same answers as the same query unprepared, before and after the server's generic plan (its sixth run).
    expect((await bySubject(db, { subject })).rows).toEqual(await unprepared(subject));
  }
  const compiled = db.selectFrom("mail_log").select("to_email").where("subject", "=", "x").compile().sql;
  const name = serverStatementName(compiled);
  expect(name).toMatch(/^studio_/);
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db);
  // One statement for the select (the same text built the usual way is the same statement); the
  // other rows are the inserts of beforeEach, whose text an earlier test's prepared insert shares.
  expect(rows.filter((r) => r.statement.startsWith("select"))).toEqual([{ name, statement: compiled }]);
  const other = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%mail_log%'`.execute(db);
  expect(other.rows[0].n).toBe(rows.length); // nothing else was prepared: no name for ad hoc texts
});

it.runIf(TEST_DATABASE_URL)("PostgreSQL: a statement reading table.* still runs after a migration changed the table's columns", async () => {
  const all = preparedQuery((d, arg: (name: "to") => string) => d.selectFrom("mail_log").selectAll("mail_log").where("to_email", "=", arg("to")).orderBy("id").limit(1));
  expect(Object.keys((await all(db, { to: "b@x.test" })).rows[0])).not.toContain("extra");
  // Another process's migration: the named statement prepared on this connection is now stale.
  await sql`alter table mail_log add column extra text`.execute(db);
  const { rows } = await all(db, { to: "b@x.test" });
  expect(rows[0]).toMatchObject({ to_email: "b@x.test", subject: "s1", extra: null });
  expect((await all(db, { to: "b@x.test" })).rows).toHaveLength(1); // and again, now prepared afresh
});
