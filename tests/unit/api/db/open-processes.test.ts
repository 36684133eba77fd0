// Several API processes starting together on one DATA_DIR open the same new SQLite file at once.
// SQLite answers SQLITE_BUSY without its busy wait in two places there: switching a new file to WAL
// while another process switches it, and a deferred transaction (the migrations) that read before
// another process committed. Both once failed a server start with "database is locked"
// (jobs-servers.test.ts in CI). Three processes open twenty new files in the same millisecond.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { openSqlite } from "../../../../api/db/open";
import { migrations } from "../../../../api/db/migrations";

const CHILD = fileURLToPath(new URL("./open-process.ts", import.meta.url));
const ROUNDS = 20;
let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

it("three processes opening the same new SQLite file in the same millisecond all start, twenty times over", async () => {
  dir = mkdtempSync(join(tmpdir(), "open-processes-"));
  // Far enough ahead for tsx to load in every process on a busy CI machine.
  const env = { OPEN_DIR: dir, START: String(Date.now() + 6000), STEP_MS: "150", ROUNDS: String(ROUNDS) };
  const outputs = await Promise.all([run(env), run(env), run(env)]);
  const lines = outputs.flatMap((o) => o.trim().split("\n"));
  expect(lines.filter((l) => !l.startsWith("ok "))).toEqual([]);
  expect(lines).toHaveLength(3 * ROUNDS);
  // Every file ends migrated once: each migration recorded exactly once.
  for (const r of [0, ROUNDS - 1]) {
    const db = await openSqlite(join(dir, `${r}.db`));
    try {
      const done = await db.selectFrom("kysely_migration" as never).select("name" as never).execute();
      expect(done).toHaveLength(Object.keys(migrations).length);
    } finally {
      await db.destroy();
    }
  }
}, 60_000);
