// Two real API processes (api/server.ts) started together on one DATA_DIR: the shipped marketplace
// sounds are queued by both, yet each is rendered exactly once (one job per seed key, one file per
// sound), and both processes then list them.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { openSqlite } from "../../../../api/db/open";
import { SEED_SOUNDS } from "../../../../api/services/marketplace-seed";

const SERVER = fileURLToPath(new URL("../../../../api/server.ts", import.meta.url));
const children: ChildProcess[] = [];
let dir = "";

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill("SIGTERM");
      await new Promise((r) => c.once("exit", r));
    }
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function startServer(dataDir: string): Promise<{ url: string; stderr: () => string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve({ url: m[1], stderr: () => err, child });
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}): ${err}`)));
  });
}

it("two API processes starting together on one DATA_DIR render each shipped sound once", async () => {
  dir = mkdtempSync(join(tmpdir(), "jobs-servers-"));
  const [a, b] = await Promise.all([startServer(dir), startServer(dir)]);
  const titles = async (url: string) => {
    const res = await fetch(`${url}/api/marketplace/sounds`);
    const body = (await res.json()) as { sounds?: { title: string }[] };
    return (body.sounds ?? []).map((s) => s.title).sort();
  };
  const expected = SEED_SOUNDS.map((s) => s.title).sort();
  const end = Date.now() + 60_000;
  while ((await titles(a.url)).length < expected.length && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
  expect(await titles(a.url)).toEqual(expected);
  expect(await titles(b.url)).toEqual(expected);

  const db = await openSqlite(join(dir, "studio.db"));
  try {
    const jobs = await db.selectFrom("jobs").select(["singleton_key", "state", "result"]).where("name", "=", "marketplace-seed").execute();
    expect(jobs.every((j) => j.state === "completed")).toBe(true);
    // A process may queue a sound again just after the other finished it (the key is single only
    // while queued or running): that job finds the sound made and renders nothing.
    const rendered = jobs.filter((j) => j.result === '{"added":true}').map((j) => j.singleton_key);
    expect(rendered.sort()).toEqual(SEED_SOUNDS.map((s) => s.key).sort());
    expect(jobs.filter((j) => j.result !== '{"added":true}').every((j) => j.result === '{"added":false}')).toBe(true);
  } finally {
    await db.destroy();
  }
  // One rendered file per sound: no second render left an orphan behind.
  expect(readdirSync(join(dir, "files")).filter((f) => !f.startsWith("."))).toHaveLength(SEED_SOUNDS.length);
  expect(a.stderr() + b.stderr()).not.toMatch(/failed|error/i);
});
