// bench/pg-ops: what each query of a signed-in PostgreSQL write costs, one at a time: the services
// a preset share calls (the session read, the entitlement sources, the rate-limit hit, the insert)
// and a bare `select 1`, each run 2,000 times in a row on one user, with the CPU time of every
// `postgres` process on this machine (from /proc: run it with PostgreSQL on this host and nothing
// else using it) and of this process, per call. First the session and entitlement reads from the
// per-process caches, then two rounds with the caches off (the change listener closed), every read
// going to the database.
// `DATABASE_URL=postgres://... npx tsx bench/pg-ops.ts` (an empty database: it is migrated and written).
import { sql } from "kysely";
import { buildServices } from "../api/context";
import { tableChangesOf } from "../api/db/changes";
import type { PostgresTableChanges } from "../api/db/changes-postgres";
import { openPostgres } from "../api/db/open";
import { createPreset } from "../api/services/presets";
import { createUser } from "../api/services/users";
import { processCpuSeconds, processesNamed } from "./proc";
import { presetData } from "../dsp/host/schema/preset";
import { defaultAudioState } from "../dsp/host/schema/state";

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:/.test(url)) {
  console.error("usage: DATABASE_URL=postgres://... npx tsx bench/pg-ops.ts");
  process.exit(2);
}
const CALLS = 2000;
/** CPU seconds of every process named postgres. */
const postgresCpuSeconds = () => processesNamed("postgres").reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);

const db = await openPostgres(url);
try {
  const s = buildServices({ db, mailer: { send: async () => {} }, config: { publicUrl: "http://bench.test", jwtSecret: "b".repeat(40) }, logger: { error() {} } });
  const now = new Date();
  const user = (await createUser(db, { email: `pg-ops-${Date.now()}@bench.test`, fullName: null, passwordHash: "x", now }))!;
  await db
    .insertInto("temporary_access")
    .values({ id: `pg-ops-${user.id}`, email: user.email, access_type: "daily", duration_hours: 24, reason: "bench", status: "active", created_at: now.toISOString(), end_date: new Date(now.getTime() + 86_400_000).toISOString(), granted_by: null })
    .execute();
  const { token } = await s.sessions.create(user.id);
  const data = presetData(defaultAudioState());
  let key = 0;
  const ops: [string, () => Promise<unknown>][] = [
    ["select 1", () => sql`select 1`.execute(db)],
    ["session read", () => s.sessions.verify(token)],
    ["entitlement sources", () => s.entitlementsOf(user)],
    ["rate-limit hit", async () => s.limiters.presetCreatePerUser.hit(`pg-ops-${key++}`)],
    ["preset insert", () => createPreset(s, user, "bench", data)],
  ];
  const measure = async (label: string, name: string, op: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await op(); // warm: connections, prepared statements, JIT
    const pg0 = postgresCpuSeconds();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await op();
    const wall = (performance.now() - t0) / CALLS;
    const cpu = process.cpuUsage(cpu0);
    const pg = ((postgresCpuSeconds() - pg0) * 1e6) / CALLS;
    console.log(`| ${label} | ${name} | ${(wall * 1000).toFixed(0)} | ${((cpu.user + cpu.system) / CALLS).toFixed(0)} | ${pg.toFixed(0)} |`);
  };
  console.log("| round | operation | wall us | API CPU us | PostgreSQL CPU us |\n|---|---|---:|---:|---:|");
  const changes = tableChangesOf(db) as PostgresTableChanges;
  await changes.start();
  await measure("cached", "session read", () => s.sessions.verify(token));
  await measure("cached", "entitlement sources", () => s.entitlementsOf(user));
  await changes.close(); // the caches off: every read below goes to the database
  for (const round of [1, 2]) for (const [name, op] of ops) await measure(String(round), name, op);
} finally {
  await db.destroy();
}
