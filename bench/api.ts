// bench/api: the API under load. Starts the real server as `npm start` does (`npx tsx
// api/server.ts`, a temporary DATA_DIR, PORT=0, DATABASE_URL passed through when set), prepares
// accounts, grants and presets through the real API, then runs autocannon on loopback against:
//   GET  /api/marketplace/sounds   the shipped sounds (the seed is awaited first)
//   GET  /api/user/profile         signed in (Bearer), tokens taken in turn
//   POST /api/presets/user         each request by the next of many writers (below), flat out, and
//                                  then at 1,000 a second evenly spaced (bench/steady-load.ts) by
//                                  writers that each asked for their profile first (as the app does)
//   GET  /api/presets/{id}         ten shared presets in turn
//   POST /api/exports              counting an export (the request the studio sends before every
//                                  WAV export) at 1,000 a second evenly spaced, by Commercial
//                                  License accounts (their plan rows written straight into the
//                                  database: the bench has no Stripe), each within its 200 exports
// and a "login does not stall other routes" row: the p99 latency of GET /api/health while a burst
// of sign-ins (production argon2id) runs beside it. Each row reports requests/s, p50 and p99
// latency, errors and non-2xx answers, and the server process's CPU time per answer; zero errors
// and zero non-2xx are part of the result. On PostgreSQL one more row, change-notice, measures how
// long after a commit another connection hears of it (the cross-process window of the cached
// sessions and entitlements, db/changes-postgres.ts).
//
// The product's limits stay on. Writes are spread over enough writers that none exceeds
// RATE_RULES.presetCreatePerUser (the write phase sends a fixed number of requests, fewer than the
// writers' combined allowance), and each simulated client signs up and signs in from its own
// loopback address (bench/api-client.ts), within registerPerIp and loginPerIp. Writers get preset
// sharing through temporary access granted by admins (ADMIN_EMAILS), within adminActionPerUser.
//
// `npx tsx bench/api.ts [--duration 10] [--connections 50] [--only preset-create,...]` prints the rows alone (build the web
// app first: `npm run build`); `npm run bench` runs it last, as rows of kind "api" that never gate.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { CHANGE_NOTIFICATION_CHANNEL } from "../api/db/migrations";
import { openPostgres, openSqlite } from "../api/db/open";
import { PLAN_EXPORTS, PLANS } from "../api/rules/plans";
import { presetData } from "../dsp/host/schema/preset";
import { defaultAudioState } from "../dsp/host/schema/state";
import { SEED_SOUNDS } from "../api/services/marketplace-seed";
import { RATE_RULES } from "../api/services/rate-limit";
import { callApi, clientAddress, expectApi, inPool } from "./api-client";
import { TARGET_EXPORT_COUNT_P99_MS, TARGET_WRITES_PER_SECOND, apiRow, changeNoticeRow, loginRow, type LoadFigures } from "./api-rows";
import { fmtTarget, num } from "./format";
import { machineCpuTicks, processCpuSeconds, stealPercent } from "./proc";
import { steadyLoad } from "./steady-load";
import type { BenchRow } from "./schema";

