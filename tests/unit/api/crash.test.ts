// Faults: the real server (`tsx api/server.ts`, as `npm start` runs it) is killed with
// SIGKILL in the middle of a burst of writes (shared presets from several Pro accounts). On restart
// the database opens (on SQLite: passes the integrity and foreign-key checks), and every preset whose
// creation was answered 201 before the kill is there with its name; a write that was never answered
// may or may not be. On SQLite by default; on PostgreSQL in the api-postgres project.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import type { Kysely } from "kysely";
import { openPostgres, openSqlite } from "../../../api/db/open";
import type { Database } from "../../../api/db/schema";
import { afterAll, describe, expect, it } from "vitest";
import { presetData } from "../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../dsp/host/schema/state";
import { newTestSchemaUrl, TEST_DATABASE_URL } from "./helpers";

const ROOT = resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(join(tmpdir(), "studio-crash-"));
const SECRET = "crash-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
const USERS = 8;
const WRITES_PER_USER = 18; // under the per-user limit of 20 shared presets per 10 minutes
const live = new Set<ChildProcessWithoutNullStreams>();
/** The server's DATABASE_URL: a fresh schema on TEST_DATABASE_URL's server, or none (SQLite in dir). */
const databaseUrl = TEST_DATABASE_URL
  ? await newTestSchemaUrl().then(({ url, schema }) => `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`)
  : "";
const openSide = (): Promise<Kysely<Database>> => (databaseUrl ? openPostgres(databaseUrl, { max: 1 }) : openSqlite(join(dir, "studio.db")));

afterAll(() => {
  for (const child of live) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `api/server.ts` in this very process id (node --import tsx: the tsx CLI would put the
 *  server in a grandchild that a SIGKILL of the child leaves running) and resolves with its URL. */
async function start(): Promise<{ url: string; child: ChildProcessWithoutNullStreams; exited: Promise<NodeJS.Signals | number | null> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "api/server.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", JWT_SECRET: SECRET, TRUST_PROXY: "1", PUBLIC_URL: "http://studio.test", DATABASE_URL: databaseUrl },
  });
  live.add(child);
  const exited = new Promise<NodeJS.Signals | number | null>((done) => child.once("exit", (code, signal) => (live.delete(child), done(signal ?? code))));
  let out = "";
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start: ${out}`)), 60_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /Listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    void exited.then((how) => fail(new Error(`server exited (${String(how)}): ${out}`)));
  });
  return { url, child, exited };
}

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("SIGKILL during a burst of writes", () => {
  it("every write answered 201 is there after a restart, and the database is consistent", async () => {
    const first = await start();
    // Pro accounts: registered through the API (each from its own client address, as real users
    // are), the subscription written straight into the database as the Stripe webhook would.
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const res = await post(first.url, "/api/auth/register", { email: `crash${i}@example.com`, password: "correct horse battery" }, { "X-Forwarded-For": `203.0.113.${i + 1}` });
      expect(res.status).toBe(201);
      const { token, user } = (await res.json()) as { token: string; user: { id: string } };
      tokens.push(token);
      const side = await openSide();
      const now = new Date().toISOString();
      await side
        .insertInto("subscriptions")
        .values({ id: `crash-${user.id}`, user_id: user.id, plan_name: "Monthly Plan", status: "active", current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(), created_at: now, updated_at: now })
        .execute();
      await side.destroy();
    }

    const data = presetData(defaultAudioState());
    const answered = new Map<string, string>(); // id -> name, for every 201 received before the kill
    let cutOff = 0;
    let killed = false;
    // Three requests in flight per account (24 at once), so the kill lands while the server is
    // busy committing; after it every request fails, which shows the kill hit the burst.
    const lane = async (u: number, lane: number) => {
      for (let n = lane; n < WRITES_PER_USER; n += 3) {
        const name = `u${u} n${n}`;
        let res: Response;
        try {
          res = await post(first.url, "/api/presets/user", { name, data }, { Authorization: `Bearer ${tokens[u]}` });
        } catch {
          cutOff++; // the connection died with the server
          continue;
        }
        if (killed) continue; // an answer racing the kill is not counted either way
        if (res.status !== 201) throw new Error(`write answered ${res.status}: ${await res.text()}`);
        answered.set(((await res.json()) as { id: string }).id, name);
      }
    };
    const writers = Array.from({ length: USERS * 3 }, (_, i) => lane(Math.floor(i / 3), i % 3));
    // Kill once about a third of the writes have been answered: plenty are in flight then.
    while (answered.size < (USERS * WRITES_PER_USER) / 3) await new Promise((r) => setTimeout(r, 2));
    killed = true;
    const acknowledged = new Map(answered);
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    await Promise.all(writers);
    expect(acknowledged.size).toBeGreaterThan(0);
    expect(cutOff).toBeGreaterThan(0); // the kill did land mid-burst

    if (!databaseUrl) {
      // The file opens and is consistent before any server touches it again.
      const check = new SQLite(join(dir, "studio.db"));
      expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(check.pragma("foreign_key_check")).toEqual([]);
      check.close();
    }

    const second = await start();
    try {
      const health = await fetch(`${second.url}/api/health`);
      expect(health.status).toBe(200);
      const missing: string[] = [];
      for (const [id, name] of acknowledged) {
        const res = await fetch(`${second.url}/api/presets/${id}`);
        if (res.status !== 200 || ((await res.json()) as { name: string }).name !== name) missing.push(`${name} (${res.status})`);
      }
      expect(missing, `${missing.length} of ${acknowledged.size} acknowledged presets lost`).toEqual([]);
      console.log(`SIGKILL after ${acknowledged.size} acknowledged writes (${cutOff} requests cut off): all present after restart`);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });
});
