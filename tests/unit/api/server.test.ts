// api/server.ts on a random port with a temp DATA_DIR and a temp dist: the web app with its
// fallback and cache headers, cross-origin isolation headers, the API next to it, the generated
// JWT secret reused across restarts, the production hasher, the 503 before a build, and body limits
// over a real socket (a 413 the client can read, a refused body dropped within bounds).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTrustProxy } from "../../../api/config";
import { MAX_REQUEST_HEAD_BYTES, optionsFromEnv, type RunningServer, startServer } from "../../../api/server";
import { readOutbox } from "../../../api/services/outbox";
import { IMMUTABLE, NOT_BUILT } from "../../../api/static";
import { REFUSED_BODY_DISCARD } from "../../../api/http/boundary";
import { MSG } from "../../../api/messages";
import { MAX_CONFIG_LENGTH, MAX_SOUND_BODY_BYTES } from "../../../dsp/host/schema/preset";

const INDEX = "<!doctype html><title>Tone Studio</title><div id=root></div>";
let root: string;
let dataDir: string;
let distDir: string;
let server: RunningServer;
const lines: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "studio-server-"));
  dataDir = join(root, "data"); // does not exist yet: startServer creates it
  distDir = join(root, "dist");
  mkdirSync(join(distDir, "assets"), { recursive: true });
  writeFileSync(join(distDir, "index.html"), INDEX);
  writeFileSync(join(distDir, "assets", "app-1a2b.js"), "console.log('hi')");
  writeFileSync(join(distDir, "assets", "engine-3c4d.wasm"), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(join(root, "secret.txt"), "outside dist");
  server = await startServer({ port: 0, host: "127.0.0.1", dataDir, distDir, log: (l) => lines.push(l) });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function isolated(res: Response) {
  expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  expect(res.headers.get("cross-origin-embedder-policy")).toBe("require-corp");
}

describe("startServer", () => {
  it("prints one Listening line with the real port", () => {
    expect(lines).toEqual([`Listening on ${server.url}`]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers /api/health and unknown API paths as JSON", async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    isolated(health);
    const missing = await fetch(`${server.url}/api/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Not found" });
  });

  it.each(["/", "/app", "/auth?view=sign_in", "/preset/abc", "/reset-password?token=x"])(
    "serves index.html for %s, never cached",
    async (path) => {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      isolated(res);
      expect(await res.text()).toBe(INDEX);
    },
  );

  it("serves the studio for the longest ?config= link it reads (Node alone stops at 16 KiB with an empty 431)", async () => {
    const res = await fetch(`${server.url}/?config=${"A".repeat(MAX_CONFIG_LENGTH)}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
    const beyond = await fetch(`${server.url}/?config=${"A".repeat(MAX_REQUEST_HEAD_BYTES)}`);
    expect(beyond.status).toBe(431);
  });

  it("serves hashed assets immutable with their types, wasm as application/wasm", async () => {
    const js = await fetch(`${server.url}/assets/app-1a2b.js`);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe(IMMUTABLE);
    expect(await js.text()).toBe("console.log('hi')");
    const wasm = await fetch(`${server.url}/assets/engine-3c4d.wasm`);
    expect(wasm.headers.get("content-type")).toBe("application/wasm");
    expect(new Uint8Array(await wasm.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    isolated(wasm);
    expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
  });

  it("never serves files outside dist", async () => {
    for (const path of ["/%2e%2e/secret.txt", "/..%2fsecret.txt", "/assets/%2e%2e/%2e%2e/secret.txt"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(await res.text()).not.toContain("outside dist");
    }
  });

  it("hashes with the production argon2id parameters and keys limits on the socket address", async () => {
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: "sea glass 12" }),
    });
    expect(reg.status).toBe(201);
    const db = new SQLite(join(dataDir, "studio.db"), { readonly: true });
    const row = db.prepare("select password_hash from users where email = ?").get("ada@example.com") as {
      password_hash: string;
    };
    db.close();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // without SMTP_URL the verification mail lands in DATA_DIR/outbox, linking to PUBLIC_URL
    const outbox = join(dataDir, "outbox");
    for (let i = 0; i < 50 && readOutbox(outbox).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const [mail] = readOutbox(outbox);
    const port = new URL(server.url).port;
    expect(mail.to).toBe("ada@example.com");
    expect(mail.links[0]).toMatch(new RegExp(`^http://localhost:${port}/auth/callback\\?code=[\\w-]{43}&redirect=%2Fapp$`));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.url}/api/auth/forgot-password`, {
        method: "POST",
        headers: { "X-Forwarded-For": `10.0.0.${i}` }, // ignored: TRUST_PROXY is off
        body: JSON.stringify({ email: "ada@example.com" }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("generates the JWT secret once (mode 0600) and reuses it after a restart", async () => {
    const secretFile = join(dataDir, "jwt-secret");
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, "utf8");
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      body: JSON.stringify({ email: "ada@example.com", password: "sea glass 12" }),
    });
    const { token } = (await login.json()) as { token: string };
    await server.close();
    server = await startServer({ port: 0, dataDir, distDir, log: () => {} });
    expect(readFileSync(secretFile, "utf8")).toBe(secret);
    const profile = await fetch(`${server.url}/api/user/profile`, { headers: { Authorization: `Bearer ${token}` } });
    expect(profile.status).toBe(200);
  });

  it("answers 503 with a build hint when dist is missing, while the API works", async () => {
    const bare = await startServer({ port: 0, dataDir: join(root, "data2"), distDir: join(root, "nowhere"), log: () => {} });
    try {
      const res = await fetch(`${bare.url}/app`);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe(NOT_BUILT);
      isolated(res);
      expect((await fetch(`${bare.url}/api/health`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe("environment", () => {
  it("reads the runtime table's variables with their defaults", () => {
    expect(optionsFromEnv({})).toEqual({
      port: 8080,
      host: "127.0.0.1",
      dataDir: "./data",
      publicUrl: undefined,
      jwtSecret: undefined,
      adminEmails: [],
      smtpUrl: undefined,
      trustProxy: 0,
    });
    const env = optionsFromEnv({
      PORT: "9000",
      HOST: "0.0.0.0",
      DATA_DIR: "/srv/data",
      PUBLIC_URL: "https://tones.example",
      ADMIN_EMAILS: "A@x.io, b@y.io",
      TRUST_PROXY: "true",
      SMTP_URL: "smtp://mail:25",
    });
    expect(env).toMatchObject({ port: 9000, host: "0.0.0.0", dataDir: "/srv/data", adminEmails: ["a@x.io", "b@y.io"], trustProxy: 1 });
    expect(() => optionsFromEnv({ PORT: "http" })).toThrow(/PORT/);
  });

  it("parses TRUST_PROXY strictly", () => {
    expect([undefined, "", "0", "false", "off"].map(parseTrustProxy)).toEqual([0, 0, 0, 0, 0]);
    expect(["1", "true", "yes", "2"].map(parseTrustProxy)).toEqual([1, 1, 1, 2]);
    expect(() => parseTrustProxy("maybe")).toThrow(/TRUST_PROXY/);
  });
});

describe("JSON bodies over a real socket (api/http/boundary.ts, jsonBodyLimit and soundBodyLimit)", () => {
  /** POSTs `body` to a route (register by default) with node:http: with a Content-Length, or chunked. */
  async function post(body: string, chunked: boolean, path = "/api/auth/register"): Promise<{ status: number; body: unknown }> {
    const { request } = await import("node:http");
    const url = new URL(path, server.url);
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (!chunked) headers["content-length"] = String(Buffer.byteLength(body));
      const req = request(url, { method: "POST", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || "null") }));
      });
      req.on("error", reject);
      if (chunked) {
        // Several writes without a Content-Length: Transfer-Encoding: chunked.
        for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.slice(i, i + 16 * 1024));
      } else req.write(body);
      req.end();
    });
  }
  const tooBig = JSON.stringify({ email: "big@example.com", password: "correct horse", fullName: "x".repeat(70 * 1024) });

  it("413 with the spec's text beyond 64 KiB, decided from Content-Length or counted when chunked", async () => {
    for (const chunked of [false, true]) {
      const res = await post(tooBig, chunked);
      expect(res.status, `chunked: ${chunked}`).toBe(413);
      expect(res.body).toEqual({ error: MSG.bodyTooLarge });
    }
  });

  it("a shared preset may carry a long timeline: 5 MiB (MAX_SOUND_BODY_BYTES), not 64 KiB", async () => {
    const sized = (bytes: number) => JSON.stringify({ name: "long", data: { padding: "x".repeat(bytes) } });
    for (const chunked of [false, true]) {
      // Within the limit the body reaches the route, which asks for a session.
      const within = await post(sized(MAX_SOUND_BODY_BYTES - 1024), chunked, "/api/presets/user");
      expect(within.status, `chunked: ${chunked}`).toBe(401);
      const over = await post(sized(MAX_SOUND_BODY_BYTES), chunked, "/api/presets/user");
      expect([over.status, over.body], `chunked: ${chunked}`).toEqual([413, { error: MSG.bodyTooLarge }]);
    }
  });

  it("a 2 MB body to a 64 KiB route: Node's fetch reads the 413 and its text, every time, sized or chunked", async () => {
    const twoMb = JSON.stringify({ email: "big@example.com", password: "x".repeat(2 * 1024 * 1024) });
    const chunks = (text: string) => {
      const bytes = Buffer.from(text);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.subarray(i, i + 64 * 1024));
          controller.close();
        },
      });
    };
    /** One try: status, Connection header and error text, or how the request failed. */
    const attempt = async (chunked: boolean): Promise<string> => {
      const init = { method: "POST", headers: { "content-type": "application/json" }, body: chunked ? chunks(twoMb) : twoMb, duplex: "half" };
      try {
        const res = await fetch(`${server.url}/api/auth/login`, init as RequestInit);
        const body = (await res.json()) as { error?: string };
        return `${res.status} ${res.headers.get("connection")} ${body.error}`;
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause;
        return `failed: ${cause?.code ?? String(err)}`;
      }
    };
    const outcomes = { sized: [] as string[], chunked: [] as string[] };
    for (let i = 0; i < 20; i++) {
      outcomes.sized.push(await attempt(false));
      outcomes.chunked.push(await attempt(true));
    }
    const expected = new Array(20).fill(`413 close ${MSG.bodyTooLarge}`);
    expect(outcomes).toEqual({ sized: expected, chunked: expected });
  });

  it("the CSP report route (8 KiB) answers an oversized body with the same readable 413 (the Stripe webhook shares the limit)", async () => {
    for (const chunked of [false, true]) {
      const csp = await post(JSON.stringify([{ type: "csp-violation", body: { x: "y".repeat(9 * 1024) } }]), chunked, "/api/csp-report");
      expect([csp.status, csp.body], `csp, chunked: ${chunked}`).toEqual([413, { error: MSG.bodyTooLarge }]);
    }
  });

  it("a refused body is dropped for at most REFUSED_BODY_DISCARD.maxMs: a stalled sender gets its 413 and the socket closes", async () => {
    const { connect } = await import("node:net");
    const { port } = new URL(server.url);
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        const chunk = "x".repeat(70 * 1024); // past the limit, then nothing more: the body never ends
        socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      let received = "";
      socket.on("data", (d: Buffer) => (received += d.toString()));
      socket.on("end", () => resolve(received)); // the server closed its side
      socket.on("error", reject);
      socket.setTimeout(15_000, () => reject(new Error(`no close after 15 s; got ${JSON.stringify(received)}`)));
    });
    const elapsed = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(answer).toContain(JSON.stringify({ error: MSG.bodyTooLarge }));
    expect(elapsed).toBeGreaterThanOrEqual(REFUSED_BODY_DISCARD.maxMs - 100);
    expect(elapsed).toBeLessThan(REFUSED_BODY_DISCARD.maxMs + 5000);
  });

  it("reads a body within the limit either way (the missing-field text proves it was parsed)", async () => {
    for (const chunked of [false, true]) {
      const res = await post(JSON.stringify({ email: `ok-${chunked}@example.com` }), chunked);
      expect(res.status, `chunked: ${chunked}`).toBe(400);
      expect(res.body).toEqual({ error: expect.stringMatching(/password/i) });
    }
    const bad = await post("{not json", false);
    expect([bad.status, bad.body]).toEqual([400, { error: MSG.badJson }]);
  });
});
