// Clients that hang up: the real server (`api/server.ts`, as `npm start` runs it) takes 200 uploads
// cut off at random byte offsets - a closed socket or a reset, with a declared length or chunked -
// on every route that reads a body (a voice recording, a marketplace upload, a shared preset, a
// video export, the Stripe webhook), while ordinary requests run beside them. The server answers
// every ordinary request throughout and is still running at the end; nothing it logged is an
// error (a client that went away is an info line); no partial file is listed or left in its
// folders for uploads in progress; and what a crash leaves there is swept when it starts again.
// On SQLite by default; on PostgreSQL in the api-postgres project.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgres, openSqlite } from "../../../api/db/open";
import type { Database } from "../../../api/db/schema";
import { monoWav } from "../../../dsp/host/export/recording-wav";
import { presetData } from "../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../dsp/host/schema/state";
import { newTestSchemaUrl, TEST_DATABASE_URL } from "./helpers";

const ROOT = resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(join(tmpdir(), "studio-chaos-"));
const SECRET = "chaos-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
const ACCOUNTS = 8;
const DROPS = 200;
const live = new Set<ChildProcessWithoutNullStreams>();
const databaseUrl = TEST_DATABASE_URL
  ? await newTestSchemaUrl().then(({ url, schema }) => `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`)
  : "";
const openSide = (): Promise<Kysely<Database>> => (databaseUrl ? openPostgres(databaseUrl, { max: 1 }) : openSqlite(join(dir, "studio.db")));
const emails = Array.from({ length: ACCOUNTS }, (_, i) => `chaos${i}@example.com`);

afterAll(() => {
  for (const child of live) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Server {
  url: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
  /** Every JSON line the server logged. */
  lines: Record<string, unknown>[];
  exited: Promise<NodeJS.Signals | number | null>;
}

async function start(): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "api/server.ts")], {
    cwd: ROOT,
    env: {
      ...process.env, DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", JWT_SECRET: SECRET, TRUST_PROXY: "1", PUBLIC_URL: "http://studio.test",
      DATABASE_URL: databaseUrl, LOG_LEVEL: "info", ADMIN_EMAILS: emails.join(","), STRIPE_SECRET_KEY: "sk_test_chaos", STRIPE_WEBHOOK_SECRET: "whsec_chaos",
      VITEST: "",
    },
  });
  live.add(child);
  const lines: Record<string, unknown>[] = [];
  const exited = new Promise<NodeJS.Signals | number | null>((done) => child.once("exit", (code, signal) => (live.delete(child), done(signal ?? code))));
  let out = "";
  let rest = "";
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start: ${out}`)), 60_000);
    child.stdout.on("data", (d: Buffer) => {
      const text = d.toString();
      out += text;
      rest += text;
      const parts = rest.split("\n");
      rest = parts.pop() ?? "";
      for (const p of parts) {
        if (p.startsWith("{")) lines.push(JSON.parse(p) as Record<string, unknown>);
      }
      const m = /Listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    void exited.then((how) => fail(new Error(`server exited (${String(how)}): ${out}`)));
  });
  return { url, port: Number(new URL(url).port), child, lines, exited };
}

/** Sends the head and the first `cut` bytes of `body`, then closes the socket (or resets it). With
 *  `chunked`, the body goes as one chunk of a chunked request and is cut inside it. */
function dropAfter(port: number, path: string, headers: Record<string, string>, body: Uint8Array, cut: number, how: { reset: boolean; chunked: boolean }): Promise<void> {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {}); // the server may answer and close first: that is fine
    socket.on("connect", () => {
      const head = [`POST ${path} HTTP/1.1`, "Host: studio.test", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      head.push(how.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.byteLength}`);
      socket.write(`${head.join("\r\n")}\r\n\r\n`);
      if (how.chunked) socket.write(`${body.byteLength.toString(16)}\r\n`);
      socket.write(body.subarray(0, cut));
      setTimeout(() => {
        if (how.reset) socket.resetAndDestroy();
        else socket.destroy();
        done();
      }, Math.floor(Math.random() * 30));
    });
  });
}

