// Queries compiled once (api/db/prepared.ts): the builder runs once however many calls follow,
// each call's values are bound in the right places, constants of the builder are kept, and an
// argument that would become literal SQL text is refused at the first compile.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openSqlite } from "../../../api/db/open";
import { preparedQuery } from "../../../api/db/prepared";
import type { Database } from "../../../api/db/schema";

let dir: string;
let db: Kysely<Database>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "prepared-"));
  db = await openSqlite(join(dir, "studio.db"));
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
