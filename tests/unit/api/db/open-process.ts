// One process of the concurrent-open test (db-open-processes.test.ts): for each round r it waits
// until START + r * STEP_MS (a shared clock, so every process opens the round's new file in the
// same millisecond), opens OPEN_DIR/r.db with the API's openSqlite (WAL switch and migrations),
// closes it, and prints "ok r" or "fail r <message>".
import { join } from "node:path";
import { openSqlite } from "../../../../api/db/open";

const start = Number(process.env.START);
const step = Number(process.env.STEP_MS);
const rounds = Number(process.env.ROUNDS);
for (let r = 0; r < rounds; r++) {
  while (Date.now() < start + r * step); // spin: a timer would spread the processes apart
  try {
    const db = await openSqlite(join(process.env.OPEN_DIR!, `${r}.db`));
    await db.destroy();
    console.log(`ok ${r}`);
  } catch (err) {
    console.log(`fail ${r} ${err instanceof Error ? err.message : String(err)}`);
  }
}
