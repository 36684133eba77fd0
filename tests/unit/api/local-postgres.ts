// A throwaway PostgreSQL for tests: a fresh database on TEST_DATABASE_URL's server when that is set
// (a superuser URL, e.g. from .ci/with-postgres), otherwise a server started from Debian's
// PostgreSQL binaries in a temp directory on a free loopback port (as the postgres user when run
// as root: postgres refuses to run as root). Null, with the reason, when neither is possible.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

function binDir(): string | null {
  const candidates = ["/usr/local/bin"];
  if (existsSync("/usr/lib/postgresql")) {
    for (const v of readdirSync("/usr/lib/postgresql").sort().reverse()) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  return candidates.find((d) => existsSync(join(d, "initdb")) && existsSync(join(d, "pg_ctl")) && existsSync(join(d, "postgres"))) ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function freshDatabase(serverUrl: string, stopServer: () => Promise<void>): Promise<LocalPostgres> {
  const name = `jobs_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async stop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
      await stopServer();
    },
  };
}

/** A database to use, or the reason there is none. */
export async function localPostgres(): Promise<LocalPostgres | string> {
  if (process.env.TEST_DATABASE_URL) return freshDatabase(process.env.TEST_DATABASE_URL, async () => {});
  const bin = binDir();
  if (!bin) return "TEST_DATABASE_URL is unset and no PostgreSQL binaries (initdb, pg_ctl, postgres) were found";
  const dir = mkdtempSync(join(tmpdir(), "pg-test-"));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]] as const : [join(bin, cmd), args] as const;
    const r = spawnSync(full[0], [...full[1]], { encoding: "utf8", cwd: dir });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "start"]);
  const stopServer = async () => {
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return freshDatabase(`postgres://postgres@127.0.0.1:${port}/postgres`, stopServer);
}