const REPO_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const PASSWORD = "bench-Password-42";
const LISTENING = /Listening on (http:\/\/[^\s"]+)/;

export interface ApiBenchOptions {
  /** Seconds per measured route (the write phase sends a fixed count sized for about this long). */
  durationSeconds: number;
  connections: number;
  /** Printed progress; defaults to console.error. */
  log?: (line: string) => void;
  /** Only these phases (row ids without "api/<database>/"); all when absent. */
  only?: readonly string[];
}

/** The phases, in the order they run; each gives the row of the same id. */
export const API_PHASES = ["marketplace-sounds", "user-profile", "preset-create", "preset-create-at-rate", "preset-read", "export-count", "change-notice", "login-stall"] as const;

/** "sqlite", or "postgres" when DATABASE_URL names a PostgreSQL database (passed to the server). */
export function databaseLabel(env: NodeJS.ProcessEnv = process.env): string {
  return /^postgres(ql)?:/i.test(env.DATABASE_URL ?? "") ? "postgres" : "sqlite";
}

interface Server {
  url: string;
  child: ChildProcess;
  output: string[];
}

/** `node --import tsx api/server.ts` in its own process group, resolved with the URL it prints. */
async function startServer(dataDir: string, adminEmails: string[]): Promise<Server> {
  // API_BENCH_NODE_FLAGS: extra flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=.tmp/prof".
  const flags = (process.env.API_BENCH_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "api/server.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", ADMIN_EMAILS: adminEmails.join(",") },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output: string[] = [];
  // The server has its own process group: if the bench dies first, take the group down with it.
  const orphanGuard = () => {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  process.once("exit", orphanGuard);
  child.once("exit", () => process.off("exit", orphanGuard));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start in 60 s:\n${output.join("")}`)), 60_000);
    const read = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 200) output.splice(0, output.length - 200);
      const m = LISTENING.exec(output.join(""));
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${code}) before listening:\n${output.join("")}`));
    });
  });
  return { url, child, output };
}

