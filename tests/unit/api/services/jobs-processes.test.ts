// The shared job queue across processes: two API processes (job-process.ts, the real
// queue implementations) on one database. A job queued through one runs exactly once; a job whose
// process is killed with SIGKILL mid-run is completed by the other once its lease has expired; the
// state is visible to any process. On SQLite (one file) and on PostgreSQL through pg-boss (a
// server started here, or TEST_DATABASE_URL's).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openSqlite } from "../../../../api/db/open";
import type { Database } from "../../../../api/db/schema";
import type { JobQueue } from "../../../../api/services/jobs";
import { PgBossJobQueue } from "../../../../api/services/jobs-pgboss";
import { SqliteJobQueue } from "../../../../api/services/jobs-sqlite";
import { type LocalPostgres, localPostgres } from "../local-postgres";

const SCRIPT = fileURLToPath(new URL("./job-process.ts", import.meta.url));
const LEASE_MS = 1500;

interface Proc {
  child: ChildProcess;
  ids: string[];
  stderr: () => string;
}

let dir: string;
let procs: ChildProcess[];

function startProcess(env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
    env: { ...process.env, JOB_LOG: join(dir, "log"), LEASE_MS: String(LEASE_MS), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  procs.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /ready (\[.*\])/.exec(out);
      if (m) resolve({ child, ids: JSON.parse(m[1]) as string[], stderr: () => err });
    });
    child.once("exit", (code) => reject(new Error(`job process exited (${code}): ${err}`)));
  });
}

function logLines(): string[][] {
  const file = join(dir, "log");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").map((l) => l.split(" ")) : [];
}

async function until(probe: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

function suite(name: string, backend: () => { env: Record<string, string>; observer: () => Promise<JobQueue> } | null) {
  describe(name, () => {
    let observer: JobQueue;
    beforeEach(async (ctx) => {
      const b = backend();
      if (!b) return ctx.skip();
      observer = await b.observer(); // a third connection: never started, only reads state
    });

    it("runs a job queued through one process exactly once, with the state visible to every process", async () => {
      const b = backend()!;
      const a = await startProcess({ ...b.env, ENQUEUE: "12", JOB_MS: "100" });
      const other = await startProcess({ ...b.env, ENQUEUE: "0", JOB_MS: "100" });
      expect(a.ids).toHaveLength(12);
      for (const id of a.ids) {
        await until(async () => (await observer.get("video-export", id))?.state === "completed");
      }
      const done = logLines().filter((l) => l[0] === "done");
      expect(done.map((l) => l[2]).sort()).toEqual([...a.ids].sort());
      const results = await Promise.all(a.ids.map((id) => observer.get<unknown, { pid: number }>("video-export", id)));
      for (const r of results) expect([a.child.pid, other.child.pid]).toContain(r?.result?.pid);
      expect(a.stderr() + other.stderr()).toBe("");
    });

    it("completes a job whose process was killed with SIGKILL mid-run in the other process, after the lease", async () => {
      const b = backend()!;
      const a = await startProcess({ ...b.env, ENQUEUE: "1", JOB_MS: "10000" });
      const [id] = a.ids;
      await until(() => logLines().some((l) => l[0] === "start" && l[2] === id));
      const other = await startProcess({ ...b.env, ENQUEUE: "0", JOB_MS: "100" });
      await new Promise((r) => setTimeout(r, 300));
      expect((await observer.get("video-export", id))?.state).toBe("active"); // held by a's lease
      a.child.kill("SIGKILL");
      const killedAt = Date.now();
      await until(async () => (await observer.get("video-export", id))?.state === "completed");
      expect(Date.now() - killedAt).toBeGreaterThan(LEASE_MS / 2);
      const lines = logLines().filter((l) => l[2] === id);
      expect(lines).toEqual([
        ["start", String(a.child.pid), id],
        ["start", String(other.child.pid), id],
        ["done", String(other.child.pid), id],
      ]);
      expect((await observer.get<unknown, { pid: number }>("video-export", id))?.result?.pid).toBe(other.child.pid);
    });
  });
}

let sqliteDb: Kysely<Database> | null = null;
let pgServer: LocalPostgres | null = null;
let pgSkip = "";
const pgQueues: PgBossJobQueue[] = [];

beforeAll(async () => {
  const pgOrReason = await localPostgres();
  if (typeof pgOrReason === "string") {
    pgSkip = pgOrReason;
    console.log(`PostgreSQL job tests skipped: ${pgSkip}`);
  } else pgServer = pgOrReason;
}, 60_000);
afterAll(async () => {
  for (const q of pgQueues) await q.stop();
  await pgServer?.stop();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "jobs-proc-"));
  procs = [];
});
afterEach(async () => {
  for (const p of procs) {
    if (p.exitCode === null && p.signalCode === null) {
      p.kill("SIGTERM");
      await new Promise((r) => p.once("exit", r));
    }
  }
  await sqliteDb?.destroy();
  sqliteDb = null;
  rmSync(dir, { recursive: true, force: true });
});

suite("jobs across processes on one SQLite file", () => ({
  env: { JOB_DB: join(dir, "studio.db") },
  observer: async () => {
    sqliteDb = await openSqlite(join(dir, "studio.db"));
    return new SqliteJobQueue(sqliteDb);
  },
}));

suite("jobs across processes on PostgreSQL (pg-boss)", () =>
  pgServer
    ? {
        env: { JOB_PG_URL: pgServer.url },
        observer: async () => {
          const q = new PgBossJobQueue({ connectionString: pgServer!.url, leaseMs: LEASE_MS });
          pgQueues.push(q);
          return q;
        },
      }
    : null,
);