function multipart(fields: Record<string, string>, file: Uint8Array): { body: Uint8Array; type: string } {
  const boundary = `----chaos${randomUUID()}`;
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (const [k, v] of Object.entries(fields)) parts.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`), file, enc.encode(`\r\n--${boundary}--\r\n`));
  const body = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.byteLength;
  }
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

function tone(seconds: number): Uint8Array<ArrayBuffer> {
  const pcm = new Int16Array(Math.round(seconds * 48000));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(Math.sin((2 * Math.PI * 440 * i) / 48000) * 8000);
  return monoWav(pcm);
}

/** Files left in the server's folders for uploads in progress. */
function incoming(): string[] {
  return [join(dir, "files", ".incoming"), join(dir, "tmp", "uploads")].flatMap((d) => (existsSync(d) ? readdirSync(d) : []));
}

describe("clients that hang up halfway", () => {
  it(`the server answers throughout ${DROPS} dropped uploads on every body-reading route and keeps no partial file`, async () => {
    const server = await start();
    const { url, port } = server;
    const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
    // Pro accounts that are also admins (the marketplace upload is for admins), each from its own address.
    const tokens: string[] = [];
    const side = await openSide();
    for (let i = 0; i < ACCOUNTS; i++) {
      const res = await json("/api/auth/register", { email: emails[i], password: "correct horse battery" }, { "X-Forwarded-For": `203.0.113.${i + 1}` });
      expect(res.status).toBe(201);
      const { token, user } = (await res.json()) as { token: string; user: { id: string } };
      tokens.push(token);
      const now = new Date().toISOString();
      await side
        .insertInto("subscriptions")
        .values({ id: `chaos-${user.id}`, user_id: user.id, plan_name: "Monthly Plan", status: "active", current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(), created_at: now, updated_at: now })
        .execute();
    }

    const wav = tone(1);
    const preset = new TextEncoder().encode(JSON.stringify({ name: "dropped preset", data: presetData(defaultAudioState()) }));
    const state = defaultAudioState();
    const video = new TextEncoder().encode(JSON.stringify({
      backgroundType: "black", quality: "720p", duration: 1, frequencies: state.channels, effects: state.effects,
      verification: { enabledChannelCount: state.channels.filter((c) => c.enabled).length, enabledEffectCount: 0, timestamp: Date.now() },
    }));
    const webhook = new TextEncoder().encode(JSON.stringify({ id: "evt_chaos", type: "checkout.session.completed", data: { object: { id: "cs_1" } } }));
    const routes = [
      (k: number) => ({ path: `/api/recordings?name=drop-${k}`, headers: { "Content-Type": "audio/wav" }, body: wav }),
      (k: number) => {
        const form = multipart({ title: `drop ${k}`, price: "0", duration: "1" }, wav);
        return { path: "/api/marketplace/upload-direct", headers: { "Content-Type": form.type }, body: form.body };
      },
      () => ({ path: "/api/presets/user", headers: { "Content-Type": "application/json" }, body: preset }),
      () => ({ path: "/api/video-export", headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" }, body: video }),
      () => ({ path: "/api/stripe/webhook", headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00" }, body: webhook }),
    ];

    // Ordinary requests beside the drops: each must be answered as usual.
    let stop = false;
    const failures: string[] = [];
    let ordinary = 0;
    const normalTraffic = (async () => {
      let n = 0;
      while (!stop) {
        const t = tokens[n % ACCOUNTS];
        const checks: [string, Promise<Response>, number][] = [
          ["health", fetch(`${url}/api/health`), 200],
          ["list", fetch(`${url}/api/recordings`, { headers: { Authorization: `Bearer ${t}` } }), 200],
        ];
        // A few complete uploads too (within the per-account upload limit beside the drops).
        if (n % 4 === 0 && n < 80) checks.push(["upload", fetch(`${url}/api/recordings?name=kept-${n}`, { method: "POST", headers: { Authorization: `Bearer ${t}`, "Content-Type": "audio/wav" }, body: wav }), 201]);
        for (const [what, pending, want] of checks) {
          try {
            const res = await pending;
            if (res.status !== want) failures.push(`${what}: ${res.status} ${await res.text()}`);
            else await res.arrayBuffer();
          } catch (err) {
            failures.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
          }
          ordinary++;
        }
        n++;
      }
    })();

    for (let k = 0; k < DROPS; k += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, DROPS - k) }, (_, j) => {
          const i = k + j;
          const route = routes[i % routes.length](i);
          const cut = 1 + Math.floor(Math.random() * (route.body.byteLength - 1));
          const headers = { ...route.headers, Authorization: `Bearer ${tokens[i % ACCOUNTS]}`, "X-Forwarded-For": `198.51.100.${i % 250}` };
          return dropAfter(port, route.path, headers, route.body, cut, { reset: i % 3 === 0, chunked: i % 5 === 1 });
        }),
      );
    }
    // A little longer for the server to finish with the last of them, and to write its log (in
    // batches, at least every second).
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await normalTraffic;

    expect(failures).toEqual([]);
    expect(ordinary).toBeGreaterThan(20);
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    // Nothing logged at error level: every drop was a client going away, heard by its route.
    const errors = server.lines.filter((l) => l.level === "error" || l.level === "fatal");
    expect(errors).toEqual([]);
    expect(server.lines.some((l) => l.msg === "Client went away")).toBe(true);
    // No partial file left, none listed, no room held.
    const end = Date.now() + 5000;
    while (incoming().length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(incoming()).toEqual([]);
    for (const t of tokens) {
      const { recordings } = (await (await fetch(`${url}/api/recordings`, { headers: { Authorization: `Bearer ${t}` } })).json()) as { recordings: { name: string; bytes: number }[] };
      for (const r of recordings) expect(r).toMatchObject({ name: expect.stringMatching(/^kept-/), bytes: wav.byteLength });
    }
    expect(await side.selectFrom("recording_reservations").selectAll().execute()).toEqual([]);

    // What a crash leaves (a partial upload older than an hour) is swept when the server starts;
    // an upload that is only being written now is not.
    server.child.kill("SIGTERM");
    await server.exited;
    const tmp = join(dir, "files", ".incoming");
    mkdirSync(tmp, { recursive: true });
    const stale = join(tmp, `${randomUUID()}.partial`);
    const fresh = join(tmp, `${randomUUID()}.partial`);
    writeFileSync(stale, wav.subarray(0, 1000));
    writeFileSync(fresh, wav.subarray(0, 1000));
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, old, old);
    const again = await start();
    try {
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
      // (the log is written in batches, at least every second)
      const swept = () => again.lines.some((l) => l.msg === "Partial uploads swept" && l.removed === 1);
      const until = Date.now() + 3000;
      while (!swept() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(swept()).toBe(true);
    } finally {
      again.child.kill("SIGTERM");
      await again.exited;
      await side.destroy();
    }
    console.log(`${DROPS} dropped uploads beside ${ordinary} ordinary requests: all answered, no partial file kept`);
  });
});