/** SIGTERM to the server's process group, SIGKILL after 10 s. */
async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  process.kill(-child.pid, "SIGTERM");
  const timer = setTimeout(() => {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

async function waitForSeed(url: string): Promise<number> {
  const until = Date.now() + 180_000;
  for (;;) {
    const answer = await callApi(url, "GET", "/api/marketplace/sounds");
    const sounds = answer.body.sounds;
    if (answer.status === 200 && Array.isArray(sounds) && sounds.length >= SEED_SOUNDS.length) return sounds.length;
    if (Date.now() > until) throw new Error(`the marketplace seed did not finish in 180 s (${JSON.stringify(answer.body).slice(0, 200)})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function sharedPreset(i: number) {
  const data = presetData(defaultAudioState());
  data.channels[0] = { ...data.channels[0], frequency: 100 + i, enabled: true };
  data.effects.reverb = { ...data.effects.reverb, enabled: true };
  return data;
}

function figures(r: autocannon.Result, wallSeconds: number, cpuSeconds?: number): LoadFigures {
  const answered = r["2xx"] + r.non2xx;
  return {
    requestsPerSecond: r["2xx"] / wallSeconds,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: answered,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    seconds: wallSeconds,
    serverCpuMsPerRequest: cpuSeconds === undefined || answered === 0 ? undefined : (cpuSeconds * 1000) / answered,
  };
}

/** One autocannon run; the rate is 2xx answers over the time from the start to the last answer
 *  (autocannon itself ends a run on its next one-second tick: up to a second more, which made the
 *  rate of a 5,000-request run read in steps of 20 %), the CPU that of `pid`. */
async function load(opts: autocannon.Options, pid?: number): Promise<LoadFigures> {
  const cpu0 = processCpuSeconds(pid);
  const machine0 = machineCpuTicks();
  const t0 = performance.now();
  let lastAnswer = t0;
  const result = await new Promise<autocannon.Result>((ok, fail) => {
    const options = { ...opts, renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false } as autocannon.Options;
    const run = autocannon(options, (err, r) => (err ? fail(err) : ok(r)));
    run.on("response", () => (lastAnswer = performance.now()));
  });
  // With no answer at all (every request failed), the run's whole time.
  const wall = ((lastAnswer > t0 ? lastAnswer : performance.now()) - t0) / 1000;
  const cpu1 = processCpuSeconds(pid);
  return { ...figures(result, wall, cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0), stealPercent: stealPercent(machine0, machineCpuTicks()) };
}

export async function apiBench(options: ApiBenchOptions): Promise<{ rows: BenchRow[] }> {
  const log = options.log ?? ((line: string) => console.error(line));
  const { durationSeconds: duration, connections } = options;
  const database = databaseLabel();
  const perWriter = RATE_RULES.presetCreatePerUser.limit;
  // Sized for about 1,500 writes a second; a faster server finishes the phase sooner. One request
  // a writer is kept in reserve: autocannon may prepare a request per connection it never sends.
  const want = (phase: (typeof API_PHASES)[number]) => !options.only || options.only.includes(phase);
  // The at-rate phase offers TARGET_WRITES_PER_SECOND for the duration, from its own writers.
  const rateWriters = want("preset-create-at-rate") ? Math.ceil((TARGET_WRITES_PER_SECOND * duration) / (perWriter - 1)) + connections : 0;
  const writers = Math.max(connections + 10, Math.ceil((1500 * duration) / (perWriter - 1))) + rateWriters;
  const writeRequests = (writers - rateWriters) * (perWriter - 1);
  const grantsPerAdmin = RATE_RULES.adminActionPerUser.limit - 5;
  const admins = Array.from({ length: Math.ceil((writers + 1) / grantsPerAdmin) }, (_, i) => `bench-admin-${i}@bench.test`);
  const loginAccounts = 8;
  const dataDir = mkdtempSync(join(tmpdir(), "studio-bench-api-"));
  const server = await startServer(dataDir, admins);
  try {
    const { url } = server;
    const pid = server.child.pid;
    log(`bench/api: server on ${url} (${database}); waiting for the marketplace seed`);
    const sounds = await waitForSeed(url);

    // Accounts: each registration from the next address, at most registerPerIp per address.
    let registered = 0;
    const register = async (email: string) => {
      const from = clientAddress(Math.floor(registered++ / RATE_RULES.registerPerIp.limit));
      const body = await expectApi(201, url, "POST", "/api/auth/register", { body: { email, password: PASSWORD }, from });
      return body.token as string;
    };
    const t0 = performance.now();
    const adminTokens: string[] = [];
    for (const email of admins) adminTokens.push(await register(email));
    const hashers = Math.max(1, cpus().length);
    const writerEmails = Array.from({ length: writers + 1 }, (_, i) => `bench-writer-${i}@bench.test`);
    const writerTokens = await inPool(writerEmails.length, hashers, async (i) => {
      // Registrations run in order of index, so each address gets consecutive ones.
      return register(writerEmails[i]);
    });
    const loginEmails = Array.from({ length: loginAccounts }, (_, i) => `bench-login-${i}@bench.test`);
    await inPool(loginEmails.length, hashers, (i) => register(loginEmails[i]));
    await inPool(writerEmails.length, 4, (i) =>
      expectApi(201, url, "POST", "/api/admin/grant-temporary-access", {
        body: { email: writerEmails[i], planType: "daily", reason: "bench/api writer" },
        token: adminTokens[Math.floor(i / grantsPerAdmin)],
      }),
    );
    // The last writer only shares the presets the read phase fetches.
    const owner = writerTokens.pop()!;
    const presetIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      const body = await expectApi(201, url, "POST", "/api/presets/user", { body: { name: `Bench ${i}`, data: sharedPreset(i) }, token: owner });
      presetIds.push(body.id as string);
    }
    log(`bench/api: ${sounds} sounds, ${registered} accounts, ${writers} writers with temporary access, ${presetIds.length} presets (${((performance.now() - t0) / 1000).toFixed(1)} s)`);

    const base = { url, connections, duration };
    const rows: BenchRow[] = [];
    const warm = async (o: autocannon.Options) => {
      await load({ ...o, duration: 1 });
    };

    // Writers: the saturation phase's first, then the at-rate phase's (none shared, so neither
    // phase meets a rate limit the other used up).
    const rateTokens = writerTokens.splice(writerTokens.length - rateWriters, rateWriters);

    if (want("marketplace-sounds")) {
      const listing: autocannon.Options = { ...base, url: `${url}/api/marketplace/sounds` };
      await warm(listing);
      rows.push(apiRow(database, "marketplace-sounds", "GET /api/marketplace/sounds", await load(listing, pid), connections));
      log(`bench/api: ${rows.at(-1)!.name}`);
    }

    if (want("user-profile")) {
      let p = 0;
      const profileTokens = writerTokens.slice(0, 100);
      const profile: autocannon.Options = {
        ...base,
        url,
        requests: [{ method: "GET", path: "/api/user/profile", setupRequest: (req) => ({ ...req, headers: { authorization: `Bearer ${profileTokens[p++ % profileTokens.length]}` } }) }],
      };
      await warm(profile);
      rows.push(apiRow(database, "user-profile", "GET /api/user/profile (signed in)", await load(profile, pid), connections));
    }

    const body = JSON.stringify({ name: "Bench write", data: sharedPreset(0) });
    const writeRequest = (tokens: string[]): autocannon.Request => {
      let w = 0;
      return {
        method: "POST",
        path: "/api/presets/user",
        setupRequest: (req) => ({ ...req, headers: { "content-type": "application/json", authorization: `Bearer ${tokens[w++ % tokens.length]}` }, body }),
      };
    };
    if (want("preset-create")) {
      // As fast as 50 connections go: the write throughput (latency is then connections / rate).
      const writes = await load({ url, connections, amount: writeRequests, requests: [writeRequest(writerTokens)] }, pid);
      rows.push(apiRow(database, "preset-create", "POST /api/presets/user", writes, connections));
    }
    if (want("preset-create-at-rate")) {
      // The write target as a load: 1,000 requests a second, evenly spaced (open loop,
      // bench/steady-load.ts), and the p99 of their latency counted from when each was due.
      // Its writers are active users: the web app asks for the profile when it opens, so each has
      // one profile request before its first write (the session and entitlement reads a server
      // keeps). Not measured; the writers' first writes then find what any active user's do.
      await inPool(rateTokens.length, connections, (i) => expectApi(200, url, "GET", "/api/user/profile", { token: rateTokens[i] }));
      const amount = TARGET_WRITES_PER_SECOND * duration;
      const cpu0 = processCpuSeconds(pid);
      const machine0 = machineCpuTicks();
      const writes = await steadyLoad({
        url,
        rate: TARGET_WRITES_PER_SECOND,
        amount,
        connections,
        request: (i) => ({
          method: "POST",
          path: "/api/presets/user",
          headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), authorization: `Bearer ${rateTokens[i % rateTokens.length]}` },
          body,
        }),
      });
      const cpu1 = processCpuSeconds(pid);
      writes.stealPercent = stealPercent(machine0, machineCpuTicks());
      if (cpu0 !== undefined && cpu1 !== undefined && writes.requests > 0) writes.serverCpuMsPerRequest = ((cpu1 - cpu0) * 1000) / writes.requests;
      rows.push(apiRow(database, "preset-create-at-rate", `POST /api/presets/user at ${TARGET_WRITES_PER_SECOND} req/s offered`, writes, connections));
    }

    if (want("preset-read")) {
      let r = 0;
      const read: autocannon.Options = {
        ...base,
        url,
        requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: `/api/presets/${presetIds[r++ % presetIds.length]}` }) }],
      };
      await warm(read);
      rows.push(apiRow(database, "preset-read", "GET /api/presets/{id}", await load(read, pid), connections));
    }

    if (want("export-count")) {
      // Commercial License accounts, each asked at most quota - 1 times: every answer is a 200.
      const amount = TARGET_WRITES_PER_SECOND * duration;
      const perAccount = PLAN_EXPORTS.commercial.quota - 1;
      const exporters = Math.ceil(amount / perAccount) + 1;
      const emails = Array.from({ length: exporters }, (_, i) => `bench-exporter-${i}@bench.test`);
      const tokens = await inPool(emails.length, hashers, (i) => register(emails[i]));
      await givePlan(dataDir, emails, PLANS.commercial.planName);
      // Active users: each opened the studio (its profile) before exporting. Not measured.
      await inPool(tokens.length, connections, (i) => expectApi(200, url, "GET", "/api/user/profile", { token: tokens[i] }));
      const exportBody = JSON.stringify({ kind: "wav", durationSeconds: 600 });
      const cpu0 = processCpuSeconds(pid);
      const machine0 = machineCpuTicks();
      const counted = await steadyLoad({
        url,
        rate: TARGET_WRITES_PER_SECOND,
        amount,
        connections,
        request: (i) => ({
          method: "POST",
          path: "/api/exports",
          headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(exportBody)), authorization: `Bearer ${tokens[i % tokens.length]}` },
          body: exportBody,
        }),
      });
      const cpu1 = processCpuSeconds(pid);
      counted.stealPercent = stealPercent(machine0, machineCpuTicks());
      if (cpu0 !== undefined && cpu1 !== undefined && counted.requests > 0) counted.serverCpuMsPerRequest = ((cpu1 - cpu0) * 1000) / counted.requests;
      rows.push(apiRow(database, "export-count", `POST /api/exports at ${TARGET_WRITES_PER_SECOND} req/s offered (p99 target ${TARGET_EXPORT_COUNT_P99_MS} ms)`, counted, connections));
      log(`bench/api: ${rows.at(-1)!.name}: p99 ${counted.p99Ms.toFixed(1)} ms`);
    }

    if (want("change-notice") && database === "postgres") rows.push(changeNoticeRow(await changeNoticeDelays(process.env.DATABASE_URL!, 500)));
    if (!want("login-stall")) return { rows };
    // Sign-ins beside a cheap route: each account and each address within loginPerAccountIp and
    // loginPerIp (10 a minute), all at once, while GET /api/health is measured.
    const health: autocannon.Options = { url: `${url}/api/health`, connections: Math.min(connections, 10), duration: 2 };
    await warm(health);
    const quiet = await load(health);
    const perAccount = RATE_RULES.loginPerAccountIp.limit;
    const logins = loginAccounts * perAccount;
    const loginLatencies: number[] = [];
    let instance: autocannon.Instance | undefined;
    const healthDone = new Promise<autocannon.Result>((done, fail) => {
      instance = autocannon({ ...health, duration: 120, renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false } as autocannon.Options, (err, result) => (err ? fail(err as Error) : done(result)));
    });
    const tLogin = performance.now();
    await inPool(logins, 2 * hashers + 2, async (i) => {
      const t = performance.now();
      await expectApi(200, url, "POST", "/api/auth/login", { body: { email: loginEmails[i % loginAccounts], password: PASSWORD }, from: clientAddress(50_000 + (i % loginAccounts)) });
      loginLatencies.push(performance.now() - t);
    });
    const loginSeconds = (performance.now() - tLogin) / 1000;
    instance?.stop();
    const busy = figures(await healthDone, loginSeconds);
    loginLatencies.sort((a, b) => a - b);
    rows.push(
      loginRow(database, busy, quiet, {
        logins,
        loginsPerSecond: logins / loginSeconds,
        loginP50Ms: loginLatencies[Math.floor(logins / 2)],
        parallelLogins: 2 * hashers + 2,
      }),
    );
    return { rows };
  } catch (err) {
    log(`bench/api: server output:\n${server.output.join("").slice(-4000)}`);
    throw err;
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Gives the accounts of `emails` a live plan row, written straight into the server's database
 *  (SQLite in `dataDir`, or DATABASE_URL): as a Stripe webhook would, but without Stripe. */
async function givePlan(dataDir: string, emails: readonly string[], planName: string): Promise<void> {
  const url = process.env.DATABASE_URL ?? "";
  const db = /^postgres(ql)?:/i.test(url) ? await openPostgres(url) : await openSqlite(join(dataDir, "studio.db"));
  try {
    const users = await db.selectFrom("users").select(["id", "email"]).where("email", "in", [...emails]).execute();
    const now = new Date();
    const end = new Date(now.getTime() + 30 * 86_400_000).toISOString();
    await db
      .insertInto("subscriptions")
      .values(users.map((u) => ({ id: `bench-${u.id}`, user_id: u.id, plan_name: planName, status: "active", current_period_start: now.toISOString(), current_period_end: end, created_at: now.toISOString(), updated_at: now.toISOString() })))
      .execute();
  } finally {
    await db.destroy();
  }
}

/** Milliseconds from each of `n` commits' answer to the writer until a second connection hears
 *  its notification: a statement that changes no row of `users` still fires its statement
 *  trigger (migration 010). Both connections belong to this process and its event loop is idle. */
async function changeNoticeDelays(databaseUrl: string, n: number): Promise<number[]> {
  const listener = new pg.Client({ connectionString: databaseUrl });
  const writer = new pg.Client({ connectionString: databaseUrl });
  await Promise.all([listener.connect(), writer.connect()]);
  try {
    await listener.query(`listen ${CHANGE_NOTIFICATION_CHANNEL}`);
    const delays: number[] = [];
    for (let i = 0; i < n; i++) {
      const heard = new Promise<number>((done) => listener.once("notification", () => done(performance.now())));
      await writer.query("update users set full_name = full_name where false");
      const committed = performance.now();
      delays.push((await heard) - committed);
    }
    return delays;
  } finally {
    await Promise.all([listener.end(), writer.end()]);
  }
}

/** The rows as a Markdown table (console and docs/performance.md). */
export function apiTable(rows: readonly BenchRow[]): string {
  const d = (r: BenchRow, k: string) => r.details?.[k];
  const lines = ["| route | database | req/s | p50 ms | p99 ms | server CPU ms/req | errors | non-2xx | target | steal % |", "|---|---|---:|---:|---:|---:|---:|---:|---|---:|"];
  for (const r of rows) {
    const perSecond = d(r, "requestsPerSecond");
    const rate = r.unit === "req/s" ? num(r.value) : typeof perSecond === "number" ? num(perSecond) : "-";
    const cpu = d(r, "serverCpuMsPerRequest");
    const steal = d(r, "stealPercent");
    lines.push(`| ${r.name} | ${String(d(r, "database"))} | ${rate} | ${num(Number(d(r, "p50Ms")))} | ${num(Number(d(r, "p99Ms")))} | ${typeof cpu === "number" ? cpu.toFixed(3) : "-"} | ${String(d(r, "errors"))} | ${String(d(r, "non2xx"))} | ${fmtTarget(r)} | ${typeof steal === "number" ? steal.toFixed(1) : "-"} |`);
  }
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" }, only: { type: "string" } } });
  const only = values.only?.split(",").map((x) => x.trim());
  const unknown = only?.filter((x) => !(API_PHASES as readonly string[]).includes(x)) ?? [];
  if (unknown.length > 0) {
    console.error(`--only takes phases among ${API_PHASES.join(", ")}, not ${unknown.join(", ")}`);
    process.exit(2);
  }
  const durationSeconds = Number(values.duration);
  const connections = Number(values.connections);
  if (!(durationSeconds >= 1 && durationSeconds <= 600) || !(Number.isInteger(connections) && connections >= 1 && connections <= 1000)) {
    console.error("usage: npx tsx bench/api.ts [--duration 1-600] [--connections 1-1000] [--only phase,...]");
    process.exit(2);
  }
  // Ctrl-C: exit through process.exit so the server's group is stopped too.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
  const { rows } = await apiBench({ durationSeconds, connections, only });
  console.log(apiTable(rows));
  for (const r of rows) console.log(`${r.id}: ${JSON.stringify(r.details)}`);
}
